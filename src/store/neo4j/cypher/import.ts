import { replaceTagsOf } from './memories.js';
import { REQUEUE_IF_TEXT_CHANGED, relationshipType, statement } from './statement.js';

/**
 * Upsert by (workspace, id): fields replaced, createdAt kept. A new memory, or one whose title or
 * content changes, loses its vector and joins the embedding queue, as in createMemory/updateMemory;
 * its tag index nodes are rewritten (a memory the file names again may have dropped its tags).
 */
export const IMPORT_MEMORIES = statement(
  'importMemories',
  `
  UNWIND $memories AS row
  MERGE (m:Memory {workspace: $ws, id: row.id})
  ON CREATE SET m.createdAt = $now
  WITH m, row, m.title AS oldTitle, m.content AS oldContent
  SET m.key = row.key, m.title = row.title, m.content = row.content, m.kind = row.kind,
    m.tags = row.tags, m.tagsText = row.tagsText, m.weight = row.weight, m.metadata = row.metadata,
    m.updatedAt = $now
  ${REQUEUE_IF_TEXT_CHANGED}
  WITH m${replaceTagsOf('true')}
  RETURN count(m) AS upserted
  `,
);

/**
 * Upsert of edges of one type by (from, to, type): weight and metadata replaced, id kept. Rows
 * whose endpoints are missing produce no row, so a count short of the batch means NOT_FOUND.
 * MERGE between two bound nodes (the planner's LockingMerge) write-locks both endpoints before it
 * creates, then looks again, so it cannot race a concurrent link, which holds the same locks
 * (linkPrepare) from its look-up to its commit. No lock of our own is taken: setting and removing
 * a lock property on both endpoints of every row cost a fifth of the import's time.
 */
export function importEdges(type: string): string {
  return statement(
    'importEdges',
    `
    UNWIND $edges AS row
    MATCH (a:Memory {workspace: $ws, id: row.fromId})
    MATCH (b:Memory {workspace: $ws, id: row.toId})
    MERGE (a)-[r:${relationshipType(type)}]->(b)
    ON CREATE SET r.id = row.id, r.createdAt = $now
    SET r.weight = row.weight, r.metadata = row.metadata, r.updatedAt = $now
    MERGE (k:EdgeRef {workspace: $ws, fromId: row.fromId, toId: row.toId, type: $type})
    ON CREATE SET k.id = r.id
    SET k.negWeight = -r.weight
    RETURN count(r) AS upserted
    `,
  );
}
