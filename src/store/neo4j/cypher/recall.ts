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

/** Newest first; the (workspace, createdAt) index serves the order. */
export const LIST_RECALLS = statement(
  'listRecalls',
  `
  MATCH (r:Recall {workspace: $ws})
  WHERE r.createdAt IS NOT NULL AND r.expiresAt > $now
  RETURN r {.*} AS recall
  ORDER BY r.createdAt DESC, r.id DESC
  LIMIT $limit
  `,
);
