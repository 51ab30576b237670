import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { EngramError, refusal } from '../domain/errors.js';
import { AdmissionRefused, type FairScheduler, type Seat } from '../limits/fair-scheduler.js';

export interface SchedulerObserver {
  /** How long a request waited for its seat (0 when one was free). */
  waited?(seconds: number): void;
  /** A request refused a seat, by reason. */
  refused?(reason: AdmissionRefused['reason']): void;
}

/** The context fields admission reads: the flow a request belongs to, and its deadline. */
interface AdmissionContext {
  flow?: string;
  workspace?: string;
  signal?: AbortSignal;
}

function refusedError(error: AdmissionRefused): GraphQLError {
  const seconds = Math.ceil(error.retryAfterMs / 1000);
  const why =
    error.reason === 'QUEUE_FULL'
      ? 'the server is busy and this workspace has the most requests waiting'
      : 'the server is busy and no execution slot came free for this request in time (ENGRAM_QUEUE_WAIT_MS)';
  return new GraphQLError(`Not run: ${why}; retry after ${error.retryAfterMs} ms.`, {
    extensions: refusal(
      'RATE_LIMITED',
      { retryAfterMs: error.retryAfterMs, reason: error.reason },
      { 'Retry-After': String(seconds) },
    ),
  });
}

/** A deadline that passed while the request waited: the deadline's own coded error, as a refusal. */
function deadlineError(error: EngramError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: refusal(error.code === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'RATE_LIMITED', error.extensions),
  });
}

/**
 * Every execution holds a seat of the fair scheduler (src/limits/fair-scheduler.ts) from its start
 * to its end. Runs after the limits and the quota have accepted the operation, so a refused
 * operation never waits; a request that cannot get a seat is answered RATE_LIMITED, and one whose
 * deadline passes while it waits is answered as the deadline answers.
 */
export function useScheduler(scheduler: FairScheduler, observer: SchedulerObserver = {}): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = args.contextValue as AdmissionContext;
      const flow = context.flow ?? context.workspace ?? '';
      setExecuteFn(async (executeArgs) => {
        const asked = performance.now();
        let seat: Seat;
        try {
          const granted = scheduler.acquire(flow, context.signal);
          seat = granted instanceof Promise ? await granted : granted;
        } catch (error) {
          if (error instanceof AdmissionRefused) {
            observer.refused?.(error.reason);
            return { errors: [refusedError(error)] };
          }
          if (error instanceof EngramError) return { errors: [deadlineError(error)] };
          throw error;
        }
        observer.waited?.((performance.now() - asked) / 1000);
        try {
          return await executeFn(executeArgs);
        } finally {
          seat.release();
        }
      });
    },
  };
}
