import type { Direction } from '../../../domain/types.js';
import { MEMORY_BY_REF } from './memories.js';
import { hop, statement } from './statement.js';

/** The EdgeRef key that names a memory on each side of its edges, and whether that side is outgoing. */
const SIDES: Record<Direction, readonly { key: 'fromId' | 'toId'; outgoing: boolean }[]> = {
  OUTGOING: [{ key: 'fromId', outgoing: true }],
  INCOMING: [{ key: 'toId', outgoing: false }],
  BOTH: [
    { key: 'fromId', outgoing: true },
    { key: 'toId', outgoing: false },
  ],
};

/**
 * One ordered index seek of a memory's EdgeRefs on one side (and of one type when `typed`),
 * stopped after `$limit`. `k.negWeight` is the edge weight negated, so that one ascending scan of
 * (negWeight, id) is the page order (weight desc, id asc): an index gives order in one direction only.
 * The ORDER BY names every indexed property, constant ones included, so the planner reads the
 * index in order instead of sorting. A self-loop is met from both sides under BOTH; the incoming
 * side leaves it to the outgoing one.
 */
function edgeRefSeek(direction: Direction, side: (typeof SIDES)['BOTH'][number], typed: boolean, seek: string) {
  const typeKey = typed ? ', type' : '';
  const selfLoop = direction === 'BOTH' && !side.outgoing ? ' AND k.fromId <> k.toId' : '';
  return `MATCH (k:EdgeRef {workspace: $ws, ${side.key}: anchorId${typed ? ', type: type' : ''}})
          USING INDEX k:EdgeRef(workspace, ${side.key}${typeKey}, negWeight, id)
          WHERE k.negWeight < $below AND k.negWeight <= $atMost AND ${seek}${selfLoop}
          RETURN k, ${side.outgoing} AS outgoing
          ORDER BY k.workspace ASC, k.${side.key} ASC${typed ? ', k.type ASC' : ''}, k.negWeight ASC, k.id ASC
          LIMIT $limit`;
}

/**
 * `m`'s edges in page order (weight desc, then edge id), strictly after `$afterRank` (a cursor's
 * weight, negated) and `$afterId` when `paged`, at most `$limit`, as `r`, `other` and `outgoing`
 * (rows in no particular order: the caller sorts). Two plans, chosen per memory by its degree,
 * which Neo4j keeps per node:
 * - up to `$expandUpTo` relationships, expand them all and keep the top `$limit` (about 2 db hits
 *   per relationship). Under BOTH the undirected pattern meets a self-loop from both ends, and
 *   DISTINCT keeps it once; under INCOMING a self-loop is incoming, as on SQLite;
 * - above it, read the order from the EdgeRefs. Relationship properties can be indexed per
 *   relationship type only, and the vocabulary is open, so the (side, [type,] negWeight, id)
 *   indexes of EdgeRef hold each memory's edges in page order: every seek stops after `$limit`, so a
 *   hub with 100,000 edges costs what a memory with a thousand does (about 30 db hits per edge
 *   returned: two seeks, then the edge found between its two endpoints). A cursor needs two seeks
 *   per side and type (the rest of its weight's ties by id, then the lower weights); the union's top
 *   `$limit` is the page. With types, each type is its own seek: an IN over types would merge
 *   several index ranges, which no longer come out in order.
 * Both plans give the same rows: the EdgeRef's negWeight is always minus its edge's weight.
 */
function edgesInOrder(direction: Direction, paged: boolean, typed: boolean): string {
  // An index hint needs a predicate on every indexed property: `k.id IS NOT NULL` is id's.
  const seeks = paged
    ? ['k.negWeight = $afterRank AND k.id > $afterId', 'k.negWeight > $afterRank AND k.id IS NOT NULL']
    : ['k.id IS NOT NULL'];
  const union = SIDES[direction]
    .flatMap((side) => seeks.map((seek) => edgeRefSeek(direction, side, typed, seek)))
    .join('\n            UNION ALL\n            ');
  const after = paged ? '\n          AND (-r.weight > $afterRank OR (-r.weight = $afterRank AND r.id > $afterId))' : '';
  return `WITH *, COUNT { ${hop(direction, 'm', '', '')} } AS degree
      CALL (m, anchorId, degree) {
        WITH m
        WHERE degree <= $expandUpTo
        MATCH ${hop(direction, 'm', 'r', 'other')}
        WHERE ${typed ? 'type(r) IN $types AND ' : ''}-r.weight < $below AND -r.weight <= $atMost${after}
        WITH ${direction === 'BOTH' ? 'DISTINCT r, other, startNode(r) = m' : `r, other, ${direction === 'OUTGOING'}`} AS outgoing
        ORDER BY r.weight DESC, r.id ASC
        LIMIT $limit
        RETURN r, other, outgoing
        UNION ALL
        WITH anchorId
        WHERE degree > $expandUpTo
        CALL (anchorId) {${typed ? '\n          UNWIND $types AS type' : ''}
          CALL (anchorId${typed ? ', type' : ''}) {
            ${union}
          }
          RETURN k, outgoing
          ORDER BY k.negWeight ASC, k.id ASC
          LIMIT $limit
        }
        MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
        WHERE r.id = k.id
        RETURN r, CASE WHEN outgoing THEN b ELSE a END AS other, outgoing
      }`;
}

const variant = (direction: Direction, paged: boolean, typed: boolean) =>
  `${direction}${paged ? '+after' : ''}${typed ? '+types' : ''}`;

/**
 * Each memory's edges, strongest first, then by edge id, at most `$limit` per memory, and after a
 * cursor when `paged` (getAdjacent, and getAdjacentPage's keyset pages).
 */
export function adjacentEdges(direction: Direction, paged: boolean, typed: boolean): string {
  return statement(
    `adjacentEdges:${variant(direction, paged, typed)}`,
    `
    UNWIND $ids AS anchorId
    MATCH (m:Memory {workspace: $ws, id: anchorId})
    ${edgesInOrder(direction, paged, typed)}
    RETURN anchorId, r AS edge, other AS neighbor, outgoing
    ORDER BY r.weight DESC, r.id ASC
    `,
  );
}

/**
 * getMemories and getAdjacent in one statement (`memory(id) { neighbors }`): the memory each
 * reference names, with its edges in adjacentEdges' order (the subquery's aggregate gives one row,
 * an empty list, for a memory without edges).
 */
export function getMemoriesWithAdjacent(direction: Direction, typed: boolean): string {
  return statement(
    `getMemoriesWithAdjacent:${variant(direction, false, typed)}`,
    `
    ${MEMORY_BY_REF}
    CALL (memory) {
      WITH memory AS m, memory.id AS anchorId
      ${edgesInOrder(direction, false, typed)}
      WITH r, other, outgoing
      ORDER BY r.weight DESC, r.id ASC
      RETURN collect({edge: r, neighbor: other, outgoing: outgoing}) AS adjacent
    }
    RETURN ref, memory, adjacent
    `,
  );
}

/** Each memory of `$ids` (as `anchor`) with each edge a query keeps: of `$types` when given, heavier than `$above`. */
const keptEdgesOf = (direction: Direction, anchor: string, other: string): string =>
  `UNWIND $ids AS ${anchor}
    MATCH ${hop(direction, `m:Memory {workspace: $ws, id: ${anchor}}`, 'r', other)}
    WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above`;

export function countAdjacent(direction: Direction): string {
  return statement(
    `countAdjacent:${direction}`,
    `
    ${keptEdgesOf(direction, 'anchorId', '')}
    RETURN anchorId, count(r) AS degree
    `,
  );
}

/** One BFS level: every unpruned edge leaving the frontier; `$take` is the budget plus one, to detect truncation. */
export function expandFrontier(direction: Direction): string {
  return statement(
    `expandFrontier:${direction}`,
    `
    ${keptEdgesOf(direction, 'fromId', 'other')}
    RETURN fromId, other.id AS toId, r.id AS edgeId, r.weight AS weight
    LIMIT $take
    `,
  );
}

/**
 * expandFrontier with FrontierQuery.maxTotalWeight: at most `$take` edges are read, as by the
 * plain statement; then each memory's read edges are weighed together, and those of a memory whose
 * edges outweigh its entry of `$caps` (a map by id) are not sent. One row per memory, with how many
 * of its edges were read (each counts against the budget) and the kept edges as three parallel
 * lists: a recall's hop carries hundreds of edges, and a map per edge (its keys sent and decoded
 * with every edge) cost the gateway more to unpack than the lists do (docs/neo4j.md).
 */
export function expandFrontierCapped(direction: Direction): string {
  return statement(
    `expandFrontierCapped:${direction}`,
    `
    ${keptEdgesOf(direction, 'fromId', 'other')}
    WITH fromId, other, r LIMIT $take
    WITH fromId, collect(other.id) AS toIds, collect(r.id) AS edgeIds, collect(r.weight) AS weights,
      sum(r.weight) AS total
    WITH fromId, toIds, edgeIds, weights, $caps[fromId] IS NULL OR total <= $caps[fromId] AS kept
    RETURN fromId, size(toIds) AS read,
      CASE WHEN kept THEN toIds ELSE [] END AS toIds,
      CASE WHEN kept THEN edgeIds ELSE [] END AS edgeIds,
      CASE WHEN kept THEN weights ELSE [] END AS weights
    `,
  );
}
