import { z } from 'zod';
import { badInput } from '../domain/errors.js';
import type { MemoryRecord } from '../domain/types.js';
import { type GraphStore, MAX_EMBEDDING_DIMENSIONS } from '../store/port.js';
import type { Embedder } from './client.js';
import { embeddingText } from './text.js';

/** The rule of an `embedding` argument; the workspace's own dimension is checked against the store. */
export const embeddingRule = z
  .array(z.number().finite('must hold finite numbers only'))
  .min(1, 'must hold at least one number')
  .max(MAX_EMBEDDING_DIMENSIONS, `must hold at most ${MAX_EMBEDDING_DIMENSIONS} numbers`);

export interface EmbeddingScope {
  store: GraphStore;
  workspace: string;
  /** The endpoint, when configured; null or absent: only client-sent vectors are stored. */
  embedder?: Embedder | null;
}

/** BAD_USER_INPUT before anything is written when the vector's length is not the workspace's. */
export async function checkEmbedding(scope: EmbeddingScope, vector: readonly number[], argument: string) {
  const dims = await scope.store.embeddingDimensions(scope.workspace);
  if (dims !== null && dims !== vector.length) {
    throw badInput(argument, `this workspace's embeddings have ${dims} dimensions; got ${vector.length}`);
  }
}

/**
 * Gives a just-written memory its vector: the client's when sent (it wins), else the endpoint's
 * when the text is new. An endpoint that is down or slow leaves the memory queued for the back-fill
 * instead of failing a write that has already committed.
 */
export async function attachEmbedding(
  scope: EmbeddingScope,
  memory: MemoryRecord,
  clientVector: readonly number[] | null,
  textChanged: boolean,
): Promise<void> {
  if (clientVector) {
    await scope.store.setEmbeddings(scope.workspace, [{ memoryId: memory.id, vector: clientVector }]);
    return;
  }
  if (!textChanged || !scope.embedder) return;
  try {
    // One attempt: the write has committed and its response should not wait out the retries.
    const [vector] = await scope.embedder.embed([embeddingText(memory)], undefined, 0);
    if (!vector) return;
    await scope.store.setEmbeddings(scope.workspace, [
      { memoryId: memory.id, vector, ifText: { title: memory.title, content: memory.content } },
    ]);
  } catch {
    // Queued by the store when the text was written; the back-fill retries and logs what fails.
  }
}
