import { isEngramError } from '../domain/errors.js';
import type { VectorMatcher } from '../services/vector-match.js';
import type { GraphStore } from '../store/port.js';
import type { QueryEmbedder } from './query-embeddings.js';
import { checkEmbedding } from './write-embeddings.js';

/** Most neighbours one match asks the store for, whatever limit the caller passes. */
const MAX_VECTOR_MATCHES = 200;

/**
 * Recall's vector signal: the query's own embedding when the caller sent one, else its text
 * embedded by the endpoint. No vector (no endpoint, endpoint down, empty text) gives no matches, so
 * recall ranks on its other signals; a sent vector of another length than the workspace's is
 * BAD_USER_INPUT, as it is on a write.
 */
export function createVectorMatcher(store: GraphStore, embedQuery: QueryEmbedder | null): VectorMatcher {
  return async (workspace, query, limit, signal) => {
    const k = Math.min(Math.max(Math.trunc(limit), 0), MAX_VECTOR_MATCHES);
    if (k === 0) return [];
    if (query.embedding) await checkEmbedding({ store, workspace }, query.embedding, 'embedding');
    const vector = query.embedding ?? (await queryVector(embedQuery, workspace, query.text, signal));
    if (!vector || vector.length === 0) return [];
    const nearest = await store.nearestMemories(workspace, vector, k);
    return nearest.map(({ memoryId, distance }) => ({
      memoryId,
      // Cosine distance runs 0..2; similarity 1 - d/2 maps it onto 0..1 with 1 = same direction.
      similarity: Math.min(1, Math.max(0, 1 - distance / 2)),
    }));
  };
}

async function queryVector(
  embedQuery: QueryEmbedder | null,
  workspace: string,
  text: string | null,
  signal: AbortSignal | undefined,
): Promise<number[] | null> {
  if (!embedQuery || !text?.trim()) return null;
  try {
    return await embedQuery(workspace, text, signal);
  } catch (error) {
    if (isEngramError(error) && error.code === 'UNAVAILABLE') return null;
    throw error;
  }
}
