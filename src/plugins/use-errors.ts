import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  ProvidedRequiredArgumentsRule,
  ValuesOfCorrectTypeRule,
  validate,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import {
  type ContractCode,
  codeForGraphQLMessage,
  codeForStatus,
  INTERNAL_EXTENSIONS,
  isEngramError,
  isRetryableCode,
  MASKED,
  YOGA_CODE_RENAMES,
} from '../domain/errors.js';

/**
 * The one place an error gets its contract: `extensions.code` and `extensions.retryable` on every
 * error of every response, nothing of the server's internals, and the original of a masked error
 * kept off the wire for the request log.
 *
 * graphql-js errors are coded by the phase that raised them, not by their wording: a parse error
 * is GRAPHQL_PARSE_FAILED; a validation error is BAD_USER_INPUT when a value rule raised it (a
 * literal of the wrong type, a required argument missing: the client's input), else
 * GRAPHQL_VALIDATION_FAILED; an error about a variable's value (raised before any resolver runs)
 * is BAD_USER_INPUT. The message is read only for an error no phase accounts for.
 */

/** Validation rules that judge the values a document gives, not its shape. */
const VALUE_RULES = [ValuesOfCorrectTypeRule, ProvidedRequiredArgumentsRule];

/** The original of a masked (INTERNAL_SERVER_ERROR) error, for the request log; never serialised. */
const ORIGINAL = Symbol('engram.originalError');

export function originalOf(error: GraphQLError): unknown {
  return (error as unknown as Record<symbol, unknown>)[ORIGINAL];
}

const coded = (error: GraphQLError, code: ContractCode): GraphQLError =>
  new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code, retryable: false },
  });

/** An error graphql-js raised while reading the variables: it points at a variable's definition. */
const isVariableError = (error: GraphQLError): boolean =>
  error.nodes?.some((node) => node.kind === Kind.VARIABLE_DEFINITION) ?? false;

/** The code of a graphql-js error raised before execution that no hook coded: by its nodes, then its wording. */
const requestErrorCode = (error: GraphQLError): ContractCode =>
  isVariableError(error) ? 'BAD_USER_INPUT' : codeForGraphQLMessage(error.message);

/** The errors of a failed validation that a value rule raised, as message and place. */
function valueErrors(schema: GraphQLSchema, document: DocumentNode): Set<string> {
  return new Set(validate(schema, document, VALUE_RULES).map(errorKey));
}

const errorKey = (error: GraphQLError): string => `${error.message}@${JSON.stringify(error.locations ?? [])}`;

export interface MaskOptions {
  /** ENGRAM_UNMASKED_ERRORS (development only): a masked error also carries the internal message. */
  exposeInternal: boolean;
}

/**
 * yoga's maskError: a domain error keeps its code, retryability and extensions; a graphql-js or
 * yoga error its code (yoga's renamed to the contract's); anything else becomes
 * INTERNAL_SERVER_ERROR, its original kept for the request log (originalOf).
 */
export function maskError(options: MaskOptions) {
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
    if (error instanceof GraphQLError && !error.originalError) return withYogaCode(error);
    // graphql-js wraps a scalar's coercion error (a bad variable value) in one that names the
    // variable: that outer error is the one to send.
    if (original instanceof GraphQLError && !original.originalError) {
      if (!(error instanceof GraphQLError)) return original;
      return error.extensions?.code ? error : coded(error, requestErrorCode(error));
    }
    const masked = new GraphQLError(message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: {
        ...MASKED,
        ...(options.exposeInternal
          ? { internalMessage: original instanceof Error ? original.message : String(original) }
          : {}),
      },
    });
    Object.defineProperty(masked, ORIGINAL, { value: original, enumerable: false });
    return masked;
  };
}

function withYogaCode(error: GraphQLError): GraphQLError {
  const code = YOGA_CODE_RENAMES[String(error.extensions?.code)];
  if (code === undefined) return error;
  // extensions.http (e.g. status 413) is kept: yoga reads it for the response status, then strips it.
  return new GraphQLError(error.message, { extensions: { ...error.extensions, code, retryable: false } });
}

const isComplete = (error: GraphQLError): boolean =>
  typeof error.extensions?.code === 'string' &&
  typeof error.extensions?.retryable === 'boolean' &&
  !INTERNAL_EXTENSIONS.some((key) => key in (error.extensions ?? {}));

/** An error made to carry code and retryable, without internals; one that does is returned as it is. */
function complete(error: GraphQLError): GraphQLError {
  if (isComplete(error)) return error;
  const extensions = Object.fromEntries(
    Object.entries(error.extensions ?? {}).filter(([key]) => !INTERNAL_EXTENSIONS.includes(key)),
  );
  // yoga answers a request error with its http.status only while originalError is there (else 200
  // for application/json clients, when http.spec is set): keep the status it had.
  const http = extensions.http as { spec?: boolean } | undefined;
  if (http?.spec && 'originalError' in (error.extensions ?? {})) extensions.http = { ...http, spec: false };
  const code =
    typeof extensions.code === 'string'
      ? extensions.code
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

/** What a response with an UNAVAILABLE error tells its client to wait before retrying, in seconds. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const hasUnavailable = (result: unknown): boolean =>
  Array.isArray(result)
    ? result.some(hasUnavailable)
    : result !== null &&
      typeof result === 'object' &&
      'errors' in result &&
      ((result as ExecutionResult).errors ?? []).some((error) => error.extensions?.code === 'UNAVAILABLE');

/**
 * Codes graphql-js's errors by phase, gives every response's errors the contract's shape, and adds
 * `Retry-After` to a response that answers UNAVAILABLE (a store down or stalled), so a client or
 * proxy backs off without reading the body.
 */
export function useErrors(): Plugin {
  const unavailableRequests = new WeakSet<Request>();
  return {
    onResponse({ request, response }) {
      if (unavailableRequests.has(request) && !response.headers.has('retry-after')) {
        response.headers.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      }
    },
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError && result.extensions?.code === undefined) {
          replaceParseResult(coded(result, 'GRAPHQL_PARSE_FAILED'));
        }
      };
    },
    onValidate({ params }) {
      return ({ valid, result, setResult }) => {
        if (valid) return;
        const values = valueErrors(params.schema, params.documentAST);
        setResult(
          result.map((error) => {
            if (values.has(errorKey(error))) return coded(error, 'BAD_USER_INPUT');
            // yoga marks every validation error GRAPHQL_VALIDATION_FAILED; a plugin's own code stays.
            const code = error.extensions?.code;
            return code === undefined || code === 'GRAPHQL_VALIDATION_FAILED'
              ? coded(error, 'GRAPHQL_VALIDATION_FAILED')
              : error;
          }),
        );
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          // Errors without a path were raised before any resolver ran: the variables, or the operation to run.
          if ('errors' in result && result.errors?.some((error) => !error.extensions?.code && !error.path)) {
            setResult({
              ...result,
              errors: result.errors.map((error) =>
                error.path || error.extensions?.code ? error : coded(error, requestErrorCode(error)),
              ),
            });
          }
        },
      };
    },
    onResultProcess({ request, result, setResult }) {
      if (hasUnavailable(result)) unavailableRequests.add(request);
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
