import { relationshipType, statement } from './statement.js';

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

/**
 * Per target: distinct sources, and the sum of each source's strongest qualifying edge (index seek
 * as in listEdgesByType). The sum is rounded as weights are, so an unchanged target sorts, and
 * matches a cursor, the same way whatever order the aggregation added its sources up in. Paged
 * after the cursor's (sources, weight, id): the aggregation still reads every qualifying edge.
 */
export function rankTargetsBySources(types: readonly string[], paged = false): string {
  return statement(
    'rankTargetsBySources',
    `
    MATCH (origin:Memory {workspace: $ws})-[r:${types.map(relationshipType).join('|')}]->(target:Memory)
    USING INDEX SEEK origin:Memory(workspace, id)
    WHERE origin.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
    WITH target, origin, max(r.weight) AS strongest
    WITH target.id AS memoryId, count(origin) AS sources, round(sum(strongest), 12) AS weight
    WHERE sources >= $minSources${paged ? '\n      AND (sources < $afterSources OR (sources = $afterSources AND (weight < $afterWeight OR (weight = $afterWeight AND memoryId > $afterId))))' : ''}
    RETURN memoryId, sources, weight
    ORDER BY sources DESC, weight DESC, memoryId ASC
    LIMIT $limit
    `,
  );
}
