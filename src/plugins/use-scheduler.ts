import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { EngramError, refusal } from '../domain/errors.js';
import { AdmissionRefused, type FairScheduler, type Seat } from '../limits/fair-scheduler.js';

export interface SchedulerHooks {
  /** The flow a request belongs to: its workspace, or its workspace and API key. */
  flowOf(request: Request): string;
  /** The request's deadline: waiting for a seat counts against it. */
  signalOf(request: Request): AbortSignal;
  /** What the request did, once it has been answered (1 for one that never executed). */
  costOf(request: Request): number;
  /** How long a request waited for its seat (0 when one was free). */
  waited?(seconds: number): void;
  /** A request refused a seat, by reason. */
  refused?(reason: AdmissionRefused['reason']): void;
}

function refusedError(error: AdmissionRefused): GraphQLError {
  const why =
    error.reason === 'QUEUE_FULL'
      ? 'the server is busy and this workspace has the most requests waiting'
      : 'the server is busy and no execution slot came free for this request in time (ENGRAM_QUEUE_WAIT_MS)';
  return new GraphQLError(`Not run: ${why}; retry after ${error.retryAfterMs} ms.`, {
    extensions: refusal(
      'RATE_LIMITED',
      { retryAfterMs: error.retryAfterMs, reason: error.reason },
      { 'Retry-After': String(Math.ceil(error.retryAfterMs / 1000)) },
    ),
  });
}

/**
 * Every GraphQL request holds a seat of the fair scheduler (src/limits/fair-scheduler.ts) from
 * before its body is parsed until its response is ready, and its flow is charged what it did
 * then. The whole request, not only its execution: parsing, validating and serializing a large
 * answer hold the event loop too, and a flow whose requests spent most of their time outside
 * their seats would escape its share. A request that cannot get a seat is answered RATE_LIMITED
 * (429, Retry-After); one whose deadline passes while it waits gets the deadline's UNAVAILABLE.
 */
export function useScheduler(scheduler: FairScheduler, hooks: SchedulerHooks): Plugin {
  const seats = new WeakMap<Request, Seat>();
  const seated = (request: Request, asked: number) => (seat: Seat) => {
    seats.set(request, seat);
    hooks.waited?.((performance.now() - asked) / 1000);
  };
  const refuse = (error: unknown): never => {
    if (error instanceof AdmissionRefused) {
      hooks.refused?.(error.reason);
      throw refusedError(error);
    }
    if (error instanceof EngramError) {
      throw new GraphQLError(error.message, { extensions: refusal('UNAVAILABLE', error.extensions) });
    }
    throw error;
  };
  return {
    onRequestParse({ request }) {
      const asked = performance.now();
      let granted: Seat | Promise<Seat>;
      try {
        granted = scheduler.acquire(hooks.flowOf(request), hooks.signalOf(request));
      } catch (error) {
        return refuse(error);
      }
      if (granted instanceof Promise) return granted.then(seated(request, asked), refuse);
      seated(request, asked)(granted);
    },
    onResponse({ request }) {
      const seat = seats.get(request);
      if (!seat) return;
      seats.delete(request);
      seat.release(hooks.costOf(request));
    },
  };
}
