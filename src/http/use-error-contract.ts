import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isRetryableCode } from '../domain/errors.js';

/** For errors that reach the response without a code (yoga's own HTTP-level errors), by status. */
function codeForStatus(status: number | undefined): string {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 413:
      return 'LIMIT_EXCEEDED';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'UNAVAILABLE';
    case undefined:
      return 'INTERNAL_SERVER_ERROR';
    default:
      return status >= 400 && status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
  }
}

function complete(error: GraphQLError): GraphQLError {
  const extensions = error.extensions ?? {};
  const hasCode = typeof extensions.code === 'string';
  if (hasCode && typeof extensions.retryable === 'boolean') return error;
  const code = hasCode ? (extensions.code as string) : codeForStatus((extensions.http as { status?: number } | undefined)?.status);
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...extensions, code, retryable: isRetryableCode(code) },
  });
}

/**
 * The last word on every response: each error carries `extensions.code` and
 * `extensions.retryable`, whatever phase produced it (request parsing, the body limit, a wrong
 * HTTP method ...). Errors that already have both pass untouched.
 */
export function useErrorContract(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || result === null || typeof result !== 'object' || !('errors' in result)) return;
      const errors = (result as ExecutionResult).errors;
      if (!errors || errors.every((error) => typeof error.extensions?.code === 'string' && typeof error.extensions?.retryable === 'boolean')) return;
      setResult({ ...(result as ExecutionResult), errors: errors.map((error) => (error instanceof GraphQLError ? complete(error) : error)) });
    },
  };
}
