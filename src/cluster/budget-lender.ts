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
  /** Takes back what a worker leased and did not spend; negative points are work done beyond a lease, poured in. */
  refund(workspace: string, points: number): void;
  readonly size: number;
}

export function createBudgetLender(rate: RateLimit, now?: () => number): BudgetLender {
  const buckets = new LeakyBuckets(rate.pointsPerSecond, rate.burst, now);
  return {
    lend(workspace, need, want) {
      const answer = (granted: number, retryAfterMs = 0) => ({
        granted,
        retryAfterMs,
        remaining: buckets.remaining(workspace),
      });
      if (want > need && buckets.take(workspace, want).ok) return answer(want);
      const exact = buckets.take(workspace, need);
      return exact.ok ? answer(need) : answer(0, exact.retryAfterMs);
    },
    refund(workspace, points) {
      if (points >= 0) buckets.refund(workspace, points);
      else buckets.spend(workspace, -points);
    },
    get size() {
      return buckets.size;
    },
  };
}
