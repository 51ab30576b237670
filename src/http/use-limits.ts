import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QueryLimits } from '../config.js';

/** Armor rejects with plain GraphQLErrors; tagging them here gives clients the contract's code. */
const tag = (_ctx: unknown, error: GraphQLError) => {
  Object.assign(error.extensions as Record<string, unknown>, { code: 'LIMIT_EXCEEDED', retryable: false });
};

/**
 * Depth, cost, aliases, directives and tokens, checked before execution (fragments are
 * flattened, so spreading a fragment costs what its fields cost). Field suggestions ("Did you
 * mean ...") are hidden when GraphiQL is off, so a closed API does not leak its schema.
 */
export function useLimits(limits: QueryLimits, options: { suggestions: boolean }): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, onReject: [tag] },
    costLimit: { maxCost: limits.maxCost, flattenFragments: true, ignoreIntrospection: true, onReject: [tag] },
    maxAliases: { n: limits.maxAliases, onReject: [tag] },
    maxDirectives: { n: limits.maxDirectives, onReject: [tag] },
    maxTokens: { n: limits.maxTokens, onReject: [tag] },
    blockFieldSuggestion: { enabled: !options.suggestions },
  }) as Plugin;
}
