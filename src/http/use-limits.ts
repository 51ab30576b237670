import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { DocumentNode, GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QueryLimits } from '../config.js';
import { useHiddenSuggestions } from './use-hidden-suggestions.js';

/** Armor rejects with plain GraphQLErrors; tagging them here gives clients the contract's code. */
const tag = (_ctx: unknown, error: GraphQLError) => {
  Object.assign(error.extensions as Record<string, unknown>, { code: 'LIMIT_EXCEEDED', retryable: false });
};

/**
 * Depth, cost, aliases, directives and tokens, checked before execution (fragments are
 * flattened, so spreading a fragment costs what its fields cost). Field suggestions ("Did you
 * mean ...") are hidden when GraphiQL is off, so a closed API does not leak its schema.
 */
export function useLimits(
  limits: QueryLimits,
  options: {
    suggestions: boolean;
    /** Told the cost of each operation armor accepts, keyed by its document: the cost budget charges exactly this. */
    onCost?: (document: DocumentNode, cost: number) => void;
  },
): Plugin {
  const onCost = options.onCost;
  const accept = onCost
    ? [(ctx: ValidationContext | null, details: { n: number }) => ctx && onCost(ctx.getDocument(), details.n)]
    : [];
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, onReject: [tag] },
    costLimit: { maxCost: limits.maxCost, flattenFragments: true, ignoreIntrospection: true, onReject: [tag], onAccept: accept },
    maxAliases: { n: limits.maxAliases, onReject: [tag] },
    maxDirectives: { n: limits.maxDirectives, onReject: [tag] },
    maxTokens: { n: limits.maxTokens, onReject: [tag] },
    // Armor masks only `Did you mean "x"?` in validation errors; useHiddenSuggestions masks every phrasing, in every phase.
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;
  if (options.suggestions) return armor;
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(armor);
      addPlugin(useHiddenSuggestions());
    },
  };
}
