import { setMaxListeners } from 'node:events';
import type { Plugin } from 'graphql-yoga';
import { EngramError } from '../domain/errors.js';

export interface Deadlines {
  plugin: Plugin;
  /** The request's deadline signal; it aborts `timeoutMs` after the request arrived. */
  signalFor(request: Request): AbortSignal;
}

/**
 * A deadline per GraphQL request (ENGRAM_REQUEST_TIMEOUT_MS). When it passes, the signal aborts
 * with an UNAVAILABLE error (`extensions.reason: "DEADLINE_EXCEEDED"`, retryable): walks stop
 * before their next level, and the request's store view refuses further calls and stops waiting
 * for the one in progress. UNAVAILABLE rather than LIMIT_EXCEEDED because what a deadline
 * catches is load or a slow store (the walk budget already bounds the work a query may ask
 * for), so the same request may well succeed when retried.
 */
export function createDeadlines(options: { timeoutMs: number; graphqlEndpoint: string }): Deadlines {
  const deadlines = new WeakMap<Request, { controller: AbortController; timer: NodeJS.Timeout }>();
  const start = (request: Request) => {
    const controller = new AbortController();
    // Every store call in flight listens to the deadline (storeWithDeadline), and a query with
    // many aliased walks has more than Node's default of 10 at once: not a leak, so no warning.
    setMaxListeners(0, controller.signal);
    const timer = setTimeout(() => {
      controller.abort(
        new EngramError(
          'UNAVAILABLE',
          `The request ran longer than its deadline of ${options.timeoutMs} ms and was stopped; retry it, or ask for less (smaller maxHops, maxDepth or limit).`,
          { extensions: { reason: 'DEADLINE_EXCEEDED', timeoutMs: options.timeoutMs } },
        ),
      );
    }, options.timeoutMs);
    timer.unref();
    const deadline = { controller, timer };
    deadlines.set(request, deadline);
    return deadline;
  };
  return {
    plugin: {
      onRequest({ request, url }) {
        if (url.pathname === options.graphqlEndpoint) start(request);
      },
      onResponse({ request }) {
        const deadline = deadlines.get(request);
        if (deadline) clearTimeout(deadline.timer);
      },
    },
    signalFor(request) {
      return (deadlines.get(request) ?? start(request)).controller.signal;
    },
  };
}
