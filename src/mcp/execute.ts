import { type ContractCode, codeForStatus, isRetryableCode, MASKED } from '../domain/errors.js';
import type { TypedDocumentString } from '../generated/graphql.js';

/** A GraphQL error as a tool reports it: the contract's code and a message a person can act on. */
export interface OperationError {
  code: string;
  message: string;
  /** The argument the error is about (GraphQL name), when the API says. */
  argument?: string;
  retryable: boolean;
}

type OperationOutcome<TResult> = { data: TResult; errors?: undefined } | { data?: undefined; errors: OperationError[] };

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
    code: typeof extensions.code === 'string' ? extensions.code : MASKED.code,
    message: typeof error.message === 'string' ? error.message : 'Unexpected error.',
    ...(typeof extensions.argument === 'string' ? { argument: extensions.argument } : {}),
    retryable: extensions.retryable === true,
  };
}

/** What a person reads when the endpoint answered a status with no GraphQL body (e.g. 413 from the body limit). */
const STATUS_MESSAGES: Partial<Record<ContractCode, string>> = {
  LIMIT_EXCEEDED: 'The request is larger than the server accepts.',
  UNAUTHENTICATED: 'Missing or invalid credentials.',
  FORBIDDEN: 'This workspace may not be used with these credentials.',
  UNAVAILABLE: 'The server is unavailable; the request is safe to retry.',
};

/** A body that is not GraphQL JSON still gets a contract code, from its status. */
function statusError(status: number): OperationError {
  const code = codeForStatus(status);
  const message = STATUS_MESSAGES[code];
  if (message === undefined)
    return { code: MASKED.code, message: `Unexpected HTTP ${status} from the GraphQL endpoint.`, retryable: false };
  return { code, message, retryable: isRetryableCode(code) };
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
