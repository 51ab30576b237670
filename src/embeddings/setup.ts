import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { GraphStore } from '../store/port.js';
import { createEmbeddingBackfill, type EmbeddingBackfill } from './backfill.js';
import { createEmbeddingsClient, type Embedder } from './client.js';

/** The endpoint client, when ENGRAM_EMBEDDINGS_URL is set; else null. Both stores keep vectors (docs/vectors.md). */
export function embedderFor(config: Config): Embedder | null {
  return config.embeddings ? createEmbeddingsClient(config.embeddings) : null;
}

/** The server's back-fill loop, or null when there is no endpoint to fill from. */
export function backfillFor(config: Config, store: GraphStore, logger: Logger): EmbeddingBackfill | null {
  const embedder = embedderFor(config);
  if (!embedder || !config.embeddings) return null;
  return createEmbeddingBackfill({
    store,
    embedder,
    logger: logger.child({ component: 'embedding-backfill' }),
    intervalMs: config.embeddings.backfillMs,
    batch: config.embeddings.batch,
  });
}
