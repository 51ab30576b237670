import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RateLimit } from '../config.js';
import { refusal } from '../domain/errors.js';
import type { WorkMeter } from '../store/work-budget.js';

export type BucketDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Where the quota's points are kept: LeakyBuckets in one process; with workers, a lease on the
 * primary's buckets (src/cluster/leased-buckets.ts), which may have to ask and so may answer later.
 */
export interface CostBuckets {
  /** Pours `cost` points into the key's bucket if they fit, else refuses with the time until they would. */
  take(key: string, cost: number): BucketDecision | Promise<BucketDecision>;
  /** Pours `points` whether they fit or not: what a request did beyond what `take` poured, known once it ran. */
  spend(key: string, points: number): void;
  /** Points the key's bucket has room for, as far as this process knows; null when it cannot tell. */
  remaining(key: string): number | null;
  /** How many keys are tracked (a gauge for /metrics). */
  readonly size: number;
}

/** Buckets drained to empty are forgotten once this many are tracked, so many workspaces cannot grow memory. */
const SWEEP_AT = 10_000;

/**
 * Leaky buckets, one per key: each holds up to `capacity` points and drains at `rate` points per
 * second. `take` pours a cost in only if it fits; `spend` pours regardless, so a bucket can stand
 * over its capacity (in debt) until it drains below it again.
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
    const bucket = this.drained(key, now);
    if (bucket.level + cost > this.capacity) {
      return {
        ok: false,
        retryAfterMs: Math.max(1, Math.ceil(((bucket.level + cost - this.capacity) / this.rate) * 1000)),
      };
    }
    bucket.level += cost;
    if (this.buckets.size > SWEEP_AT) this.sweep(now);
    return { ok: true };
  }

  spend(key: string, points: number): void {
    if (points > 0) this.drained(key, this.now()).level += points;
  }

  remaining(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.capacity;
    return Math.max(0, this.capacity - Math.max(0, this.levelAt(bucket, this.now())));
  }

  /** Takes back points poured in but not spent (a worker's lease it did not use up), never below empty. */
  refund(key: string, points: number): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.level = Math.max(0, bucket.level - points);
  }

  get size(): number {
    return this.buckets.size;
  }

  private drained(key: string, now: number): { level: number; at: number } {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { level: 0, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.level = Math.max(0, this.levelAt(bucket, now));
    bucket.at = now;
    return bucket;
  }

  /** The bucket's level at `now`, drained since it was last poured into (negative once empty). */
  private levelAt(bucket: { level: number; at: number }, now: number): number {
    return bucket.level - ((now - bucket.at) / 1000) * this.rate;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (this.levelAt(bucket, now) <= 0) this.buckets.delete(key);
    }
  }
}

/** `extensions.cost` of every executed operation: what the analysis priced it at, what it did, and the quota. */
interface CostReport {
  /** The static estimate (query-cost.ts), checked against ENGRAM_MAX_COST before the operation ran. */
  requested: number;
  /** 1 + the rows it read and wrote + the edges its walks examined. */
  actual: number;
  /** Present when a quota is on (ENGRAM_RATE_POINTS_PER_SECOND > 0). */
  quota?: { remaining: number | null; pointsPerSecond: number; burst: number };
}

export interface CostBudget {
  plugin: Plugin;
  /** Give to useLimits as onCost: the estimated cost (query-cost.ts) of each accepted operation, by its request's context. */
  recordCost(context: object, cost: number): void;
  buckets: CostBuckets | null;
}

export interface CostObserver {
  /** An operation refused by the quota. */
  rateLimited?(): void;
  /** An executed operation's requested and actual cost. */
  costs?(requested: number, actual: number): void;
}

/** Every request pays this much, whatever it read: parsing, validating and answering it are work too. */
const BASE_COST = 1;

/** What an operation did: BASE_COST, plus its store work when its context has a work meter. */
export const actualCost = (context: { work?: WorkMeter }) => BASE_COST + (context.work?.done() ?? 0);

/**
 * Reports each operation's cost in `extensions.cost`, and, when a quota is set, holds each
 * workspace to it by actual cost. The quota is a leaky bucket per workspace: an operation is
 * admitted while the bucket is not full (it pours BASE_COST then), and once it has run, what it
 * actually did is poured in too, even past the brim; until the bucket drains below the brim
 * again, the workspace's operations are refused with RATE_LIMITED (HTTP 429, Retry-After,
 * `extensions.retryAfterMs`) before they execute. So a cheap query costs about a point and a hub
 * walk its rows, and a refused operation pours nothing.
 */
export function createCostBudget(
  rate: RateLimit,
  observer: CostObserver = {},
  shared?: (rate: RateLimit) => CostBuckets,
): CostBudget {
  // By request: one document (parsed once, cached) costs more or less with other variables.
  const costs = new WeakMap<object, number>();
  const recordCost = (context: object, cost: number) => {
    costs.set(context, cost);
  };
  const buckets =
    rate.pointsPerSecond > 0 ? (shared ? shared(rate) : new LeakyBuckets(rate.pointsPerSecond, rate.burst)) : null;

  const report = (context: { workspace?: string; work?: WorkMeter }) => {
    const requested = Math.ceil(costs.get(context) ?? 0);
    const actual = actualCost(context);
    observer.costs?.(requested, actual);
    const cost: CostReport = { requested, actual };
    if (buckets && context.workspace !== undefined) {
      buckets.spend(context.workspace, actual - BASE_COST);
      const left = buckets.remaining(context.workspace);
      cost.quota = {
        remaining: left === null ? null : Math.floor(left),
        pointsPerSecond: rate.pointsPerSecond,
        burst: rate.burst,
      };
    }
    return cost;
  };

  const plugin: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as { workspace?: string; work?: WorkMeter };
      const workspace = context.workspace;
      const reportCost = {
        onExecuteDone({ result, setResult }: { result: unknown; setResult: (result: never) => void }) {
          if (typeof result !== 'object' || result === null || Symbol.asyncIterator in result) return;
          const single = result as { extensions?: Record<string, unknown> };
          setResult({ ...single, extensions: { ...single.extensions, cost: report(context) } } as never);
        },
      };
      if (!buckets || workspace === undefined) return reportCost;
      const refuse = (retryAfterMs: number) => {
        observer.rateLimited?.();
        const seconds = Math.ceil(retryAfterMs / 1000);
        const cost = Math.ceil(costs.get(context) ?? BASE_COST);
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `Workspace "${workspace}" is over its quota (${rate.pointsPerSecond} points of actual work per second, bursts up to ${rate.burst}); retry after ${retryAfterMs} ms.`,
              {
                extensions: refusal(
                  'RATE_LIMITED',
                  { retryAfterMs, cost, reason: 'QUOTA' },
                  { 'Retry-After': String(seconds) },
                ),
              },
            ),
          ],
        });
      };
      const admit = (decision: BucketDecision) => {
        if (decision.ok) return reportCost;
        refuse(decision.retryAfterMs);
        return undefined;
      };
      // One process decides at once; a worker may wait for the primary's lease.
      const decision = buckets.take(workspace, BASE_COST);
      return decision instanceof Promise ? decision.then(admit) : admit(decision);
    },
  };
  return { plugin, recordCost, buckets };
}
