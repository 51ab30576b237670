import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/**
 * What the primary and its workers say to each other over the cluster's IPC channel. Every message
 * carries an `engram` tag, so messages of others on the same channel (prom-client's, Node's own)
 * pass by.
 */

/** The primary's answer to a lease: points granted (0: none fit, retry after retryAfterMs), and what the bucket has left. */
export interface LeaseAnswer {
  granted: number;
  retryAfterMs: number;
  remaining: number;
}

export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/** Worker to primary. `id` pairs an ask with its reply. */
export type WorkerMessage =
  | { engram: 'lease'; id: number; workspace: string; need: number; want: number }
  /** Points a worker leased and did not spend; negative: work it did beyond its lease, still to be poured. */
  | { engram: 'release'; workspace: string; points: number }
  | { engram: 'metrics'; id: number }
  | { engram: 'metrics-part'; id: number; metrics: MetricsSnapshot };

/** Primary to worker. */
export type PrimaryMessage =
  | { engram: 'reply'; id: number; answer: unknown }
  | { engram: 'collect-metrics'; id: number };

export function isWorkerMessage(message: unknown): message is WorkerMessage {
  return typeof message === 'object' && message !== null && 'engram' in message;
}

export function isPrimaryMessage(message: unknown): message is PrimaryMessage {
  return typeof message === 'object' && message !== null && 'engram' in message;
}

/** Set by the primary on the one worker slot that runs the background work (the embeddings back-fill). */
export const BACKGROUND_WORKER_ENV = 'ENGRAM_BACKGROUND_WORKER';
