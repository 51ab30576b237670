import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QueryLimits } from '../config.js';
import { coded } from '../domain/errors.js';
import { LIMITS } from '../domain/inputs.js';
import { checkDocumentNesting } from '../limits/document-nesting.js';
import { queryCost } from '../limits/query-cost.js';
import { useHiddenSuggestions } from './use-hidden-suggestions.js';

/** Armor rejects with plain GraphQLErrors; tagging them here gives clients the contract's code. */
const tag = (_ctx: unknown, error: GraphQLError) => {
  Object.assign(error.extensions as Record<string, unknown>, coded('LIMIT_EXCEEDED'));
};

const overCost = (message: string, extensions: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: coded('LIMIT_EXCEEDED', extensions) });

/**
 * Nesting, depth, aliases, directives and tokens, checked before execution, and cost, checked
 * when the variables are known, before anything runs (fragments are expanded, so spreading a
 * fragment costs what its fields cost). The cost counts list fan-out (see query-cost.ts): a
 * field's cost is multiplied by the sizes of the lists it is nested in. Field suggestions ("Did
 * you mean ...") are hidden when GraphiQL is off, so a closed API does not leak its schema.
 */
export function useLimits(
  limits: QueryLimits,
  options: {
    suggestions: boolean;
    /** Told the cost of each operation accepted, with the request's context: the cost budget charges exactly this. */
    onCost?: (context: object, cost: number) => void;
  },
): Plugin {
  const onCost = options.onCost;
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, onReject: [tag] },
    // Armor counts each field once, whatever the lists around it: the cost plugin below replaces it.
    costLimit: { enabled: false },
    maxAliases: { n: limits.maxAliases, onReject: [tag] },
    maxDirectives: { n: limits.maxDirectives, onReject: [tag] },
    maxTokens: { n: limits.maxTokens, onReject: [tag] },
    // Armor masks only `Did you mean "x"?` in validation errors; useHiddenSuggestions masks every phrasing, in every phase.
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;
  const nesting = maxNesting(limits);
  // Added after armor, so it wraps armor's token-counting parser: the text is checked first.
  const nestingGuard: Plugin = {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, parseOptions) => {
        checkDocumentNesting(typeof source === 'string' ? source : source.body, nesting);
        return parseFn(source, parseOptions);
      });
    },
  };
  const cost: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      let points: number;
      try {
        points = queryCost({
          schema: args.schema,
          document: args.document,
          operationName: args.operationName,
          variables: args.variableValues,
        });
      } catch (error) {
        if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) {
          setResultAndStopExecution({
            errors: [overCost('Query too large: with its fragments expanded it selects more than 10000 fields.')],
          });
        }
        // Otherwise a variable does not fit its type: execution reports that, with its code.
        return;
      }
      if (points > limits.maxCost) {
        setResultAndStopExecution({
          errors: [
            overCost(
              `Query cost ${points} is over the limit of ${limits.maxCost} (ENGRAM_MAX_COST). Each field costs its own work times the sizes of the lists it is nested in (limit, budget, ids); ask for smaller lists, fewer aliases of expensive fields (evidence, path, traverse, context ...), or split the query.`,
              { cost: points, maxCost: limits.maxCost },
            ),
          ],
        });
        return;
      }
      onCost?.(args.contextValue as object, points);
    },
  };
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(armor);
      addPlugin(nestingGuard);
      addPlugin(cost);
      if (!options.suggestions) addPlugin(useHiddenSuggestions());
    },
  };
}

/**
 * The deepest bracket nesting a document may have: room for ENGRAM_MAX_DEPTH selection sets, a
 * metadata literal at its own limit, and 16 levels of arguments, input objects and lists. 60 by default.
 */
const maxNesting = (limits: Pick<QueryLimits, 'maxDepth'>): number => limits.maxDepth + LIMITS.metadataDepth + 16;
