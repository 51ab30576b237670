import type { Direction } from '../../../domain/types.js';
import { MEMORY_BY_REF } from './memories.js';
import { hop, statement } from './statement.js';

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

/**
 * getMemories and getAdjacent in one statement (`memory(id) { neighbors }`): the memory each
 * reference names, with its edges strongest first, at most `$limit` (the subquery's aggregate
 * gives one row, an empty list, for a memory without edges).
 */
export function getMemoriesWithAdjacent(direction: Direction): string {
  return statement(
    `getMemoriesWithAdjacent:${direction}`,
    `
    ${MEMORY_BY_REF}
    CALL (memory) {
      MATCH ${hop(direction, 'memory', 'r', 'other')}
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast
      WITH r, other, startNode(r) = memory AS outgoing
      ORDER BY r.weight DESC, r.id ASC
      LIMIT $limit
      RETURN collect({edge: r, neighbor: other, outgoing: outgoing}) AS adjacent
    }
    RETURN ref, memory, adjacent
    `,
  );
}

/**
 * A keyset page of each memory's edges (getAdjacentPage): strongest first, then edge id, strictly
 * after `$afterWeight`/`$afterId` when `paged`, at most `$limit` per memory. Relationship
 * properties can be indexed per relationship type only, and the vocabulary is open, so the page
 * expands the memory's relationships and keeps the top `$limit` (a Top, no full sort): its work
 * grows with the degree (docs/neo4j.md has the numbers). With BOTH an undirected pattern may meet a
 * self-loop from both ends; DISTINCT keeps it once. A self-loop met by INCOMING is INCOMING, as on SQLite.
 */
export function getAdjacentPage(direction: Direction, paged: boolean): string {
  return statement(
    `getAdjacentPage:${direction}${paged ? '+after' : ''}`,
    `
    UNWIND $ids AS anchorId
    CALL (anchorId) {
      MATCH ${hop(direction, 'm:Memory {workspace: $ws, id: anchorId}', 'r', 'other')}
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast${paged ? '\n        AND (r.weight < $afterWeight OR (r.weight = $afterWeight AND r.id > $afterId))' : ''}
      WITH ${direction === 'BOTH' ? 'DISTINCT r, other, startNode(r) = m' : `r, other, ${direction === 'OUTGOING'}`} AS outgoing
      ORDER BY r.weight DESC, r.id ASC
      LIMIT $limit
      RETURN r, other, outgoing
    }
    RETURN anchorId, r AS edge, other AS neighbor, outgoing
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
