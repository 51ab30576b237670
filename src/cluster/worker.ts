import cluster from 'node:cluster';
import type { Registry } from 'prom-client';
import type { Config, RateLimit } from '../config.js';
import type { CostBuckets } from '../plugins/use-cost-budget.js';
import type { MetricsSource } from '../plugins/use-metrics.js';
import { shareWorkerMetrics } from './cluster-metrics.js';
import { createLeasedBuckets } from './leased-buckets.js';
import { createPrimaryChannel } from './primary-channel.js';

/** The response header naming the worker that answered (operators and tests see the spread). */
export const WORKER_HEADER = 'x-engram-worker';

/** What server.ts needs to run as one worker of the cluster (primary.ts). */
export interface ClusterMember {
  workerId: number;
  sharedBuckets(rate: RateLimit): CostBuckets;
  /** /metrics merged over all workers, by the primary. */
  metricsSource: MetricsSource;
  /** Lets the primary read this worker's registry. */
  shareMetrics(registry: Registry): void;
  /** Runs `stop` when the primary is gone without telling (killed): a worker without it drains and exits. */
  onPrimaryLost(stop: () => void): void;
  /** True in the one worker that runs the background work (the embeddings back-fill). */
  runsBackgroundWork: boolean;
}

/** Null in a single process (ENGRAM_WORKERS=1, or the primary itself). */
export function joinCluster(config: Config): ClusterMember | null {
  const worker = cluster.worker;
  if (!cluster.isWorker || !worker) return null;
  const channel = createPrimaryChannel();
  return {
    workerId: worker.id,
    sharedBuckets: (rate) => createLeasedBuckets({ channel, rate, workers: config.workers }),
    metricsSource: async () => (await channel.ask({ engram: 'metrics' })) as Awaited<ReturnType<MetricsSource>>,
    shareMetrics: (registry) => shareWorkerMetrics({ registry, channel, workerId: worker.id }),
    onPrimaryLost: (stop) => process.once('disconnect', stop),
    runsBackgroundWork: config.backgroundWorkerSlot,
  };
}
