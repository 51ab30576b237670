import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Refuses introspection (`__schema`, `__type`) when it is off (production, unless
 * ENGRAM_INTROSPECTION=true): a closed API does not hand out its schema. `__typename` stays allowed.
 * The error is a validation error (GRAPHQL_VALIDATION_FAILED).
 */
export function useIntrospection(options: { enabled: boolean }): Plugin {
  if (options.enabled) return {};
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
