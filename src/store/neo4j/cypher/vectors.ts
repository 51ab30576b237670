import { checkedDimensions } from '../../port.js';
import { statement } from './statement.js';

/**
 * Vectors live on `(:MemoryVector {workspace, memoryId, embedding_d<N>})`, one node per embedded
 * memory, not on the memory: every read returns whole memory nodes, and would otherwise carry
 * hundreds of floats each. A vector of length N sits in property `embedding_d<N>` under the vector
 * index `memory_embedding_d<N>` (cosine), so workspaces of different lengths never share an index.
 * `(:VectorSpace {workspace, dims})` records the length the workspace's first vector fixed.
 * The back-fill queue is the memory's `embeddingQueue` property (`<queued at> <id>`), set by the
 * memory write statements and removed when a vector is stored; see memories.ts.
 */

export const vectorIndexName = (dims: number): string => `memory_embedding_d${checkedDimensions(dims)}`;

/**
 * Schema, so in a transaction of its own; IF NOT EXISTS makes concurrent first writers safe.
 * Quantization (on by default since 5.18) is off: its int8 scores were 1e-4 away from the exact
 * cosine, enough to reorder close neighbours against what SQLite answers.
 */
export function createVectorIndex(dims: number): string {
  // A validated length is the only variable text of a vector statement.
  const n = checkedDimensions(dims);
  return statement(
    'createVectorIndex',
    `
    CREATE VECTOR INDEX ${vectorIndexName(n)} IF NOT EXISTS
    FOR (v:MemoryVector) ON v.embedding_d${n}
    OPTIONS {indexConfig: {
      \`vector.dimensions\`: ${n}, \`vector.similarity_function\`: 'cosine', \`vector.quantization.enabled\`: false
    }}
    `,
  );
}

/** A new index is populating until ONLINE; a query before that fails. */
export const AWAIT_VECTOR_INDEX = statement('awaitVectorIndex', 'CALL db.awaitIndex($index, $timeoutSeconds)');

export const VECTOR_DIMENSIONS = statement(
  'vectorDimensions',
  `
  MATCH (s:VectorSpace {workspace: $ws})
  RETURN s.dims AS dims
  `,
);

/**
 * Fixes the workspace's length on its first vector (the uniqueness constraint makes concurrent
 * first writers meet on one node) and answers the length in force, which the store compares.
 */
export const CLAIM_VECTOR_DIMENSIONS = statement(
  'claimVectorDimensions',
  `
  MERGE (s:VectorSpace {workspace: $ws})
  ON CREATE SET s.dims = $dims
  RETURN s.dims AS dims
  `,
);

/** Which items may be stored: the memory exists and, when `ifText` is given, still has that text. */
export const EMBEDDABLE_MEMORIES = statement(
  'embeddableMemories',
  `
  UNWIND range(0, size($items) - 1) AS index
  WITH index, $items[index] AS item
  MATCH (m:Memory {workspace: $ws, id: item.memoryId})
  WHERE item.ifText IS NULL
    OR (m.title = item.ifText.title
      AND coalesce(m.content = item.ifText.content, m.content IS NULL AND item.ifText.content IS NULL))
  RETURN index
  `,
);

/** Stores the vectors of items already checked, and takes their memories off the queue. */
export function storeVectors(dims: number): string {
  // A validated length is the only variable text of a vector statement.
  const n = checkedDimensions(dims);
  return statement(
    'storeVectors',
    `
    UNWIND $items AS item
    MATCH (m:Memory {workspace: $ws, id: item.memoryId})
    MERGE (v:MemoryVector {workspace: $ws, memoryId: item.memoryId})
    SET v.embedding_d${n} = item.vector
    REMOVE m.embeddingQueue
    RETURN count(v) AS stored
    `,
  );
}

export const HAS_VECTORS = statement(
  'hasVectors',
  `
  UNWIND $ids AS id
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: id})
  RETURN id, v IS NOT NULL AS has
  `,
);

/**
 * The index holds every workspace's vectors of this length, so it is asked for `$candidates`
 * (more than k) and the workspace's are kept; `seen` tells the store whether the index ran out.
 * The index name is a parameter, not text.
 */
export const NEAREST_VECTORS = statement(
  'nearestVectors',
  `
  CALL db.index.vector.queryNodes($index, $candidates, $vector) YIELD node, score
  WITH count(*) AS seen, collect(CASE WHEN node.workspace = $ws THEN {memoryId: node.memoryId, score: score} END) AS found
  RETURN seen, found
  `,
);

/** Oldest first by the (workspace, embeddingQueue) index's own order, so it reads `$limit` entries. */
export const QUEUED_MEMORIES = statement(
  'queuedMemories',
  `
  MATCH (m:Memory)
  WHERE m.workspace = $ws AND m.embeddingQueue IS NOT NULL
  WITH m
  ORDER BY m.workspace ASC, m.embeddingQueue ASC
  LIMIT $limit
  RETURN m AS memory
  `,
);

/** The next workspace after `$after` with a queued memory: one seek of the same index. */
export const NEXT_QUEUED_WORKSPACE = statement(
  'nextQueuedWorkspace',
  `
  MATCH (m:Memory)
  WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
  WITH m.workspace AS ws
  ORDER BY ws ASC
  LIMIT 1
  RETURN ws
  `,
);
