import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { GraphStore } from '../store/port.js';
import { createEmbeddingBackfill, type EmbeddingBackfill } from './backfill.js';
import { createEmbeddingsClient, type Embedder } from './client.js';

/** Vectors are stored by the SQLite store only (docs/vectors.md, "Neo4j"). */
export const storeKeepsVectors = (config: Config): boolean => config.store.kind === 'sqlite';

/** The endpoint client, when ENGRAM_EMBEDDINGS_URL is set and the store keeps vectors; else null. */
export function embedderFor(config: Config): Embedder | null {
  return config.embeddings && storeKeepsVectors(config) ? createEmbeddingsClient(config.embeddings) : null;
}

/** The server's back-fill loop, or null when there is no endpoint to fill from. */
export function backfillFor(config: Config, store: GraphStore, logger: Logger): EmbeddingBackfill | null {
  if (!config.embeddings) return null;
  if (!storeKeepsVectors(config)) {
    logger.warn('ENGRAM_EMBEDDINGS_URL is ignored: the Neo4j store does not keep vectors in this version');
    return null;
  }
  const embedder = embedderFor(config) as Embedder;
  return createEmbeddingBackfill({
    store,
    embedder,
    logger: logger.child({ component: 'embedding-backfill' }),
    intervalMs: config.embeddings.backfillMs,
    batch: config.embeddings.batch,
  });
}
