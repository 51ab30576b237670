import type { TypedDocumentString } from '../generated/graphql.js';

/** A GraphQL error as a tool reports it: the contract's code and a message a person can act on. */
export interface OperationError {
  code: string;
  message: string;
  /** The argument the error is about (GraphQL name), when the API says. */
  argument?: string;
  retryable: boolean;
}

export type OperationOutcome<TResult> =
  | { data: TResult; errors?: undefined }
  | { data?: undefined; errors: OperationError[] };

/** Runs one named operation; it never throws for GraphQL or HTTP failures, only for bugs. */
export type Execute = <TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
) => Promise<OperationOutcome<TResult>>;

/** The part of the yoga app the executor needs (`app.fetch`). */
export type FetchHandler = (url: string, init: RequestInit) => Response | Promise<Response>;

const ENDPOINT = 'http://engram.internal/graphql';

interface GraphQLErrorBody {
  message?: unknown;
  extensions?: { code?: unknown; argument?: unknown; retryable?: unknown };
}

function toOperationError(error: GraphQLErrorBody): OperationError {
  const extensions = error.extensions ?? {};
  return {
    code: typeof extensions.code === 'string' ? extensions.code : 'INTERNAL_SERVER_ERROR',
    message: typeof error.message === 'string' ? error.message : 'Unexpected error.',
    ...(typeof extensions.argument === 'string' ? { argument: extensions.argument } : {}),
    retryable: extensions.retryable === true,
  };
}

/** A body that is not GraphQL JSON (e.g. 413 from the body limit) still gets a contract code. */
function statusError(status: number): OperationError {
  if (status === 413)
    return { code: 'LIMIT_EXCEEDED', message: 'The request is larger than the server accepts.', retryable: false };
  if (status === 401) return { code: 'UNAUTHENTICATED', message: 'Missing or invalid credentials.', retryable: false };
  if (status === 403)
    return { code: 'FORBIDDEN', message: 'This workspace may not be used with these credentials.', retryable: false };
  if (status === 503)
    return {
      code: 'UNAVAILABLE',
      message: 'The server is unavailable; the request is safe to retry.',
      retryable: true,
    };
  return {
    code: 'INTERNAL_SERVER_ERROR',
    message: `Unexpected HTTP ${status} from the GraphQL endpoint.`,
    retryable: false,
  };
}

/**
 * Runs operations in-process through the yoga app, exactly as an HTTP client would: same
 * parsing, validation, limits, workspace resolution and error codes. `headers` carry the
 * workspace (and, for /mcp, the caller's credentials).
 */
export function createInProcessExecutor(fetch: FetchHandler, headers: Record<string, string>): Execute {
  return async (document, variables) => {
    const response = await fetch(ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
    let body: { data?: unknown; errors?: GraphQLErrorBody[] };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      return { errors: [statusError(response.status)] };
    }
    if (Array.isArray(body.errors) && body.errors.length > 0) return { errors: body.errors.map(toOperationError) };
    if (body.data === null || body.data === undefined) return { errors: [statusError(response.status)] };
    return { data: body.data as never };
  };
}
