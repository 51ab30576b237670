import { int } from 'neo4j-driver';
import { compareIds } from '../key-order.js';
import type { EmbeddingItem, VectorMethods } from '../port.js';
import { vectorLengthRefused } from '../shared/store-errors.js';
import {
  AWAIT_VECTOR_INDEX,
  CLAIM_VECTOR_DIMENSIONS,
  createVectorIndex,
  EMBEDDABLE_MEMORIES,
  HAS_VECTORS,
  NEAREST_VECTORS,
  NEXT_QUEUED_WORKSPACE,
  QUEUED_MEMORIES,
  storeVectors,
  VECTOR_DIMENSIONS,
  vectorIndexName,
} from './cypher/vectors.js';
import type { TransactionLike } from './driver.js';
import { toMemory, toNumber } from './records.js';
import { first, type Neo4jRunner, rows } from './transactions.js';

/**
 * The vector index holds the vectors of every workspace of its length, and Community's
 * `queryNodes` cannot filter while it searches, so nearestMemories asks for k × 4 candidates, then
 * k × 16, k × 64, never more than MAX_CANDIDATES, and keeps its workspace's. It stops when it has k,
 * when the index has no more, or at the cap: a workspace holding a small share of the vectors of
 * its length may get fewer than k (docs/vectors.md).
 */
const OVERSAMPLING = [4, 16, 64] as const;
const MAX_CANDIDATES = 2000;

/** How long storing a workspace's first vector waits for a new index to come online. */
const INDEX_WAIT_SECONDS = 4;

const dimensionsIn = async (tx: TransactionLike, ws: string): Promise<number | null> => {
  const record = await first(tx, VECTOR_DIMENSIONS, { ws });
  return record ? toNumber(record.get('dims'), 'dims') : null;
};

export function createNeo4jVectors({ transaction, read }: Neo4jRunner): VectorMethods {
  /** Lengths whose index this store has seen ONLINE; the index outlives the process, this set does not. */
  const onlineIndexes = new Set<number>();

  async function ensureIndex(dims: number): Promise<void> {
    if (onlineIndexes.has(dims)) return;
    await transaction('WRITE', 'setEmbeddings', (tx) => rows(tx, createVectorIndex(dims), {}));
    await read('setEmbeddings', (tx) =>
      rows(tx, AWAIT_VECTOR_INDEX, { index: vectorIndexName(dims), timeoutSeconds: int(INDEX_WAIT_SECONDS) }),
    );
    onlineIndexes.add(dims);
  }

  /** The items that may be stored, after the length check every one of them must pass. */
  async function storable(tx: TransactionLike, ws: string, items: readonly EmbeddingItem[], dims: number) {
    const parameters = items.map((item) => ({ memoryId: item.memoryId, ifText: item.ifText ?? null }));
    const indexes = (await rows(tx, EMBEDDABLE_MEMORIES, { ws, items: parameters })).map((record) =>
      toNumber(record.get('index'), 'index'),
    );
    const kept = [...new Set(indexes)].sort((a, b) => a - b).map((index) => items[index] as EmbeddingItem);
    const wrong = kept.find((item) => item.vector.length !== dims);
    if (wrong) throw vectorLengthRefused(dims, wrong.vector.length);
    return kept;
  }

  return {
    async embeddingDimensions(ws) {
      return read('embeddingDimensions', (tx) => dimensionsIn(tx, ws));
    },

    async setEmbeddings(ws, items) {
      if (items.length === 0) return 0;
      // The index is schema, which Neo4j will not change in a data transaction: made first, for the
      // length the workspace has or its first vector would fix.
      const known = await read('setEmbeddings', (tx) => dimensionsIn(tx, ws));
      const dims = known ?? (items[0] as EmbeddingItem).vector.length;
      await ensureIndex(dims);
      return transaction('WRITE', 'setEmbeddings', async (tx) => {
        const kept = await storable(tx, ws, items, dims);
        if (kept.length === 0) return 0;
        const claimed = await first(tx, CLAIM_VECTOR_DIMENSIONS, { ws, dims: int(dims) });
        const fixed = claimed ? toNumber(claimed.get('dims'), 'dims') : dims;
        // Another writer fixed another length between the read above and this transaction.
        if (fixed !== dims) throw vectorLengthRefused(fixed, dims);
        const stored = await first(tx, storeVectors(dims), {
          ws,
          items: kept.map((item) => ({ memoryId: item.memoryId, vector: [...item.vector] })),
        });
        return stored ? toNumber(stored.get('stored'), 'stored') : 0;
      });
    },

    async hasEmbeddings(ws, memoryIds) {
      if (memoryIds.length === 0) return [];
      const found = await read('hasEmbeddings', async (tx) => {
        const records = await rows(tx, HAS_VECTORS, { ws, ids: [...memoryIds] });
        return new Set(records.filter((record) => record.get('has') === true).map((record) => record.get('id')));
      });
      return memoryIds.map((id) => found.has(id));
    },

    async nearestMemories(ws, vector, k) {
      // Cosine has no direction for a zero vector; Neo4j refuses to query with one.
      if (k < 1 || vector.every((value) => value === 0)) return [];
      return read('nearestMemories', async (tx) => {
        const dims = await dimensionsIn(tx, ws);
        if (dims === null || dims !== vector.length) return [];
        let found: { memoryId: string; score: number }[] = [];
        for (const factor of OVERSAMPLING) {
          const candidates = Math.min(k * factor, Math.max(k, MAX_CANDIDATES));
          const record = await first(tx, NEAREST_VECTORS, {
            ws,
            index: vectorIndexName(dims),
            candidates: int(candidates),
            vector: [...vector],
          });
          if (!record) break;
          found = (record.get('found') as { memoryId: string; score: unknown }[]).map((match) => ({
            memoryId: match.memoryId,
            score: toNumber(match.score, 'score'),
          }));
          const exhausted = toNumber(record.get('seen'), 'seen') < candidates;
          if (found.length >= k || exhausted || candidates >= MAX_CANDIDATES) break;
        }
        // Neo4j's cosine score is (1 + cos) / 2; the port speaks cosine distance 1 - cos, as sqlite-vec does.
        return found
          .map((match) => ({ memoryId: match.memoryId, distance: Math.min(2, Math.max(0, 2 - 2 * match.score)) }))
          .sort((a, b) => a.distance - b.distance || compareIds(a.memoryId, b.memoryId))
          .slice(0, k);
      });
    },

    async memoriesNeedingEmbedding(ws, limit) {
      if (limit < 1) return [];
      const records = await read('memoriesNeedingEmbedding', (tx) =>
        rows(tx, QUEUED_MEMORIES, { ws, limit: int(limit) }),
      );
      return records.map((record) => toMemory(record.get('memory')));
    },

    async workspacesNeedingEmbedding(limit) {
      // One index seek per workspace, like SQLite's skip scan, however many memories wait.
      return read('workspacesNeedingEmbedding', async (tx) => {
        const found: string[] = [];
        let after = '';
        while (found.length < limit) {
          const record = await first(tx, NEXT_QUEUED_WORKSPACE, { after });
          if (!record) break;
          after = record.get('ws') as string;
          found.push(after);
        }
        return found;
      });
    },
  };
}
