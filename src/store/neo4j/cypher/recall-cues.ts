import { statement } from './statement.js';

/**
 * Recall cues (domain/recall-cues.ts): `(:RecallCue {workspace, key, createdAt, id, memoryId,
 * edgeId, names, terms})`, one node per cue and key, as the SQLite store keeps one row per cue and
 * key: a lookup walks each key's newest entries in the engram_recall_cue_key index. No
 * relationships; DELETE_MEMORY removes a memory's cues with it. Every lookup names its index
 * (as cypher/weights.ts explains): with few cues in the database Neo4j otherwise planned a scan of
 * every RecallCue, which grows with the database instead of with the answer. A key's newest cues
 * come from the composite index read in its order (a predicate on each of its properties, ordered
 * by all of them), so the read stops at `$perKey`.
 */

/** The memory's earlier cue for the same question: asked again, a question is one cue, the newest. */
export const DELETE_SAME_RECALL_CUE = statement(
  'deleteSameRecallCue',
  `
  MATCH (c:RecallCue {workspace: $ws, memoryId: $memoryId})
  USING INDEX SEEK c:RecallCue(workspace, memoryId)
  WHERE c.names = $names AND c.terms = $terms
  DELETE c
  `,
);

export const CREATE_RECALL_CUE = statement(
  'createRecallCue',
  `
  UNWIND $keys AS key
  CREATE (:RecallCue {workspace: $ws, key: key, createdAt: $createdAt, id: $id, memoryId: $memoryId,
    edgeId: $edgeId, names: $names, terms: $terms})
  `,
);

/** Keeps the memory's newest $keep cues (each cue once, whatever its keys). */
export const TRIM_RECALL_CUES = statement(
  'trimRecallCues',
  `
  MATCH (c:RecallCue {workspace: $ws, memoryId: $memoryId})
  USING INDEX SEEK c:RecallCue(workspace, memoryId)
  WITH c.id AS id, max(c.createdAt) AS at
  ORDER BY at DESC, id DESC
  SKIP $keep
  WITH collect(id) AS older
  MATCH (c:RecallCue {workspace: $ws, memoryId: $memoryId})
  USING INDEX SEEK c:RecallCue(workspace, memoryId)
  WHERE c.id IN older
  DELETE c
  `,
);

export const DELETE_RECALL_CUE = statement(
  'deleteRecallCue',
  `
  MATCH (c:RecallCue {workspace: $ws, id: $id})
  USING INDEX SEEK c:RecallCue(workspace, id)
  DELETE c
  `,
);

/**
 * The newest $perKey cues of each key, each cue once, with its edge's weight (EdgeRef keeps it
 * negated for the page order); a cue whose edge is gone has no EdgeRef and is left out.
 */
export const FIND_RECALL_CUES = statement(
  'findRecallCues',
  `
  UNWIND $keys AS key
  CALL (key) {
    MATCH (c:RecallCue {workspace: $ws, key: key})
    USING INDEX SEEK c:RecallCue(workspace, key, createdAt, id)
    WHERE c.createdAt IS NOT NULL AND c.id IS NOT NULL
    WITH c
    ORDER BY c.workspace DESC, c.key DESC, c.createdAt DESC, c.id DESC
    RETURN c
    LIMIT $perKey
  }
  WITH c.id AS id, collect(c)[0] AS c
  MATCH (k:EdgeRef {workspace: $ws, id: c.edgeId})
  RETURN c.id AS id, c.memoryId AS memoryId, c.edgeId AS edgeId, -k.negWeight AS edgeWeight,
    c.names AS names, c.terms AS terms, c.createdAt AS createdAt
  `,
);
