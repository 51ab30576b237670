import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { refusal } from '../domain/errors.js';
import type { RateLimit } from '../config.js';

export type BucketDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Where the budget's points are kept: LeakyBuckets in one process; with workers, a lease on the
 * primary's buckets (src/cluster/leased-buckets.ts), which may have to ask and so may answer later.
 */
export interface CostBuckets {
  take(key: string, cost: number): BucketDecision | Promise<BucketDecision>;
  /** How many keys are tracked (a gauge for /metrics). */
  readonly size: number;
}

/** Buckets drained to empty are forgotten once this many are tracked, so many workspaces cannot grow memory. */
const SWEEP_AT = 10_000;

/**
 * Leaky buckets, one per key: each holds up to `capacity` points and drains at `rate` points per
 * second. A request pours its cost in; when it would overflow, it is refused (and pours nothing)
 * with the time until it would fit.
 */
export class LeakyBuckets implements CostBuckets {
  private readonly buckets = new Map<string, { level: number; at: number }>();

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(key: string, cost: number): BucketDecision {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { level: 0, at: now };
    bucket.level = Math.max(0, bucket.level - ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    if (bucket.level + cost > this.capacity) {
      this.buckets.set(key, bucket);
      return {
        ok: false,
        retryAfterMs: Math.max(1, Math.ceil(((bucket.level + cost - this.capacity) / this.rate) * 1000)),
      };
    }
    bucket.level += cost;
    this.buckets.set(key, bucket);
    if (this.buckets.size > SWEEP_AT) this.sweep(now);
    return { ok: true };
  }

  /** Takes back points poured in but not spent (a worker's lease it did not use up), never below empty. */
  refund(key: string, points: number): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.level = Math.max(0, bucket.level - points);
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.level - ((now - bucket.at) / 1000) * this.rate <= 0) this.buckets.delete(key);
    }
  }
}

export interface CostBudget {
  plugin: Plugin;
  /** Give to useLimits as onCost: the cost (query-cost.ts) of each accepted operation, by its request's context. */
  recordCost(context: object, cost: number): void;
  buckets: CostBuckets | null;
}

/**
 * Per-workspace cost budget. Each operation costs what the cost analysis that enforces
 * ENGRAM_MAX_COST (query-cost.ts: list fan-out counted) computed for it, with its variables, at
 * least 1 point; a workspace over its
 * budget gets RATE_LIMITED (HTTP 429, Retry-After, `extensions.retryAfterMs`) before anything
 * executes, so one workspace's flood costs the others only the price of refusing it.
 */
export function createCostBudget(
  rate: RateLimit,
  onLimited?: () => void,
  shared?: (rate: RateLimit) => CostBuckets,
): CostBudget {
  // By request: one document (parsed once, cached) costs more or less with other variables.
  const costs = new WeakMap<object, number>();
  const recordCost = (context: object, cost: number) => {
    costs.set(context, cost);
  };
  if (rate.pointsPerSecond <= 0) return { plugin: {}, recordCost, buckets: null };
  const buckets = shared ? shared(rate) : new LeakyBuckets(rate.pointsPerSecond, rate.burst);
  const plugin: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      const workspace = (args.contextValue as { workspace?: string }).workspace;
      if (workspace === undefined) return;
      const cost = Math.max(1, Math.ceil(costs.get(args.contextValue as object) ?? 1));
      const refuse = (retryAfterMs: number) => {
        onLimited?.();
        const seconds = Math.ceil(retryAfterMs / 1000);
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `Workspace "${workspace}" is over its query budget (${rate.pointsPerSecond} cost points per second, bursts up to ${rate.burst}); retry after ${retryAfterMs} ms.`,
              {
                extensions: refusal('RATE_LIMITED', { retryAfterMs, cost }, { 'Retry-After': String(seconds) }),
              },
            ),
          ],
        });
      };
      const refuseOver = (decision: BucketDecision) => {
        if (!decision.ok) refuse(decision.retryAfterMs);
      };
      // One process decides at once; a worker may wait for the primary's lease.
      const decision = buckets.take(workspace, cost);
      if (decision instanceof Promise) return decision.then(refuseOver);
      refuseOver(decision);
    },
  };
  return { plugin, recordCost, buckets };
}
