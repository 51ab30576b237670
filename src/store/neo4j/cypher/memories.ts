import { FULLTEXT_INDEX, REQUEUE_IF_TEXT_CHANGED, statement } from './statement.js';

/**
 * Binds `memory` for each of `$refs` that matches, as `ref, memory`: an id match wins over a key
 * match. Lines indented for a statement body at two spaces.
 */
export const MEMORY_BY_REF = `UNWIND $refs AS ref
  OPTIONAL MATCH (byId:Memory {workspace: $ws, id: ref})
  OPTIONAL CALL (ref, byId) {
    WITH ref, byId
    WHERE byId IS NULL
    MATCH (byKey:Memory {workspace: $ws, key: ref})
    RETURN byKey
  }
  WITH ref, coalesce(byId, byKey) AS memory
  WHERE memory IS NOT NULL`;

/**
 * One row per reference that matches; an id match wins over a key match, so the key index is only
 * read for references no id matched (callers almost always pass ids).
 */
export const GET_MEMORIES = statement(
  'getMemories',
  `
  ${MEMORY_BY_REF}
  RETURN ref, memory
  `,
);

/** A superseded memory: an unpruned SUPERSEDES edge points at it (only checked with `$currentOnly`). */
const CURRENT_ONLY = `($currentOnly = false OR NOT EXISTS {
      MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
    })`;

/**
 * One rank tier of a search. `$query` is a Lucene query built by toLuceneTiers and inWorkspace
 * (escaped words, field boosts, the workspace required); it is a parameter like any value. Lucene
 * hands over at most `$ranked` matches, its best, so a word held by many memories costs a tier
 * that many node reads at most. `$seen` holds the memories earlier tiers found.
 */
export const SEARCH_MEMORIES = statement(
  'searchMemories',
  `
  CALL db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', $query, {limit: $ranked}) YIELD node, score
  WHERE node.workspace = $ws
    AND NOT node.id IN $seen
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
    AND ${CURRENT_ONLY}
  RETURN node AS memory
  ORDER BY score DESC, node.weight DESC, node.id ASC
  LIMIT $limit
  `,
);

/**
 * The tag index: one `(:MemoryTag {workspace, tag, createdAt, memoryId})` node per tag of a memory,
 * with no relationship to anything (no walk, neighbour list or export meets one). A listing by tags
 * reads the (workspace, tag, createdAt, memoryId) index in order, as kinds read theirs: through the
 * full-text index it read and sorted every memory holding the tag.
 */

/** Replaces the tag nodes of each memory of `$ids` by its current tags (each memory once). */
export const REPLACE_TAGS = statement(
  'replaceTags',
  `
  UNWIND $ids AS memoryId
  MATCH (m:Memory {workspace: $ws, id: memoryId})
  CALL (m) {
    MATCH (old:MemoryTag {workspace: $ws, memoryId: m.id})
    DELETE old
  }
  FOREACH (tag IN coalesce(m.tags, []) |
    MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: m.createdAt, memoryId: m.id}))
  RETURN count(m) AS replaced
  `,
);

/**
 * A later page of one kind's or one tag's memories, strictly after ($afterCreatedAt, $afterId):
 * two seeks of its index, one for the rest of the cursor's createdAt and one below it, merged, so a
 * page reads about $limit entries however deep it is (one range predicate over both properties would
 * read every memory sharing the cursor's createdAt, a whole batch after a bulk import). `walk`
 * reads the index from a predicate on its `createdAt` and `id` properties.
 */
const pageAfterCursor = (key: 'kind' | 'tag', walk: (predicate: string) => string, createdAt: string, id: string) => `
  CALL (${key}) {
    CALL (${key}) {${walk(`${createdAt} = $afterCreatedAt AND ${id} < $afterId`)}
      UNION${walk(`${createdAt} < $afterCreatedAt AND ${id} IS NOT NULL`)}
    }
    RETURN node
    ORDER BY node.createdAt DESC, node.id DESC
    LIMIT $limit
  }`;

/**
 * One tag's memories in the tag index's order (newest first), those `predicate` keeps, at most
 * $limit. Neo4j seeks a composite index only with a predicate on every property, hence the IS NOT
 * NULLs; kinds and currentOnly are checked on each memory after the ordering, before the limit.
 */
const tagIndexWalk = (predicate: string) => `
    MATCH (t:MemoryTag {workspace: $ws, tag: tag})
    WHERE ${predicate}
    WITH t
    ORDER BY t.workspace DESC, t.tag DESC, t.createdAt DESC, t.memoryId DESC
    MATCH (node:Memory {workspace: $ws, id: t.memoryId})
    WHERE ($kinds IS NULL OR node.kind IN $kinds) AND ${CURRENT_ONLY}
    RETURN node
    LIMIT $limit`;

/**
 * A listing by tags (no words): each tag's newest, at most $limit per tag. The store merges them
 * (a memory may carry two of the tags), so nothing here sorts.
 */
export const LIST_MEMORIES_BY_TAGS = statement(
  'listMemoriesByTags',
  `
  UNWIND $tags AS tag
  CALL (tag) {${tagIndexWalk('t.createdAt IS NOT NULL AND t.memoryId IS NOT NULL')}
  }
  RETURN node AS memory
  `,
);

/** A later page of LIST_MEMORIES_BY_TAGS (pageAfterCursor); the tags' pages are merged by the store. */
export const LIST_MEMORIES_BY_TAGS_AFTER = statement(
  'listMemoriesByTagsAfter',
  `
  UNWIND $tags AS tag${pageAfterCursor('tag', tagIndexWalk, 't.createdAt', 't.memoryId')}
  RETURN node AS memory
  `,
);

/**
 * A listing by kinds (no words, no tags): newest first per kind, then merged. Ordered by every
 * property of the (workspace, kind, createdAt, id) index, so Neo4j reads the index in order and
 * stops at `$limit` (ordered by createdAt alone it sorted every memory of the kind; without id in
 * the index it sorted every memory sharing a createdAt, which a bulk import gives a whole batch);
 * Neo4j seeks a composite index only with a predicate on every property, hence the IS NOT NULLs.
 * Superseded memories are skipped after the ordering, before the limit.
 */
export const LIST_MEMORIES_BY_KINDS = statement(
  'listMemoriesByKinds',
  `
  UNWIND $kinds AS kind
  CALL (kind) {
    MATCH (node:Memory {workspace: $ws, kind: kind})
    WHERE node.createdAt IS NOT NULL AND node.id IS NOT NULL
    WITH node
    ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
    WHERE ${CURRENT_ONLY}
    RETURN node
    LIMIT $limit
  }
  RETURN node AS memory
  ORDER BY node.createdAt DESC, node.id DESC
  LIMIT $limit
  `,
);

/** One kind's memories in the kind index's order (newest first), filtered by `predicate`, at most $limit. */
const kindIndexWalk = (predicate: string) => `
    MATCH (node:Memory {workspace: $ws, kind: kind})
    WHERE ${predicate}
    WITH node
    ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
    WHERE ${CURRENT_ONLY}
    RETURN node
    LIMIT $limit`;

/** A later page of LIST_MEMORIES_BY_KINDS (pageAfterCursor), the kinds' pages merged here. */
export const LIST_MEMORIES_BY_KINDS_AFTER = statement(
  'listMemoriesByKindsAfter',
  `
  UNWIND $kinds AS kind${pageAfterCursor('kind', kindIndexWalk, 'node.createdAt', 'node.id')}
  RETURN node AS memory
  ORDER BY node.createdAt DESC, node.id DESC
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
 * memory joins the embedding queue (vectors.ts): `embeddingQueue` orders it by time, then id; and
 * the tag index (REPLACE_TAGS), in the same statement, so the common write costs no extra round trip.
 */
export const CREATE_MEMORY = statement(
  'createMemory',
  `
  CREATE (m:Memory {
    workspace: $ws, id: $id, key: $key, title: $title, content: $content, kind: $kind,
    tags: $tags, tagsText: $tagsText, weight: $weight, metadata: $metadata,
    createdAt: $now, updatedAt: $now, embeddingQueue: $now + ' ' + $id
  })
  FOREACH (tag IN $tags | MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: $now, memoryId: $id}))
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
  ${REQUEUE_IF_TEXT_CHANGED}
  RETURN m AS memory
  `,
);

/**
 * DETACH DELETE within the workspace, with its vector, its association terms and tag index nodes,
 * and the EdgeRef of every edge it removes: one statement, so a deletion is one round trip.
 */
export const DELETE_MEMORY = statement(
  'deleteMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: $id})
  DELETE v
  WITH m
  CALL (m) {
    MATCH (term:MemoryTerm {workspace: $ws, memoryId: m.id})
    DELETE term
  }
  CALL (m) {
    MATCH (tag:MemoryTag {workspace: $ws, memoryId: m.id})
    DELETE tag
  }
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
