import { statement } from './statement.js';

/**
 * Recall records: `(:Recall {workspace, id, query?, results, truncated, createdAt, expiresAt})`,
 * `results` a JSON string (results and their paths), written and read whole. No relationships:
 * a record names memories and edges by id, so deleting them never touches it.
 */

/** Deletes at most $limit of the workspace's expired records, oldest expiry first (index engram_recall_expiry). */
export const PURGE_RECALLS = statement(
  'purgeRecalls',
  `
  MATCH (r:Recall {workspace: $ws})
  WHERE r.expiresAt <= $now
  WITH r ORDER BY r.expiresAt LIMIT $limit
  DELETE r
  `,
);

export const CREATE_RECALL = statement(
  'createRecall',
  `
  CREATE (r:Recall {workspace: $ws, id: $id, query: $query, results: $results, truncated: $truncated,
    createdAt: $createdAt, expiresAt: $expiresAt})
  `,
);

export const GET_RECALL = statement(
  'getRecall',
  `
  MATCH (r:Recall {workspace: $ws, id: $id})
  WHERE r.expiresAt > $now
  RETURN r {.*} AS recall
  `,
);

/**
 * Newest first, in the order of the (workspace, createdAt, id) index, stopping at `$limit` (no
 * sort): ordered by every property of the index, Neo4j reads it in order (ordered by createdAt and
 * id alone it sorted every record of the workspace). The hint keeps the planner off the expiry
 * index; `IS NOT NULL` completes the composite index's key, as Neo4j needs to seek it. Expired
 * records are skipped after the ordering, before the limit.
 */
export const LIST_RECALLS = statement(
  'listRecalls',
  `
  MATCH (r:Recall {workspace: $ws})
  USING INDEX SEEK r:Recall(workspace, createdAt, id)
  WHERE r.createdAt IS NOT NULL AND r.id IS NOT NULL
  WITH r
  ORDER BY r.workspace DESC, r.createdAt DESC, r.id DESC
  WHERE r.expiresAt > $now
  RETURN r {.*} AS recall
  LIMIT $limit
  `,
);

/**
 * The page after a cursor (the createdAt and id of the last record shown), in the same index order
 * from the cursor's instant. Records of that instant already shown are read again and dropped:
 * two recalls of one millisecond are rare, unlike the weight events of one write.
 */
export const LIST_RECALLS_AFTER = statement(
  'listRecallsAfter',
  `
  MATCH (r:Recall {workspace: $ws})
  USING INDEX SEEK r:Recall(workspace, createdAt, id)
  WHERE r.createdAt <= $afterCreatedAt AND r.id IS NOT NULL AND (r.createdAt < $afterCreatedAt OR r.id < $afterId)
  WITH r
  ORDER BY r.workspace DESC, r.createdAt DESC, r.id DESC
  WHERE r.expiresAt > $now
  RETURN r {.*} AS recall
  LIMIT $limit
  `,
);
