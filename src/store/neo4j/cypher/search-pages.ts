import { statement } from './statement.js';

/**
 * A search's ranked ids kept for its later pages: `(:SearchPages {workspace, id, memoryIds,
 * createdAt, expiresAt})`. Ids only, no relationships, so deleting a memory never touches it.
 */

/** Deletes at most $limit of the workspace's expired entries, oldest expiry first (index engram_search_pages_expiry). */
export const PURGE_SEARCH_PAGES = statement(
  'purgeSearchPages',
  `
  MATCH (p:SearchPages {workspace: $ws})
  WHERE p.expiresAt <= $now
  WITH p ORDER BY p.expiresAt LIMIT $limit
  DELETE p
  `,
);

export const CREATE_SEARCH_PAGES = statement(
  'createSearchPages',
  `
  CREATE (:SearchPages {workspace: $ws, id: $id, memoryIds: $memoryIds, createdAt: $createdAt, expiresAt: $expiresAt})
  `,
);

export const GET_SEARCH_PAGES = statement(
  'getSearchPages',
  `
  MATCH (p:SearchPages {workspace: $ws, id: $id})
  WHERE p.expiresAt > $now
  RETURN p.memoryIds AS memoryIds
  `,
);
