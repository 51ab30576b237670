import type { RateLimit } from '../config.js';
import { LeakyBuckets } from '../plugins/use-cost-budget.js';
import type { LeaseAnswer } from './messages.js';

/**
 * The primary's side of the cluster-wide cost budget: the one set of per-workspace leaky buckets
 * (the same LeakyBuckets a single process uses), lent out in leases (leased-buckets.ts).
 */
export interface BudgetLender {
  /** Grants `want` points if they fit, else `need` (the request's own cost) if that fits, else none. */
  lend(workspace: string, need: number, want: number): LeaseAnswer;
  /** Takes back what a worker leased and did not spend. */
  refund(workspace: string, points: number): void;
  readonly size: number;
}

export function createBudgetLender(rate: RateLimit, now?: () => number): BudgetLender {
  const buckets = new LeakyBuckets(rate.pointsPerSecond, rate.burst, now);
  return {
    lend(workspace, need, want) {
      if (want > need && buckets.take(workspace, want).ok) return { granted: want, retryAfterMs: 0 };
      const exact = buckets.take(workspace, need);
      return exact.ok ? { granted: need, retryAfterMs: 0 } : { granted: 0, retryAfterMs: exact.retryAfterMs };
    },
    refund(workspace, points) {
      buckets.refund(workspace, points);
    },
    get size() {
      return buckets.size;
    },
  };
}
