import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { INTERNAL_EXTENSIONS, codeForStatus, isRetryableCode } from '../domain/errors.js';

const isComplete = (error: GraphQLError): boolean =>
  typeof error.extensions?.code === 'string' &&
  typeof error.extensions?.retryable === 'boolean' &&
  !INTERNAL_EXTENSIONS.some((key) => key in (error.extensions ?? {}));

function complete(error: GraphQLError): GraphQLError {
  if (isComplete(error)) return error;
  const extensions = Object.fromEntries(
    Object.entries(error.extensions ?? {}).filter(([key]) => !INTERNAL_EXTENSIONS.includes(key)),
  );
  // yoga answers a request error with its http.status only while originalError is there (else 200
  // for application/json clients, when http.spec is set): keep the status it had.
  const http = extensions.http as { spec?: boolean } | undefined;
  if (http?.spec && 'originalError' in (error.extensions ?? {})) extensions.http = { ...http, spec: false };
  const hasCode = typeof extensions.code === 'string';
  const code = hasCode
    ? (extensions.code as string)
    : codeForStatus((extensions.http as { status?: number } | undefined)?.status);
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: {
      ...extensions,
      code,
      retryable: typeof extensions.retryable === 'boolean' ? extensions.retryable : isRetryableCode(code),
    },
  });
}

/**
 * The last word on every response: each error carries `extensions.code` and
 * `extensions.retryable`, whatever phase produced it (request parsing, the body limit, a wrong
 * HTTP method ...), and none carries the server's internals (INTERNAL_EXTENSIONS). Errors that
 * already comply pass untouched.
 */
export function useErrorContract(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || result === null || typeof result !== 'object' || !('errors' in result)) return;
      const errors = (result as ExecutionResult).errors;
      if (!errors || errors.every(isComplete)) return;
      setResult({
        ...(result as ExecutionResult),
        errors: errors.map((error) => (error instanceof GraphQLError ? complete(error) : error)),
      });
    },
  };
}
