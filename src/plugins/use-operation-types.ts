import { type ASTVisitor, GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Refuses operations whose root type the schema lacks (graphql-js 16 has no such rule; 17's KnownOperationTypesRule). */
function knownOperationTypes(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (context.getSchema().getRootType(node.operation)) return;
      context.reportError(
        new GraphQLError(
          `Engram does not support ${node.operation} operations: its schema has queries and mutations only.`,
          {
            nodes: node,
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ),
      );
    },
  };
}

/**
 * `subscription { ... }` (and any other operation type the schema has no root for) fails
 * validation, a client error, instead of reaching execution, where graphql-js throws an error
 * that would be masked as INTERNAL_SERVER_ERROR.
 */
export function useOperationTypes(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(knownOperationTypes);
    },
  };
}
