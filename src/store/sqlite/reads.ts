import { compareIds, inKeyOrder, uniqueKeys } from '../key-order.js';
import type { GraphStore, SourceRank, SourceRankQuery, TypedEdgeQuery } from '../port.js';
import { EDGE_COLUMNS, type EdgeRow, MEMORY_COLUMNS, type MemoryRow, toEdge, toMemory } from './records.js';
import { asJson, IDS, prefixed } from './sql-text.js';
import type { StoreContext } from './store-context.js';

/** Reads of memories and edges by id, key, pair, type and page. */
export function createRecordReads(
  ctx: StoreContext,
): Pick<
  GraphStore,
  | 'getMemories'
  | 'getEdges'
  | 'findEdge'
  | 'edgesAmong'
  | 'edgesBetween'
  | 'listEdgesByType'
  | 'rankTargetsBySources'
  | 'listMemories'
  | 'listEdges'
> {
  const { sql, edgeByTriple } = ctx;
  /** One page of a table in id order, after `afterId` (export reads a workspace this way). */
  const pageById = <Row>(
    table: 'memories' | 'edges',
    columns: string,
    ws: string,
    page: { afterId: string | null; limit: number },
  ): Row[] =>
    sql(`SELECT ${columns} FROM ${table} WHERE workspace = ? AND id > ? ORDER BY id LIMIT ?`).all(
      ws,
      page.afterId ?? '',
      page.limit,
    ) as Row[];
  return {
    async getMemories(ws, refs) {
      if (refs.length === 0) return [];
      // Ids first, keys only for the refs no id matched: callers almost always pass ids, so the
      // key lookup usually never runs. (One `id IN (..) OR key IN (..)` made SQLite scan every
      // memory of the workspace.) An id match wins over another memory's key, as before.
      const byRef = new Map<string, MemoryRow>();
      const byId = sql(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = ? AND id IN (${IDS})`);
      for (const row of byId.all(ws, asJson(refs)) as MemoryRow[]) byRef.set(row.id, row);
      const left = uniqueKeys(refs).filter((ref) => !byRef.has(ref));
      if (left.length > 0) {
        const byKey = sql(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = ? AND key IN (${IDS})`);
        for (const row of byKey.all(ws, asJson(left)) as MemoryRow[]) byRef.set(row.key as string, row);
      }
      return inKeyOrder(refs, byRef, null).map((row) => row && toMemory(row));
    },

    async getEdges(ws, ids) {
      if (ids.length === 0) return [];
      // Both ends must be memories of the workspace: a row pointing elsewhere (only possible by
      // writing the file directly) is never answered.
      const rows = sql(
        `SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id IN (${IDS})
             AND EXISTS (SELECT 1 FROM memories m WHERE m.workspace = edges.workspace AND m.id = edges.from_id)
             AND EXISTS (SELECT 1 FROM memories m WHERE m.workspace = edges.workspace AND m.id = edges.to_id)`,
      ).all(ws, asJson(ids)) as EdgeRow[];
      return inKeyOrder(ids, new Map(rows.map((row) => [row.id, toEdge(row)])), null);
    },
    async findEdge(ws, fromId, toId, type) {
      const row = edgeByTriple(ws, fromId, toId, type);
      return row ? toEdge(row) : null;
    },

    async edgesAmong(ws, memoryIds, query) {
      if (memoryIds.length < 2) return [];
      // One seek of the UNIQUE (workspace, from_id, to_id, type) index per ordered pair, whatever
      // the degrees: CROSS JOIN keeps the pairs outermost, and INDEXED BY names that index
      // (sqlite_autoindex_edges_2, the table's second UNIQUE constraint), because left to itself
      // SQLite picks the covering edges_in and scans every incoming edge of a hub (68 ms vs 0.4 ms
      // at 25k). Ordering by id in SQL would make it walk the workspace's id index instead.
      const rows = sql(
        `SELECT ${prefixed('e', EDGE_COLUMNS)} FROM json_each(@ids) a CROSS JOIN json_each(@ids) b
           CROSS JOIN edges e INDEXED BY sqlite_autoindex_edges_2 ON e.workspace = @ws AND e.from_id = a.value AND e.to_id = b.value
           WHERE e.weight > @above
           LIMIT @limit`,
      ).all({
        ws,
        ids: asJson(uniqueKeys(memoryIds)),
        above: query.pruneThreshold,
        limit: query.limit,
      }) as EdgeRow[];
      rows.sort((x, y) => compareIds(x.id, y.id));
      return rows.map(toEdge);
    },

    async edgesBetween(ws, a, b, types) {
      // One index lookup per direction (an OR of the two would scan the workspace's edges).
      const typed = types ? 'AND type IN (SELECT value FROM json_each(@types))' : '';
      const rows = sql(
        `SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = @ws AND from_id = @a AND to_id = @b ${typed}
           UNION ALL
           SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = @ws AND from_id = @b AND to_id = @a ${typed}
           ORDER BY weight DESC, id ASC`,
      ).all({ ws, a, b, types: types ? asJson(types) : undefined }) as EdgeRow[];
      return rows.map(toEdge);
    },

    async listEdgesByType(ws, query: TypedEdgeQuery) {
      if (query.types.length === 0) return [];
      const rows = sql(
        `SELECT ${EDGE_COLUMNS} FROM edges
           WHERE workspace = @ws AND type IN (SELECT value FROM json_each(@types))
             AND weight > @above AND weight >= @atLeast
             ${query.after ? 'AND (weight < @afterWeight OR (weight = @afterWeight AND id > @afterId))' : ''}
           ORDER BY weight DESC, id ASC LIMIT @limit`,
      ).all({
        ws,
        types: asJson(query.types),
        above: query.pruneThreshold,
        atLeast: query.minWeight ?? -1,
        afterWeight: query.after?.weight,
        afterId: query.after?.id,
        limit: query.limit,
      }) as EdgeRow[];
      return rows.map(toEdge);
    },

    async rankTargetsBySources(ws, query: SourceRankQuery) {
      if (query.types.length === 0) return [];
      return sql(
        // The sum is rounded as weights are (domain/weights.ts), so an unchanged target sorts, and
        // matches a cursor, the same way whatever order its sources were added up in.
        `SELECT to_id AS memoryId, COUNT(*) AS sources, ROUND(SUM(strongest), 12) AS weight FROM (
               SELECT to_id, from_id, MAX(weight) AS strongest FROM edges
               WHERE workspace = @ws AND type IN (SELECT value FROM json_each(@types))
                 AND weight > @above AND weight >= @atLeast
               GROUP BY to_id, from_id
             )
             GROUP BY to_id HAVING COUNT(*) >= @minSources
               ${query.after ? 'AND (sources < @afterSources OR (sources = @afterSources AND (weight < @afterWeight OR (weight = @afterWeight AND memoryId > @afterId))))' : ''}
             ORDER BY sources DESC, weight DESC, memoryId ASC LIMIT @limit`,
      ).all({
        ws,
        types: asJson(query.types),
        above: query.pruneThreshold,
        atLeast: query.minWeight ?? -1,
        minSources: query.minSources,
        afterSources: query.after?.sources,
        afterWeight: query.after?.weight,
        afterId: query.after?.memoryId,
        limit: query.limit,
      }) as SourceRank[];
    },
    async listMemories(ws, page) {
      return pageById<MemoryRow>('memories', MEMORY_COLUMNS, ws, page).map(toMemory);
    },

    async listEdges(ws, page) {
      return pageById<EdgeRow>('edges', EDGE_COLUMNS, ws, page).map(toEdge);
    },
  };
}
