/**
 * The one error module: every code of the public contract (API.md, "Errors"), whether a client may
 * retry it, the HTTP status that goes with it, and the masking rules. The GraphQL layer turns an
 * EngramError into a GraphQLError carrying `extensions.code`; anything else is masked. Plugins,
 * the MCP executor and the stores import these instead of re-deriving them.
 */

/** Codes domain logic and stores raise. */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'LIMIT_EXCEEDED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'UNAVAILABLE'
  | 'RATE_LIMITED';

/** Every code a response may carry: the domain's and the ones the GraphQL and HTTP layers add. */
export type ContractCode =
  | ErrorCode
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'INTERNAL_SERVER_ERROR';

/** Codes a client may retry unchanged and expect a different outcome. */
const RETRYABLE: ReadonlySet<string> = new Set<ErrorCode>(['UNAVAILABLE', 'RATE_LIMITED']);

export const isRetryableCode = (code: string): boolean => RETRYABLE.has(code);

/** The HTTP status an error answered before execution (refused request) gets for its code. */
const HTTP_STATUS = {
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  LIMIT_EXCEEDED: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
} as const satisfies Partial<Record<ContractCode, number>>;

export type HttpErrorCode = keyof typeof HTTP_STATUS;

/** HTTP_STATUS read backwards; 400 is shared, and a bare 400 is a BAD_REQUEST (the later entry wins). */
const CODE_FOR_STATUS = new Map<number, ContractCode>(
  Object.entries(HTTP_STATUS).map(([code, status]) => [status, code as HttpErrorCode]),
);

/** The code for a response that arrived without one (yoga's own HTTP-level errors, a non-JSON body), by status. */
export function codeForStatus(status: number | undefined): ContractCode {
  if (status === undefined) return 'INTERNAL_SERVER_ERROR';
  return CODE_FOR_STATUS.get(status) ?? (status >= 400 && status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR');
}

/**
 * `extensions` for an error that refuses a request before execution: the code, its retryability
 * and its HTTP status (yoga reads `http` for the response, then strips it).
 */
export function refusal(
  code: HttpErrorCode,
  extensions: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Record<string, unknown> {
  return {
    code,
    retryable: isRetryableCode(code),
    ...extensions,
    http: { status: HTTP_STATUS[code], ...(headers ? { headers } : {}) },
  };
}

/** `extensions` for a refusal found while validating a document (no HTTP status of its own). */
export const coded = (code: ContractCode, extensions: Record<string, unknown> = {}): Record<string, unknown> => ({
  code,
  retryable: isRetryableCode(code),
  ...extensions,
});

// Masking rules.

/** Extensions about the server's internals, never sent (yoga puts the JSON parser's error, quoting the body, in originalError). */
export const INTERNAL_EXTENSIONS: readonly string[] = ['originalError', 'stack', 'exception'];

/** Codes yoga gives its own request errors, renamed to the contract's. */
export const YOGA_CODE_RENAMES: Readonly<Record<string, ContractCode>> = { REQUEST_ENTITY_TOO_LARGE: 'LIMIT_EXCEEDED' };

/** Messages graphql-js uses when a literal or variable value does not fit its argument's type, or a required one is missing. */
const BAD_VALUE =
  /(Expected value of type|Expected type|got invalid value|cannot represent|Variable "\$[^"]+" of required type|Int cannot|Float cannot|String cannot|Boolean cannot|ID cannot|is not defined by type|of required type .* was not provided|Argument "[^"]+" of required type|does not exist in "[^"]+" enum|is required, but it was not provided|must not be null)/;

/** The code of an error graphql-js raised before execution (parse, validation, variable values), from its message. */
export function codeForGraphQLMessage(message: string): ContractCode {
  if (BAD_VALUE.test(message)) return 'BAD_USER_INPUT';
  if (message.startsWith('Syntax Error')) return 'GRAPHQL_PARSE_FAILED';
  return 'GRAPHQL_VALIDATION_FAILED';
}

/** What a client sees for an error the server did not expect; the original is only logged. */
export const MASKED = { code: 'INTERNAL_SERVER_ERROR', retryable: false } as const;

// Domain errors.

export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly extensions: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; extensions?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.extensions = options.extensions ?? {};
  }

  get retryable(): boolean {
    return isRetryableCode(this.code);
  }
}

export const badInput = (argument: string, rule: string) =>
  new EngramError('BAD_USER_INPUT', `${argument}: ${rule}`, { extensions: { argument } });

export const notFound = (what: string) => new EngramError('NOT_FOUND', what);

/** A memory argument names nothing in the workspace; the wording is the same for every argument. */
export const memoryNotFound = (argument: string, ref: string) =>
  new EngramError('NOT_FOUND', `${argument}: no memory "${ref}" in this workspace`, { extensions: { argument } });

/** An edge argument names no edge in the workspace. */
export const edgeNotFound = (argument: string, id: string) =>
  new EngramError('NOT_FOUND', `${argument}: no edge "${id}" in this workspace`, { extensions: { argument } });

export const conflict = (message: string, cause?: unknown) => new EngramError('CONFLICT', message, { cause });

export const unavailable = (cause: unknown) =>
  new EngramError('UNAVAILABLE', 'The store is unavailable or timed out; the request is safe to retry.', { cause });

export function isEngramError(error: unknown): error is EngramError {
  return error instanceof EngramError;
}

/**
 * A mistake that stops start-up (a bad variable, a path that cannot be opened, a port in use).
 * Its message is the one line a person sees: it names the variable or the fix, never a stack.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
