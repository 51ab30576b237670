import { FULLTEXT_INDEX, statement } from './statement.js';

/**
 * One row per reference that matches; an id match wins over a key match, so the key index is only
 * read for references no id matched (callers almost always pass ids).
 */
export const GET_MEMORIES = statement(
  'getMemories',
  `
  UNWIND $refs AS ref
  OPTIONAL MATCH (byId:Memory {workspace: $ws, id: ref})
  OPTIONAL CALL (ref, byId) {
    WITH ref, byId
    WHERE byId IS NULL
    MATCH (byKey:Memory {workspace: $ws, key: ref})
    RETURN byKey
  }
  WITH ref, coalesce(byId, byKey) AS memory
  WHERE memory IS NOT NULL
  RETURN ref, memory
  `,
);

/** `$query` is a Lucene query built by toLuceneQuery (escaped words, field boosts); it is a parameter like any value. */
export const SEARCH_MEMORIES = statement(
  'searchMemories',
  `
  CALL db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', $query) YIELD node, score
  WHERE node.workspace = $ws
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
  RETURN node AS memory
  ORDER BY score DESC, node.weight DESC, node.id ASC
  LIMIT $limit
  `,
);

/**
 * Ordered by (workspace, id), the (workspace, id) index's own order, so a page reads `$limit`
 * entries of the index: ordered by id alone, Neo4j read and sorted every memory after the cursor
 * for each page, and an export of n memories cost O(n²).
 */
export const LIST_MEMORIES = statement(
  'listMemories',
  `
  MATCH (m:Memory {workspace: $ws})
  WHERE m.id > $afterId
  WITH m
  ORDER BY m.workspace ASC, m.id ASC
  LIMIT $limit
  RETURN m AS memory
  `,
);

/**
 * `$key`, `$content`, `$kind`, `$metadata` may be null: CREATE leaves a null property out. A new
 * memory joins the embedding queue (vectors.ts): `embeddingQueue` orders it by time, then id.
 */
export const CREATE_MEMORY = statement(
  'createMemory',
  `
  CREATE (m:Memory {
    workspace: $ws, id: $id, key: $key, title: $title, content: $content, kind: $kind,
    tags: $tags, tagsText: $tagsText, weight: $weight, metadata: $metadata,
    createdAt: $now, updatedAt: $now, embeddingQueue: $now + ' ' + $id
  })
  RETURN m AS memory
  `,
);

/**
 * `$changes` holds only the fields the patch names (keys chosen by the store from a fixed set);
 * `SET +=` with a null value removes that property, which is how a field is cleared. A new title
 * or content drops the memory's vector and queues it again, in the same transaction.
 */
export const UPDATE_MEMORY = statement(
  'updateMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  WITH m, m.title AS oldTitle, m.content AS oldContent
  SET m += $changes, m.updatedAt = $now
  WITH m, coalesce(m.title = oldTitle AND (m.content = oldContent OR (m.content IS NULL AND oldContent IS NULL)), false) AS sameText
  SET m.embeddingQueue = CASE WHEN sameText THEN m.embeddingQueue ELSE $now + ' ' + m.id END
  WITH m, sameText
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: m.id})
  WHERE NOT sameText
  DELETE v
  RETURN m AS memory
  `,
);

/** DETACH DELETE within the workspace, with its vector and the EdgeRef of every edge it removes. */
export const DELETE_MEMORY = statement(
  'deleteMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: $id})
  DELETE v
  WITH m
  OPTIONAL MATCH (m)-[r]-()
  WITH m, collect(r.id) AS edgeIds
  OPTIONAL MATCH (k:EdgeRef {workspace: $ws})
  WHERE k.id IN edgeIds
  WITH m, edgeIds, collect(k) AS refs
  FOREACH (ref IN refs | DELETE ref)
  DETACH DELETE m
  RETURN size(edgeIds) AS edgesRemoved
  `,
);
