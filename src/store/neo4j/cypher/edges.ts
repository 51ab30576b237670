import { LOCK_ENDPOINTS, relationshipType, statement } from './statement.js';

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

/**
 * First statement of linkEdge: finds both endpoints, write-locks them, then looks for the edge.
 *
 * Why this is safe under concurrency on Community edition (no APOC, no apoc.lock): setting a
 * property takes the node's exclusive lock, held until the transaction ends (the Operations
 * Manual's documented way to lock in Cypher; the property is removed again at once, so nothing is
 * left behind). Every statement that creates an edge takes these locks first (this one's
 * follow-up by holding them; importEdges through MERGE's own locking of both endpoints), so two
 * link calls for the same pair run one after the other, and the second
 * one's OPTIONAL MATCH, which runs after its lock was granted, sees the first one's committed edge
 * and confirms it instead of creating a duplicate. Locks are taken in id order, so link(a, b) and
 * link(b, a) do not deadlock each other. The EdgeRef triple constraint backs this up: a duplicate
 * could not commit even if a writer skipped the locks.
 *
 * The edge is looked up from fresh index seeks of its two endpoints, not from the bound `a` and
 * `b`: a hint can name only variables its own clause introduces, and without one a database with
 * few relationships (the plan then cached) made Neo4j scan every relationship and filter on
 * `a` and `b` instead of expanding from them.
 */
export const LINK_PREPARE = statement(
  'linkPrepare',
  `
  OPTIONAL MATCH (a:Memory {workspace: $ws, id: $fromId})
  OPTIONAL MATCH (b:Memory {workspace: $ws, id: $toId})
  ${LOCK_ENDPOINTS}
  WITH a, b
  OPTIONAL MATCH (source:Memory {workspace: $ws, id: $fromId})-[r]->(target:Memory {workspace: $ws, id: $toId})
  USING INDEX SEEK source:Memory(workspace, id)
  USING INDEX SEEK target:Memory(workspace, id)
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
    CREATE (:EdgeRef {workspace: $ws, id: $id, fromId: $fromId, toId: $toId, type: $type, negWeight: -r.weight})
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
