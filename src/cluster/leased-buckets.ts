import type { RateLimit } from '../config.js';
import type { BucketDecision, CostBuckets } from '../plugins/use-cost-budget.js';
import type { LeaseAnswer } from './messages.js';
import type { PrimaryChannel } from './primary-channel.js';

/** A lease unused this long goes back to the primary, so an idle worker does not sit on another's budget. */
export const LEASE_IDLE_MS = 1000;

const ADMITTED: BucketDecision = { ok: true };

/**
 * The points a worker asks for at once: 1/20 s of the rate, and at most a quarter of the burst
 * shared out among the workers. Small enough that what workers hold bends the global budget by
 * little (docs/operations.md#workers), large enough that most requests admit without asking.
 */
export function leaseChunk(rate: RateLimit, workers: number): number {
  return Math.max(1, Math.floor(Math.min(rate.burst / (4 * workers), rate.pointsPerSecond / 20)));
}

interface Lease {
  /** Negative: work done beyond the lease (actual costs are known only after a request ran), paid before the next admission. */
  points: number;
  /** The primary bucket's room at the last answer. */
  primaryRemaining: number | null;
  /** Points asked for and not answered yet, so concurrent misses do not each ask for a whole chunk. */
  asking: number;
  usedAt: number;
}

/**
 * A worker's view of the cluster-wide cost budget (src/cluster/budget-lender.ts holds the
 * buckets in the primary). Points are poured into the primary's bucket when leased, before any
 * request spends them, so the workers together never admit more than the one bucket allows,
 * except points leased before a window and spent in it (at most a chunk per worker). A request
 * its workspace's lease covers is admitted at once; otherwise it waits for one IPC round trip.
 * What a request did beyond its admission is taken from the lease once it ran, and may leave it
 * negative: the next admission asks the primary for that debt too, and an idle lease hands it back.
 */
export function createLeasedBuckets(deps: {
  channel: PrimaryChannel;
  rate: RateLimit;
  workers: number;
  now?: () => number;
}): CostBuckets {
  const { channel } = deps;
  const now = deps.now ?? (() => performance.now());
  const chunk = leaseChunk(deps.rate, deps.workers);
  const leases = new Map<string, Lease>();

  const giveBackIdle = () => {
    const idleSince = now() - LEASE_IDLE_MS;
    for (const [workspace, lease] of leases) {
      if (lease.asking > 0 || lease.usedAt > idleSince) continue;
      if (lease.points !== 0) channel.tell({ engram: 'release', workspace, points: lease.points });
      leases.delete(workspace);
    }
  };
  setInterval(giveBackIdle, LEASE_IDLE_MS).unref();

  const askFor = async (workspace: string, lease: Lease, cost: number): Promise<BucketDecision> => {
    const need = cost + Math.max(0, -lease.points);
    const want = Math.max(need, chunk - lease.points - lease.asking);
    lease.asking += want;
    let answer: LeaseAnswer;
    try {
      answer = (await channel.ask({ engram: 'lease', workspace, need, want })) as LeaseAnswer;
    } catch {
      // Only a primary killed outright is silent: this worker is draining by then (server.ts), and
      // the few requests it still finishes are not the client's fault.
      return ADMITTED;
    } finally {
      lease.asking -= want;
    }
    lease.primaryRemaining = answer.remaining;
    if (answer.granted === 0) return { ok: false, retryAfterMs: answer.retryAfterMs };
    lease.points += answer.granted - cost;
    lease.usedAt = now();
    leases.set(workspace, lease);
    return ADMITTED;
  };

  const leaseOf = (workspace: string): Lease => {
    let lease = leases.get(workspace);
    if (!lease) {
      lease = { points: 0, primaryRemaining: null, asking: 0, usedAt: now() };
      leases.set(workspace, lease);
    }
    return lease;
  };

  return {
    take(workspace, cost) {
      const lease = leaseOf(workspace);
      if (lease.points >= cost) {
        lease.points -= cost;
        lease.usedAt = now();
        return ADMITTED;
      }
      return askFor(workspace, lease, cost);
    },
    spend(workspace, points) {
      if (points <= 0) return;
      const lease = leaseOf(workspace);
      lease.points -= points;
      lease.usedAt = now();
    },
    remaining(workspace) {
      const lease = leases.get(workspace);
      if (!lease || lease.primaryRemaining === null) return null;
      return Math.max(0, lease.primaryRemaining + lease.points);
    },
    get size() {
      return leases.size;
    },
  };
}
