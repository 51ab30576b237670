import type { Worker } from 'node:cluster';
import { AggregatorRegistry, Gauge, type Registry } from 'prom-client';
import type { MetricsSnapshot, WorkerMessage } from './messages.js';
import type { PrimaryChannel } from './primary-channel.js';

/** How long the primary waits for a worker's metrics; a worker that is slower is left out of that answer. */
const COLLECT_TIMEOUT_MS = 2000;

export interface MetricsText {
  text: string;
  contentType: string;
}

/**
 * The primary's side of /metrics with workers: asks every worker for its registry's values and
 * merges them with prom-client's AggregatorRegistry.aggregate (counters and histograms summed;
 * process metrics by the aggregator prom-client gives each), adding the primary's own.
 */
export function createMetricsCollector(own: Registry) {
  let nextId = 0;
  const waiting = new Map<number, (metrics: MetricsSnapshot) => void>();
  const ask = (worker: Worker): Promise<MetricsSnapshot | null> => {
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, COLLECT_TIMEOUT_MS);
      waiting.set(id, (metrics) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      });
      worker.send({ engram: 'collect-metrics', id });
    });
  };
  return {
    /** Give every worker message here: metrics parts are this collector's. */
    receive(message: WorkerMessage): void {
      if (message.engram !== 'metrics-part') return;
      waiting.get(message.id)?.(message.metrics);
    },
    async collect(workers: Iterable<Worker>): Promise<MetricsText> {
      const parts = await Promise.all([...workers].filter((worker) => worker.isConnected()).map(ask));
      const snapshots = [...parts.filter((part) => part !== null), await own.getMetricsAsJSON()];
      const merged = AggregatorRegistry.aggregate(snapshots as Parameters<typeof AggregatorRegistry.aggregate>[0]);
      return { text: await merged.metrics(), contentType: merged.contentType };
    },
  };
}

/**
 * A worker's side: answers the primary's collect with this worker's registry, which gains the
 * worker's own resident memory under its `worker` label (summed RSS hides which one grows).
 */
export function shareWorkerMetrics(deps: { registry: Registry; channel: PrimaryChannel; workerId: number }): void {
  const { registry, channel, workerId } = deps;
  new Gauge({
    name: 'engram_worker_resident_memory_bytes',
    help: 'Resident memory of each worker process, by worker id.',
    labelNames: ['worker'],
    registers: [registry],
    collect() {
      this.set({ worker: String(workerId) }, process.memoryUsage.rss());
    },
  });
  channel.onMessage((message) => {
    if (message.engram !== 'collect-metrics') return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => channel.tell({ engram: 'metrics-part', id: message.id, metrics: metrics as MetricsSnapshot }));
  });
}
