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

/** Most rank tiers a search has (search-words.ts: all words in the title, anywhere, any word). */
export const SEARCH_TIERS = 3;

/**
 * Tier `index` of a search, when the tiers before it (`found`) left room and the text has that
 * many: its best matches that they did not find, at most `$limit`. Lucene hands over at most
 * `$ranked` matches, its best, so a word held by many memories costs a tier that many node reads
 * at most. A tier that does not run still answers its one row, an empty list.
 */
const searchTier = (index: number): string => `
  CALL (found) {
    WITH found
    WHERE size(found) < $limit AND size($queries) > ${index}
    CALL db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', $queries[${index}], {limit: $ranked}) YIELD node, score
    WHERE node.workspace = $ws
      AND NOT node IN found
      AND ($kinds IS NULL OR node.kind IN $kinds)
      AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
      AND ${CURRENT_ONLY.replaceAll('\n', '\n  ')}
    WITH node, score
    ORDER BY score DESC, node.weight DESC, node.id ASC
    LIMIT $limit
    RETURN collect(node) AS more
  }
  WITH found + more AS found`;

/**
 * A search's rank tiers in one statement, best tier first: each fills what the tiers before it
 * left of `$limit`, and a memory is answered once, in its best tier. `$queries` holds a Lucene
 * query per tier, built by toLuceneTiers and inWorkspace (escaped words, field boosts, the
 * workspace required); they are parameters like any value. One statement instead of one per tier:
 * a question's search usually needs all three, and each statement is a round trip.
 */
export const SEARCH_MEMORIES = statement(
  'searchMemories',
  `
  WITH [] AS found${Array.from({ length: SEARCH_TIERS }, (_, index) => searchTier(index)).join('')}
  UNWIND found[..$limit] AS memory
  RETURN memory
  `,
);

/**
 * The tag index: one `(:MemoryTag {workspace, tag, createdAt, memoryId})` node per tag of a memory,
 * with no relationship to anything (no walk, neighbour list or export meets one). A listing by tags
 * reads the (workspace, tag, createdAt, memoryId) index in order, as kinds read theirs: through the
 * full-text index it read and sorted every memory holding the tag.
 */

/** Deletes the nodes derived from `m` (its association terms or tag index nodes), when `when` holds. */
const deleteDerivedOf = (label: 'MemoryTerm' | 'MemoryTag' | 'RecallCue', when: string | null = null) => `
  CALL (m) {${
    when === null
      ? ''
      : `
    WITH m
    WHERE ${when}`
  }
    MATCH (old:${label} {workspace: $ws, memoryId: m.id})
    DELETE old
  }`;

/**
 * Rewrites the tag index nodes of `m` from its tags, when `when` holds (a condition on parameters):
 * inside the statement that changed the memory, so the common write costs no extra round trip.
 */
export const replaceTagsOf = (when: string) => `${deleteDerivedOf('MemoryTag', when)}
  FOREACH (tag IN CASE WHEN ${when} THEN coalesce(m.tags, []) ELSE [] END |
    MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: m.createdAt, memoryId: m.id}))`;

/** One of the listing's two index walks: what its entries are and how they name their place. */
interface Walk {
  key: 'kind' | 'tag';
  /** The entry's pattern, bound to the walk's value. */
  match: string;
  entry: string;
  /** Every property of the index, in its order, so Neo4j reads it in order instead of sorting. */
  order: string;
  createdAt: string;
  id: string;
  /** From the entries (at most $scan), the memories that pass the filters, at most $limit. */
  passing: string;
}

const TAG_WALK: Walk = {
  key: 'tag',
  match: '(t:MemoryTag {workspace: $ws, tag: tag})',
  entry: 't',
  order: 't.workspace DESC, t.tag DESC, t.createdAt DESC, t.memoryId DESC',
  createdAt: 't.createdAt',
  id: 't.memoryId',
  passing: `
    MATCH (node:Memory {workspace: $ws, id: t.memoryId})
    WHERE ($kinds IS NULL OR node.kind IN $kinds) AND ${CURRENT_ONLY}
    RETURN node
    LIMIT $limit`,
};

const KIND_WALK: Walk = {
  key: 'kind',
  match: '(node:Memory {workspace: $ws, kind: kind})',
  entry: 'node',
  order: 'node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC',
  createdAt: 'node.createdAt',
  id: 'node.id',
  passing: `
    WITH node
    WHERE ${CURRENT_ONLY}
    RETURN node
    LIMIT $limit`,
};

/**
 * A walk's index entries from `predicate`, newest first, ended by `bound` (`LIMIT $scan`: a page
 * reads at most LISTING_SCAN entries of each walk, however many the filters reject). Neo4j seeks
 * a composite index only with a predicate on every property, hence the IS NOT NULLs.
 */
const entries = (walk: Walk, predicate: string, bound: string) => `
    MATCH ${walk.match}
    WHERE ${predicate}
    WITH ${walk.entry}
    ORDER BY ${walk.order}
    ${bound}`;

const FIRST_PAGE = (walk: Walk) => `${walk.createdAt} IS NOT NULL AND ${walk.id} IS NOT NULL`;

/**
 * A later page starts strictly after ($afterCreatedAt, $afterId): two seeks of the index, one for
 * the rest of the cursor's createdAt and one below it, so a page reads about as much however deep
 * it is (one range predicate over both properties would read every entry sharing the cursor's
 * createdAt, a whole batch after a bulk import).
 */
const afterCursor = (walk: Walk, read: (predicate: string) => string) => `
    CALL (${walk.key}) {${read(`${walk.createdAt} = $afterCreatedAt AND ${walk.id} < $afterId`)}
      UNION${read(`${walk.createdAt} < $afterCreatedAt AND ${walk.id} IS NOT NULL`)}
    }`;

/**
 * One page of a listing: each of `$<key>s`, newest first, its memories that pass the filters among
 * its first $scan entries, at most $limit; returned with the walk's value, for the store to merge
 * (a memory may carry two of the tags) and to see which walks came back short.
 */
const listing = (walk: Walk, after: boolean) => {
  const read = (predicate: string) => `${entries(walk, predicate, 'LIMIT $scan')}${walk.passing}`;
  const page = after
    ? `${afterCursor(walk, read)}
    RETURN node
    ORDER BY node.createdAt DESC, node.id DESC
    LIMIT $limit`
    : read(FIRST_PAGE(walk));
  return `
  UNWIND $${walk.key}s AS ${walk.key}
  CALL (${walk.key}) {${page}
  }
  RETURN ${walk.key} AS value, node AS memory
  `;
};

/**
 * Where the scan bound cut each of `$values` (the walks that came back short): its entry $skip
 * past the cursor (LISTING_SCAN - 1), if it has one. The page is complete down to there.
 */
const listingCut = (walk: Walk, after: boolean) => {
  const position = `RETURN ${walk.createdAt} AS createdAt, ${walk.id} AS id`;
  const cut = after
    ? `${afterCursor(
        walk,
        (predicate) => `${entries(walk, predicate, 'LIMIT $scan')}
    RETURN ${walk.entry}`,
      )}
    WITH ${walk.entry}
    ORDER BY ${walk.createdAt} DESC, ${walk.id} DESC
    SKIP $skip
    LIMIT 1
    ${position}`
    : `${entries(walk, FIRST_PAGE(walk), 'SKIP $skip LIMIT 1')}
    ${position}`;
  return `
  UNWIND $values AS ${walk.key}
  CALL (${walk.key}) {${cut}
  }
  RETURN ${walk.key} AS value, createdAt, id
  `;
};

/** A listing by tags (no words): each tag's first page (listing); the store merges the tags' pages. */
export const LIST_MEMORIES_BY_TAGS = statement('listMemoriesByTags', listing(TAG_WALK, false));

/** A later page of LIST_MEMORIES_BY_TAGS, strictly after the cursor. */
export const LIST_MEMORIES_BY_TAGS_AFTER = statement('listMemoriesByTagsAfter', listing(TAG_WALK, true));

/** Where LISTING_SCAN cut a tag's walk of LIST_MEMORIES_BY_TAGS (listingCut). */
export const LISTING_CUT_BY_TAGS = statement('listingCutByTags', listingCut(TAG_WALK, false));

/** Where LISTING_SCAN cut a tag's walk of LIST_MEMORIES_BY_TAGS_AFTER (listingCut). */
export const LISTING_CUT_BY_TAGS_AFTER = statement('listingCutByTagsAfter', listingCut(TAG_WALK, true));

/**
 * A listing by kinds (no words, no tags): each kind's first page (listing) along the (workspace,
 * kind, createdAt, id) index (ordered by createdAt alone Neo4j sorted every memory of the kind;
 * without id in the index it sorted every memory sharing a createdAt, which a bulk import gives a
 * whole batch). The store merges the kinds' pages.
 */
export const LIST_MEMORIES_BY_KINDS = statement('listMemoriesByKinds', listing(KIND_WALK, false));

/** A later page of LIST_MEMORIES_BY_KINDS, strictly after the cursor. */
export const LIST_MEMORIES_BY_KINDS_AFTER = statement('listMemoriesByKindsAfter', listing(KIND_WALK, true));

/** Where LISTING_SCAN cut a kind's walk of LIST_MEMORIES_BY_KINDS (listingCut). */
export const LISTING_CUT_BY_KINDS = statement('listingCutByKinds', listingCut(KIND_WALK, false));

/** Where LISTING_SCAN cut a kind's walk of LIST_MEMORIES_BY_KINDS_AFTER (listingCut). */
export const LISTING_CUT_BY_KINDS_AFTER = statement('listingCutByKindsAfter', listingCut(KIND_WALK, true));

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
 * the tag index, in the same statement, so the common write costs no extra round trip.
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
 * or content drops the memory's vector and queues it again; `$terms` (null: unchanged) replaces its
 * association terms and `$replaceTags` its tag index nodes: one statement, one round trip.
 */
export const UPDATE_MEMORY = statement(
  'updateMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  WITH m, m.title AS oldTitle, m.content AS oldContent
  SET m += $changes, m.updatedAt = $now
  ${REQUEUE_IF_TEXT_CHANGED}
  WITH m${deleteDerivedOf('MemoryTerm', '$terms IS NOT NULL')}
  CALL (m) {
    UNWIND coalesce($terms, []) AS term
    CREATE (:MemoryTerm {workspace: $ws, memoryId: m.id, term: term})
  }${replaceTagsOf('$replaceTags')}
  RETURN m AS memory
  `,
);

/**
 * DETACH DELETE within the workspace, with its vector, its association terms, tag index nodes and
 * recall cues, and the EdgeRef of every edge it removes: one statement, so a deletion is one round trip.
 */
export const DELETE_MEMORY = statement(
  'deleteMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: $id})
  DELETE v
  WITH m${deleteDerivedOf('MemoryTerm')}${deleteDerivedOf('MemoryTag')}${deleteDerivedOf('RecallCue')}
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
