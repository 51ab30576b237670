import { badInput } from '../../domain/errors.js';
import { RELATION_TYPE_PATTERN } from '../../domain/relations.js';
import type { Direction } from '../../domain/types.js';

/**
 * Every Cypher statement the Neo4j store sends, and nothing else.
 *
 * Rules that keep user text out of statement text:
 * - every value (ids, keys, titles, metadata, search text, weights, limits) is a `$parameter`;
 * - the only variable parts of a statement are chosen from fixed fragments here (a direction
 *   arrow, which filters a listing applies) or are relation types, which pass
 *   `relationshipType()` (the UPPER_SNAKE rule) and are then backtick-quoted. Cypher cannot take a
 *   relationship type as a parameter when it creates a relationship, so this is the one splice.
 * - each statement starts with `// engram:<name>`, which names it in query logs and
 *   `SHOW TRANSACTIONS`.
 *
 * Graph model (one Neo4j database may hold many workspaces):
 * - `(:Memory {workspace, id, key?, title, content?, kind?, tags, tagsText, weight, metadata?, createdAt, updatedAt})`;
 *   `tagsText` is the tags joined by spaces, for the full-text index; `metadata` is a JSON string.
 * - an edge is a native relationship `(from:Memory)-[:CAUSED_BY {id, weight, metadata?, createdAt,
 *   updatedAt, lastConfirmedAt?}]->(to:Memory)`.
 * - `(:EdgeRef {workspace, id, fromId, toId, type})` is the relationship id index. Neo4j indexes
 *   relationship properties per relationship type only, and the vocabulary is open, so a lookup
 *   by edge id across all types would scan every relationship. An EdgeRef per edge, under two
 *   uniqueness constraints ((workspace, id) and (workspace, fromId, toId, type)), turns it into an
 *   index seek plus an expand between the two endpoints, and makes a duplicate edge impossible at
 *   the database level. Every statement that creates or deletes an edge does the same to its EdgeRef.
 * - `(:WeightEvent {workspace, id, at, source, edgeId?, memoryId?, oldWeight, newWeight, delta, reason?, revertedBy?})`.
 * - Timestamps are the ISO-8601 strings the domain passes in, stored and returned unchanged.
 */

export const FULLTEXT_INDEX = 'engram_memory_text';

/** The one place a relation type enters statement text: validated, then backtick-quoted. */
export function relationshipType(type: string): string {
  if (!RELATION_TYPE_PATTERN.test(type)) {
    throw badInput('type', 'must be UPPER_SNAKE_CASE: a letter, then letters, digits or _, at most 64 characters');
  }
  return `\`${type}\``;
}

function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

const statement = (name: string, body: string): string => `// engram:${name}\n${dedent(body)}`;

/** `(m)-[r]->(other)` and friends: the arrow is the only part that depends on the direction. */
function hop(direction: Direction, from: string, rel: string, to: string): string {
  switch (direction) {
    case 'OUTGOING':
      return `(${from})-[${rel}]->(${to})`;
    case 'INCOMING':
      return `(${from})<-[${rel}]-(${to})`;
    case 'BOTH':
      return `(${from})-[${rel}]-(${to})`;
    default:
      throw badInput('direction', 'must be OUTGOING, INCOMING or BOTH');
  }
}

/** Locks two memories in id order (fewer deadlocks between link(a, b) and link(b, a)); see linkPrepare. */
const LOCK_ENDPOINTS =
  'FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._engramLock = true REMOVE n._engramLock)';

// ---- start-up ------------------------------------------------------------------------------------

export const PING = statement('ping', 'RETURN 1 AS ok');

/** Server version and edition, checked once at start-up. */
export const SERVER_COMPONENTS = statement(
  'serverComponents',
  `
  CALL dbms.components() YIELD name, versions, edition
  RETURN name, versions, edition
  `,
);

/**
 * Idempotent schema, one statement per transaction (Neo4j does not mix schema and data changes).
 * Uniqueness constraints exist in Community edition; their backing range indexes serve the lookups
 * by (workspace, id) and (workspace, key). Nodes without a `key` are not subject to its constraint.
 */
export const SCHEMA: readonly { name: string; text: string }[] = [
  [
    'engram_memory_id',
    'CREATE CONSTRAINT engram_memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE (m.workspace, m.id) IS UNIQUE',
  ],
  [
    'engram_memory_key',
    'CREATE CONSTRAINT engram_memory_key IF NOT EXISTS FOR (m:Memory) REQUIRE (m.workspace, m.key) IS UNIQUE',
  ],
  [
    'engram_edge_ref_id',
    'CREATE CONSTRAINT engram_edge_ref_id IF NOT EXISTS FOR (k:EdgeRef) REQUIRE (k.workspace, k.id) IS UNIQUE',
  ],
  [
    'engram_edge_ref_triple',
    'CREATE CONSTRAINT engram_edge_ref_triple IF NOT EXISTS FOR (k:EdgeRef) REQUIRE (k.workspace, k.fromId, k.toId, k.type) IS UNIQUE',
  ],
  [
    'engram_weight_event_id',
    'CREATE CONSTRAINT engram_weight_event_id IF NOT EXISTS FOR (e:WeightEvent) REQUIRE (e.workspace, e.id) IS UNIQUE',
  ],
  [
    'engram_weight_event_edge',
    'CREATE INDEX engram_weight_event_edge IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.edgeId, e.at)',
  ],
  [
    'engram_weight_event_memory',
    'CREATE INDEX engram_weight_event_memory IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.memoryId, e.at)',
  ],
  [
    'engram_weight_event_at',
    'CREATE INDEX engram_weight_event_at IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.at)',
  ],
  [
    FULLTEXT_INDEX,
    `CREATE FULLTEXT INDEX ${FULLTEXT_INDEX} IF NOT EXISTS FOR (m:Memory) ON EACH [m.title, m.content, m.tagsText]`,
  ],
].map(([name, text]) => ({ name: name as string, text: statement(`schema:${name as string}`, text as string) }));

/** Waits (bounded) until the indexes created above are online, so the first search can use them. */
export const AWAIT_INDEXES = statement('awaitIndexes', 'CALL db.awaitIndexes($timeoutSeconds)');

// ---- reads ---------------------------------------------------------------------------------------

/** One row per reference that matches; an id match wins over a key match. */
export const GET_MEMORIES = statement(
  'getMemories',
  `
  UNWIND $refs AS ref
  OPTIONAL MATCH (byId:Memory {workspace: $ws, id: ref})
  OPTIONAL MATCH (byKey:Memory {workspace: $ws, key: ref})
  WITH ref, coalesce(byId, byKey) AS memory
  WHERE memory IS NOT NULL
  RETURN ref, memory
  `,
);

export const GET_EDGES = statement(
  'getEdges',
  `
  UNWIND $ids AS edgeId
  MATCH (k:EdgeRef {workspace: $ws, id: edgeId})
  MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
  WHERE r.id = edgeId
  RETURN edgeId, r AS edge, a.id AS fromId, b.id AS toId
  `,
);

/**
 * The edges of each memory, strongest first, at most `$limit` per memory: the rows are ordered
 * before `collect`, which keeps that order, and the slice keeps the first `$limit`.
 */
export function getAdjacent(direction: Direction): string {
  return statement(
    `getAdjacent:${direction}`,
    `
    UNWIND $ids AS anchorId
    MATCH ${hop(direction, 'm:Memory {workspace: $ws, id: anchorId}', 'r', 'other')}
    WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast
    WITH anchorId, r, other, startNode(r) = m AS outgoing
    ORDER BY r.weight DESC, r.id ASC
    WITH anchorId, collect({edge: r, neighbor: other, outgoing: outgoing})[..$limit] AS adjacent
    UNWIND adjacent AS entry
    RETURN anchorId, entry.edge AS edge, entry.neighbor AS neighbor, entry.outgoing AS outgoing
    `,
  );
}

export function countAdjacent(direction: Direction): string {
  return statement(
    `countAdjacent:${direction}`,
    `
    UNWIND $ids AS anchorId
    MATCH ${hop(direction, 'm:Memory {workspace: $ws, id: anchorId}', 'r', '')}
    WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
    RETURN anchorId, count(r) AS degree
    `,
  );
}

/** One BFS level: every unpruned edge leaving the frontier; `$take` is the budget plus one, to detect truncation. */
export function expandFrontier(direction: Direction): string {
  return statement(
    `expandFrontier:${direction}`,
    `
    UNWIND $ids AS fromId
    MATCH ${hop(direction, 'm:Memory {workspace: $ws, id: fromId}', 'r', 'other')}
    WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
    RETURN fromId, other.id AS toId, r.id AS edgeId, r.weight AS weight
    LIMIT $take
    `,
  );
}

export const FIND_EDGE = statement(
  'findEdge',
  `
  MATCH (a:Memory {workspace: $ws, id: $fromId})-[r]->(b:Memory {workspace: $ws, id: $toId})
  WHERE type(r) = $type
  RETURN r AS edge, a.id AS fromId, b.id AS toId
  `,
);

/** Edges with both ends among `$ids`, in either direction; bounded by `$limit`, ordered by edge id. */
export const EDGES_AMONG = statement(
  'edgesAmong',
  `
  MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory {workspace: $ws})
  WHERE a.id IN $ids AND b.id IN $ids AND r.weight > $above
  RETURN r AS edge, a.id AS fromId, b.id AS toId
  ORDER BY r.id ASC
  LIMIT $limit
  `,
);

export const EDGES_BETWEEN = statement(
  'edgesBetween',
  `
  MATCH (a:Memory {workspace: $ws, id: $aId})-[r]-(b:Memory {workspace: $ws, id: $bId})
  WHERE $types IS NULL OR type(r) IN $types
  RETURN r AS edge, startNode(r).id AS fromId, endNode(r).id AS toId
  ORDER BY r.weight DESC, r.id ASC
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
 * Filters present become equality predicates in the pattern. `e.at IS NOT NULL` completes the
 * composite indexes' key ((workspace, edgeId, at), (workspace, memoryId, at), (workspace, at)):
 * Neo4j seeks a composite index only with a predicate on every property, and without it each call
 * scanned every WeightEvent of the database. The hint forces a seek of the named index, so the plan
 * does not depend on statistics (after many events were written and deleted, Neo4j planned a full
 * scan of the index even with a plain `USING INDEX` hint).
 */
export function listWeightEvents(filter: { edgeId: boolean; memoryId: boolean; source: boolean }): string {
  const properties = ['workspace: $ws'];
  if (filter.edgeId) properties.push('edgeId: $edgeId');
  if (filter.memoryId) properties.push('memoryId: $memoryId');
  if (filter.source) properties.push('source: $source');
  const name = ['edgeId', 'memoryId', 'source'].filter((key) => filter[key as keyof typeof filter]).join('+') || 'all';
  const index = filter.edgeId ? 'workspace, edgeId, at' : filter.memoryId ? 'workspace, memoryId, at' : 'workspace, at';
  return statement(
    `listWeightEvents:${name}`,
    `
    MATCH (e:WeightEvent {${properties.join(', ')}})
    USING INDEX SEEK e:WeightEvent(${index})
    WHERE e.at IS NOT NULL
    RETURN e AS event
    ORDER BY e.at DESC, e.id DESC
    LIMIT $limit
    `,
  );
}

/** Newest `$limit` events per edge; the subquery runs once per edge id, so the LIMIT is per edge. */
export const GET_EDGE_HISTORIES = statement(
  'getEdgeHistories',
  `
  UNWIND $ids AS edgeId
  CALL (edgeId) {
    MATCH (e:WeightEvent {workspace: $ws, edgeId: edgeId})
    USING INDEX SEEK e:WeightEvent(workspace, edgeId, at)
    WHERE e.at IS NOT NULL
    RETURN e
    ORDER BY e.at DESC, e.id DESC
    LIMIT $limit
  }
  RETURN edgeId, e AS event
  `,
);

export const GET_WEIGHT_EVENTS = statement(
  'getWeightEvents',
  `
  UNWIND $ids AS eventId
  MATCH (e:WeightEvent {workspace: $ws, id: eventId})
  RETURN eventId, e AS event
  `,
);

/**
 * The typed edges leaving the workspace's memories, strongest first, keyset-paged. `a.id IS NOT
 * NULL` lets the (workspace, id) index find the workspace's memories: without it Neo4j scanned
 * every Memory of the database (all workspaces) to find them.
 */
export function listEdgesByType(types: readonly string[], paged: boolean): string {
  return statement(
    'listEdgesByType',
    `
    MATCH (a:Memory {workspace: $ws})-[r:${types.map(relationshipType).join('|')}]->(b:Memory)
    USING INDEX SEEK a:Memory(workspace, id)
    WHERE a.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast${paged ? '\n      AND (r.weight < $afterWeight OR (r.weight = $afterWeight AND r.id > $afterId))' : ''}
    RETURN r AS edge, a.id AS fromId, b.id AS toId
    ORDER BY r.weight DESC, r.id ASC
    LIMIT $limit
    `,
  );
}

/** Per target: distinct sources, and the sum of each source's strongest qualifying edge (index seek as in listEdgesByType). */
export function rankTargetsBySources(types: readonly string[]): string {
  return statement(
    'rankTargetsBySources',
    `
    MATCH (origin:Memory {workspace: $ws})-[r:${types.map(relationshipType).join('|')}]->(target:Memory)
    USING INDEX SEEK origin:Memory(workspace, id)
    WHERE origin.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
    WITH target, origin, max(r.weight) AS strongest
    WITH target, count(origin) AS sources, sum(strongest) AS weight
    WHERE sources >= $minSources
    RETURN target.id AS memoryId, sources, weight
    ORDER BY sources DESC, weight DESC, memoryId ASC
    LIMIT $limit
    `,
  );
}

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

export const LIST_EDGES = statement(
  'listEdges',
  `
  MATCH (k:EdgeRef {workspace: $ws})
  WHERE k.id > $afterId
  WITH k
  ORDER BY k.workspace ASC, k.id ASC
  LIMIT $limit
  MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
  WHERE r.id = k.id
  RETURN r AS edge, a.id AS fromId, b.id AS toId
  ORDER BY r.id ASC
  `,
);

// ---- writes --------------------------------------------------------------------------------------

/** `$key`, `$content`, `$kind`, `$metadata` may be null: CREATE leaves a null property out. */
export const CREATE_MEMORY = statement(
  'createMemory',
  `
  CREATE (m:Memory {
    workspace: $ws, id: $id, key: $key, title: $title, content: $content, kind: $kind,
    tags: $tags, tagsText: $tagsText, weight: $weight, metadata: $metadata,
    createdAt: $now, updatedAt: $now
  })
  RETURN m AS memory
  `,
);

/**
 * `$changes` holds only the fields the patch names (keys chosen by the store from a fixed set);
 * `SET +=` with a null value removes that property, which is how a field is cleared.
 */
export const UPDATE_MEMORY = statement(
  'updateMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
  SET m += $changes, m.updatedAt = $now
  RETURN m AS memory
  `,
);

/** DETACH DELETE within the workspace, and the EdgeRef of every edge it removes. */
export const DELETE_MEMORY = statement(
  'deleteMemory',
  `
  MATCH (m:Memory {workspace: $ws, id: $id})
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

/**
 * First statement of linkEdge: finds both endpoints, write-locks them, then looks for the edge.
 *
 * Why this is safe under concurrency on Community edition (no APOC, no apoc.lock): setting a
 * property takes the node's exclusive lock, held until the transaction ends (the Operations
 * Manual's documented way to lock in Cypher; the property is removed again at once, so nothing is
 * left behind). Every statement that creates an edge (this one's follow-up and importEdges) takes
 * these locks first, so two link calls for the same pair run one after the other, and the second
 * one's OPTIONAL MATCH, which runs after its lock was granted, sees the first one's committed edge
 * and confirms it instead of creating a duplicate. Locks are taken in id order, so link(a, b) and
 * link(b, a) do not deadlock each other. The EdgeRef triple constraint backs this up: a duplicate
 * could not commit even if a writer skipped the locks.
 */
export const LINK_PREPARE = statement(
  'linkPrepare',
  `
  OPTIONAL MATCH (a:Memory {workspace: $ws, id: $fromId})
  OPTIONAL MATCH (b:Memory {workspace: $ws, id: $toId})
  ${LOCK_ENDPOINTS}
  WITH a, b
  OPTIONAL MATCH (a)-[r]->(b)
  WHERE type(r) = $type
  RETURN a IS NOT NULL AS fromFound, b IS NOT NULL AS toFound, r AS edge
  `,
);

export function linkCreate(type: string): string {
  return statement(
    'linkCreate',
    `
    MATCH (a:Memory {workspace: $ws, id: $fromId})
    MATCH (b:Memory {workspace: $ws, id: $toId})
    CREATE (a)-[r:${relationshipType(type)} {id: $id, weight: $weight, metadata: $metadata, createdAt: $now, updatedAt: $now}]->(b)
    CREATE (:EdgeRef {workspace: $ws, id: $id, fromId: $fromId, toId: $toId, type: $type})
    RETURN r AS edge, a.id AS fromId, b.id AS toId
    `,
  );
}

/** `$metadata` is the merged JSON, computed from the value read while the endpoints were locked. */
export const LINK_CONFIRM = statement(
  'linkConfirm',
  `
  MATCH (a:Memory {workspace: $ws, id: $fromId})-[r]->(b:Memory {workspace: $ws, id: $toId})
  WHERE r.id = $edgeId
  SET r.metadata = $metadata, r.lastConfirmedAt = $now, r.updatedAt = $now
  RETURN r AS edge, a.id AS fromId, b.id AS toId
  `,
);

/** Deletes one edge and its EdgeRef, returning the edge's properties as they were. */
export function unlinkEdge(by: 'id' | 'triple'): string {
  const find =
    by === 'id'
      ? 'MATCH (k:EdgeRef {workspace: $ws, id: $id})'
      : 'MATCH (k:EdgeRef {workspace: $ws, fromId: $fromId, toId: $toId, type: $type})';
  return statement(
    `unlinkEdge:${by}`,
    `
    ${find}
    MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
    WHERE r.id = k.id
    WITH k, r, properties(r) AS props, type(r) AS relType, a.id AS fromId, b.id AS toId
    DELETE r, k
    RETURN props, relType, fromId, toId
    `,
  );
}

/**
 * The clamped read-modify-write, written so that Neo4j locks before it reads: the right-hand side
 * of each SET item reads the property it writes (a "direct dependency"), so Cypher takes the
 * entity's write lock before evaluating it, and concurrent changes queue instead of losing
 * updates. `prevWeight` keeps the replaced value, as in the SQLite store.
 */
function setWeight(entity: string): string {
  return `SET ${entity}.prevWeight = ${entity}.weight,
    ${entity}.weight = round(CASE
      WHEN change.isDelta AND ${entity}.weight + change.amount < $floor THEN $floor
      WHEN change.isDelta AND ${entity}.weight + change.amount > $ceiling THEN $ceiling
      WHEN change.isDelta THEN ${entity}.weight + change.amount
      WHEN change.amount < $floor THEN $floor
      WHEN change.amount > $ceiling THEN $ceiling
      ELSE change.amount
    END, 12),
    ${entity}.updatedAt = $now`;
}

/** The WeightEvent of each change, and the revert mark, in the same statement as the weight change. */
function recordEvent(entity: string, target: 'edgeId' | 'memoryId'): string {
  return `CREATE (e:WeightEvent {
    workspace: $ws, id: change.eventId, at: $now, source: change.source, ${target}: change.targetId,
    oldWeight: ${entity}.prevWeight, newWeight: ${entity}.weight, delta: round(${entity}.weight - ${entity}.prevWeight, 12),
    reason: change.reason
  })
  WITH change, ${entity}, e, fromId, toId
  OPTIONAL MATCH (reverted:WeightEvent {workspace: $ws, id: change.revertsEventId})
  SET reverted.revertedBy = CASE WHEN reverted.revertedBy IS NULL THEN change.eventId ELSE reverted.revertedBy END
  RETURN change.index AS index, ${entity} AS target, fromId, toId, e AS event,
    change.revertsEventId IS NULL OR coalesce(reverted.revertedBy = change.eventId, false) AS revertOk`;
}

/**
 * Weight changes to distinct edges, one row per change (the store never puts one edge twice in a
 * batch, so no row reads another row's write). A missing edge yields no row.
 */
export const APPLY_EDGE_WEIGHTS = statement(
  'applyEdgeWeights',
  `
  UNWIND $changes AS change
  MATCH (k:EdgeRef {workspace: $ws, id: change.targetId})
  MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
  WHERE r.id = k.id
  ${setWeight('r')}
  WITH change, r, a.id AS fromId, b.id AS toId
  ${recordEvent('r', 'edgeId')}
  `,
);

export const APPLY_MEMORY_WEIGHTS = statement(
  'applyMemoryWeights',
  `
  UNWIND $changes AS change
  MATCH (m:Memory {workspace: $ws, id: change.targetId})
  ${setWeight('m')}
  WITH change, m, null AS fromId, null AS toId
  ${recordEvent('m', 'memoryId')}
  `,
);

/** Upsert by (workspace, id): fields replaced, createdAt kept. */
export const IMPORT_MEMORIES = statement(
  'importMemories',
  `
  UNWIND $memories AS row
  MERGE (m:Memory {workspace: $ws, id: row.id})
  ON CREATE SET m.createdAt = $now
  SET m.key = row.key, m.title = row.title, m.content = row.content, m.kind = row.kind,
    m.tags = row.tags, m.tagsText = row.tagsText, m.weight = row.weight, m.metadata = row.metadata,
    m.updatedAt = $now
  RETURN count(m) AS upserted
  `,
);

/**
 * Upsert of edges of one type by (from, to, type): weight and metadata replaced, id kept. Rows
 * whose endpoints are missing produce no row, so a count short of the batch means NOT_FOUND.
 * Endpoints are locked first, exactly as in linkPrepare, so MERGE cannot race a concurrent link.
 */
export function importEdges(type: string): string {
  return statement(
    'importEdges',
    `
    UNWIND $edges AS row
    MATCH (a:Memory {workspace: $ws, id: row.fromId})
    MATCH (b:Memory {workspace: $ws, id: row.toId})
    ${LOCK_ENDPOINTS}
    MERGE (a)-[r:${relationshipType(type)}]->(b)
    ON CREATE SET r.id = row.id, r.createdAt = $now
    SET r.weight = row.weight, r.metadata = row.metadata, r.updatedAt = $now
    MERGE (k:EdgeRef {workspace: $ws, fromId: row.fromId, toId: row.toId, type: $type})
    ON CREATE SET k.id = r.id
    RETURN count(r) AS upserted
    `,
  );
}
