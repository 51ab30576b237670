/**
 * Error codes are part of the public contract (API.md, "Errors"). The GraphQL layer turns an
 * EngramError into a GraphQLError carrying `extensions.code`; anything else is masked.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'LIMIT_EXCEEDED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'UNAVAILABLE'
  | 'RATE_LIMITED';

/** Codes a client may retry unchanged and expect a different outcome. */
const RETRYABLE: ReadonlySet<string> = new Set<ErrorCode>(['UNAVAILABLE', 'RATE_LIMITED']);

export const isRetryableCode = (code: string): boolean => RETRYABLE.has(code);

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

export const conflict = (message: string) => new EngramError('CONFLICT', message);

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
