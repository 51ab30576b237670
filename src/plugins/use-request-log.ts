import { randomUUID } from 'node:crypto';
import { type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isEngramError } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import { type Authenticate, principalIfKnown } from './use-auth.js';
import { originalOf } from './use-errors.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A client's request id is kept only when it is short and plain, so it cannot forge log lines. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

interface RequestState {
  id: string;
  started: bigint;
  path: string;
  operation?: string;
  operationType?: string;
  codes: string[];
}

/** Request ids by request: read by the context factory (ctx.requestId) and the response hook. */
const states = new WeakMap<Request, RequestState>();

export function requestIdOf(request: Request): string | undefined {
  return states.get(request)?.id;
}

/**
 * The logger yoga itself uses. Yoga logs every error it masks at error level, which would log
 * each BAD_USER_INPUT or NOT_FOUND as a server error; those (GraphQL and domain errors) go to
 * debug. Unexpected errors are logged once, with the request id, by useRequestLog.
 */
export function yogaLogger(logger: Logger) {
  const expected = (value: unknown) => value instanceof GraphQLError || isEngramError(value);
  return {
    debug: (...args: unknown[]) => logger.debug(args.map(String).join(' ')),
    info: (...args: unknown[]) => logger.info(args.map(String).join(' ')),
    warn: (...args: unknown[]) => logger.warn(args.map(String).join(' ')),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (expected(first)) logger.debug({ err: first }, 'masked error');
      else if (first instanceof Error) logger.error({ err: first }, 'yoga error');
      else logger.error(args.map(String).join(' '));
    },
  };
}

/** Every path that is not GraphQL (probes, metrics) logs at debug only: they are frequent and say little. */
const QUIET = new Set(['/health', '/ready', '/metrics']);

/**
 * One structured log line per request: request id (a client's x-request-id, else a fresh UUID,
 * echoed in the response header), operation name and type, workspace, key id, status, duration,
 * outcome and error codes. Never variables, documents, headers or memory contents.
 */
export function useRequestLog(options: { logger: Logger; authenticate: Authenticate }): Plugin {
  const { logger } = options;
  return {
    onRequest({ request, url }) {
      const given = request.headers.get(REQUEST_ID_HEADER);
      states.set(request, {
        id: given !== null && CLIENT_REQUEST_ID.test(given) ? given : randomUUID(),
        started: process.hrtime.bigint(),
        path: url.pathname,
        codes: [],
      });
    },
    onParse({ context }) {
      return ({ result }) => {
        const request = (context as { request?: Request }).request;
        const state = request ? states.get(request) : undefined;
        if (!state || !result || result instanceof Error) return;
        const params = (context as { params?: { operationName?: string } }).params;
        const operation = getOperationAST(result, params?.operationName);
        state.operation = operation?.name?.value;
        state.operationType = operation?.operation;
      };
    },
    onResultProcess({ request, result }) {
      const state = states.get(request);
      if (!state) return;
      for (const single of Array.isArray(result) ? result : [result]) {
        const errors = (single as ExecutionResult | undefined)?.errors ?? [];
        for (const error of errors) {
          state.codes.push(String(error.extensions?.code ?? 'UNKNOWN'));
          const original = originalOf(error);
          if (original !== undefined) {
            logger.error({ reqId: state.id, err: original, path: error.path?.join('.') }, 'unexpected error');
          }
        }
      }
    },
    onResponse({ request, response }) {
      const state = states.get(request);
      if (!state) return;
      try {
        response.headers.set(REQUEST_ID_HEADER, state.id);
      } catch {
        // Some responses have immutable headers; the id is still in the log.
      }
      const ms = Number(process.hrtime.bigint() - state.started) / 1e6;
      const principal = QUIET.has(state.path) ? null : principalIfKnown(options.authenticate, request);
      const outcome =
        response.status >= 500 ? 'failed' : response.status >= 400 || state.codes.length > 0 ? 'error' : 'ok';
      const line = {
        reqId: state.id,
        method: request.method,
        path: state.path,
        status: response.status,
        ms: Math.round(ms * 10) / 10,
        op: state.operation ?? null,
        opType: state.operationType ?? null,
        workspace: principal?.workspace ?? null,
        key: principal?.keyId ?? null,
        outcome,
        ...(state.codes.length > 0 ? { codes: [...new Set(state.codes)] } : {}),
      };
      if (QUIET.has(state.path)) logger.debug(line, 'request');
      else logger.info(line, 'request');
    },
  };
}
