import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MASKED, YOGA_CODE_RENAMES, codeForGraphQLMessage, isEngramError } from '../domain/errors.js';
import type { Logger } from '../logger.js';

/**
 * Every error leaves with `extensions.code`: domain errors keep theirs, graphql-js value errors
 * become BAD_USER_INPUT, other validation failures GRAPHQL_VALIDATION_FAILED, and anything
 * unexpected is masked as INTERNAL_SERVER_ERROR (logged with the request id, never sent).
 */
export function maskError(logger: Logger) {
  return (error: unknown, message: string): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (isEngramError(original)) {
      const graphQLError = error as GraphQLError;
      return new GraphQLError(original.message, {
        nodes: graphQLError.nodes,
        path: graphQLError.path,
        extensions: { ...original.extensions, code: original.code, retryable: original.retryable },
      });
    }
    if (error instanceof GraphQLError && !error.originalError) return toContractCode(error);
    // graphql-js wraps a scalar's coercion error (bad variable value) in one that names the variable:
    // that outer error is the one to send, with the code useErrorCodes gave it.
    if (original instanceof GraphQLError && !original.originalError)
      return error instanceof GraphQLError ? withCode(error) : original;
    logger.error({ err: original }, 'unexpected error');
    return new GraphQLError(message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { ...MASKED },
    });
  };
}

function toContractCode(error: GraphQLError): GraphQLError {
  const code = YOGA_CODE_RENAMES[String(error.extensions?.code)];
  if (code === undefined) return error;
  // extensions.http (e.g. status 413) is kept: yoga reads it for the response status, then strips it.
  return new GraphQLError(error.message, { extensions: { ...error.extensions, code, retryable: false } });
}

function withCode(error: GraphQLError): GraphQLError {
  if (error.extensions?.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: codeForGraphQLMessage(error.message), retryable: false },
  });
}

/** Adds codes to the errors graphql-js produces before execution (parse, validation, variables). */
export function useErrorCodes(): Plugin {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0)
          setResult(result.map((error) => (error instanceof GraphQLError ? withCode(error) : error)));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if ('errors' in result && result.errors?.some((error) => !error.extensions?.code && !error.path)) {
            setResult({ ...result, errors: result.errors.map((error) => (error.path ? error : withCode(error))) });
          }
        },
      };
    },
  };
}
