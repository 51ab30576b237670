import type { AdjacentEdge, Direction, FrontierStep } from '../../domain/types.js';
import { capInKeyOrder, groupInKeyOrder, inKeyOrder, strongestFirst } from '../key-order.js';
import type {
  AdjacencyPageQuery,
  AdjacencyQuery,
  DegreeQuery,
  FrontierExpansion,
  FrontierQuery,
  GraphStore,
} from '../port.js';
import { frontierExpansion } from '../shared/frontier-expansion.js';
import {
  adjacentFromRow,
  EDGE_COLUMNS,
  type EdgeRow,
  MEMORY_COLUMNS,
  type MemoryRow,
  toEdge,
  toMemory,
} from './records.js';
import { asJson, prefixed, UNLIMITED, unprefix } from './sql-text.js';
import type { StoreContext } from './store-context.js';

/** Statement text for one side of an adjacency, chosen from fixed fragments only. */
function adjacencySide(side: 'OUTGOING' | 'INCOMING', typed: boolean): string {
  const [anchor, other] = side === 'OUTGOING' ? ['from_id', 'to_id'] : ['to_id', 'from_id'];
  return `SELECT e.rid AS erid, e.${anchor} AS anchor, e.${other} AS other, '${side}' AS direction
    FROM edges e
    WHERE e.workspace = @ws AND e.${anchor} IN (SELECT value FROM json_each(@ids))
      ${typed ? 'AND e.type IN (SELECT value FROM json_each(@types))' : ''}
      AND e.weight > @above AND e.weight >= @atLeast`;
}

/** One index entry of a memory's edge, before its record is read. */
interface IndexEntry {
  id: string;
  other: string;
  weight: number;
  direction: 'OUTGOING' | 'INCOMING';
}

function sides(direction: Direction): ('OUTGOING' | 'INCOMING')[] {
  return direction === 'BOTH' ? ['OUTGOING', 'INCOMING'] : [direction];
}

/**
 * One-hop reads: getAdjacent, countAdjacent and expandFrontier from the adjacency index when it
 * holds the workspace, by SQL otherwise.
 */
export function createAdjacencyReads(
  ctx: StoreContext,
): Pick<GraphStore, 'getAdjacent' | 'getAdjacentPage' | 'countAdjacent' | 'expandFrontier'> {
  const { db, sql, index } = ctx;
  /**
   * Reads adjacency entries by edge id and other-end memory id, for `[position, edgeId, otherId]`
   * items, into `found` at each item's position (left null when the edge or memory is gone). One
   * statement; CROSS JOIN keeps the list outermost.
   */
  const readAdjacentById = (
    ws: string,
    items: readonly (readonly [number, string, string])[],
    found: (AdjacentEdge | null)[],
  ): void => {
    if (items.length === 0) return;
    const rows = sql(
      `SELECT j.value ->> '$[0]', ${prefixed('e', EDGE_COLUMNS)}, ${prefixed('m', MEMORY_COLUMNS)}
       FROM json_each(@items) j
       CROSS JOIN edges e ON e.workspace = @ws AND e.id = j.value ->> '$[1]'
       CROSS JOIN memories m ON m.workspace = @ws AND m.id = j.value ->> '$[2]'`,
    )
      .raw()
      .all({ ws, items: JSON.stringify(items) }) as unknown[][];
    for (const [at, ...record] of rows) found[at as number] = adjacentFromRow(record);
  };

  /**
   * getAdjacent with the index choosing the edges (it holds every list sorted strongest first, so
   * a hub's top 20 cost 20, not its degree) and one statement reading their records and the
   * memories at their other ends by rowid, which skips a descent of the (workspace, id) index per
   * row. Each row's id is checked: a memory's rowid in the index can be stale (deleted and created
   * again), and whatever the rowids miss is read by id. All of it happens in one read
   * transaction, so it sees one snapshot. CROSS JOIN keeps the list outermost: SQLite would
   * otherwise scan the workspace's edges.
   */
  const adjacentFromIndex = (
    ws: string,
    memoryIds: readonly string[],
    query: AdjacencyQuery,
  ): AdjacentEdge[][] | null =>
    db.transaction((): AdjacentEdge[][] | null => {
      const all = index?.selectAdjacent(ws, memoryIds, query);
      if (!all) return null;
      const selected = capInKeyOrder(all, query.maxRows);
      const picks = selected.flat();
      const found: (AdjacentEdge | null)[] = new Array(picks.length).fill(null);
      if (picks.length > 0) {
        const items = picks.map((pick) => [pick.edgeRid, pick.edgeId, pick.otherRid, pick.otherId]);
        const rows = sql(
          `SELECT j.key, ${prefixed('e', EDGE_COLUMNS)}, ${prefixed('m', MEMORY_COLUMNS)}
           FROM json_each(@items) j
           CROSS JOIN edges e ON e.rid = j.value ->> '$[0]'
           CROSS JOIN memories m ON m.rid = j.value ->> '$[2]'
           WHERE e.workspace = @ws AND e.id = j.value ->> '$[1]' AND m.workspace = @ws AND m.id = j.value ->> '$[3]'`,
        )
          .raw()
          .all({ ws, items: JSON.stringify(items) }) as unknown[][];
        for (const [at, ...record] of rows) found[at as number] = adjacentFromRow(record);
      }
      readAdjacentById(
        ws,
        picks.flatMap((pick, at) => (found[at] === null ? [[at, pick.edgeId, pick.otherId] as const] : [])),
        found,
      );
      let at = 0;
      return selected.map((list) =>
        list.flatMap((pick) => {
          const entry = found[at++];
          return entry ? [{ ...entry, direction: pick.direction }] : [];
        }),
      );
    })();

  /** getAdjacent by SQL, for workspaces the index does not hold (too large, or still building). */
  const adjacentBySql = (ws: string, memoryIds: readonly string[], query: AdjacencyQuery): AdjacentEdge[][] => {
    const typed = query.types !== null;
    const union = sides(query.direction)
      .map((side) => adjacencySide(side, typed))
      .join(' UNION ALL ');
    const ranked = `SELECT a.*, ROW_NUMBER() OVER (PARTITION BY a.anchor ORDER BY e.weight DESC, e.id ASC) AS rank
      FROM (${union}) a JOIN edges e ON e.rid = a.erid`;
    const rows = sql(
      `SELECT r.anchor, r.direction, r.rank,
              ${prefixed('e', EDGE_COLUMNS, 'e_')},
              ${prefixed('m', MEMORY_COLUMNS, 'm_')}
       FROM (${ranked}) r
       JOIN edges e ON e.rid = r.erid
       JOIN memories m ON m.workspace = @ws AND m.id = r.other
       WHERE r.rank <= @limit
       ORDER BY r.anchor, r.rank`,
    ).all({
      ws,
      ids: asJson(memoryIds),
      types: typed ? asJson(query.types ?? []) : undefined,
      above: query.includePruned ? -1 : query.pruneThreshold,
      atLeast: query.minWeight ?? -1,
      limit: query.limitPerMemory ?? UNLIMITED,
    }) as Record<string, unknown>[];
    return groupInKeyOrder(
      memoryIds,
      rows,
      (row) => row.anchor as string,
      (row): AdjacentEdge => ({
        direction: row.direction as 'OUTGOING' | 'INCOMING',
        edge: toEdge(unprefix<EdgeRow>(row, 'e_')),
        neighbor: toMemory(unprefix<MemoryRow>(row, 'm_')),
      }),
    );
  };

  /** The strongest `limit` of a memory's index entries, with their edge records read by id. */
  const strongestOf = (ws: string, picks: IndexEntry[], limit: number): AdjacentEdge[] => {
    picks.sort(strongestFirst);
    if (picks.length > limit) picks.length = limit;
    const found: (AdjacentEdge | null)[] = new Array(picks.length).fill(null);
    readAdjacentById(
      ws,
      picks.map((pick, at) => [at, pick.id, pick.other] as const),
      found,
    );
    return found.flatMap((entry, at) => (entry ? [{ ...entry, direction: (picks[at] as IndexEntry).direction }] : []));
  };

  /** The relation types of one memory's edges on one side: a skip-scan of the index, one seek per type. */
  const typesAt = (ws: string, end: 'from_id' | 'to_id', id: string): string[] =>
    sql(
      `WITH RECURSIVE t(type) AS (
         SELECT (SELECT min(type) FROM edges WHERE workspace = @ws AND ${end} = @id)
         UNION ALL
         SELECT (SELECT min(type) FROM edges WHERE workspace = @ws AND ${end} = @id AND type > t.type) FROM t WHERE t.type IS NOT NULL
       ) SELECT type FROM t WHERE type IS NOT NULL`,
    )
      .pluck()
      .all({ ws, id }) as string[];

  /**
   * The strongest `limit` edges of one memory by SQL, reading about `limit` index entries per
   * relation type and side instead of every edge of the memory: per type, the covering (workspace,
   * end, type, weight, other end, id) index is read backwards from the heaviest weight (SQLite
   * sorts only the ties by id) and stops at the limit; the memory's types come from a skip-scan of
   * the same index, one seek per type. Then the records of the edges kept are read by id, all in
   * one read transaction.
   */
  const topAdjacentBySql = (ws: string, id: string, query: AdjacencyQuery, limit: number): AdjacentEdge[] =>
    db.transaction((): AdjacentEdge[] => {
      const picks: IndexEntry[] = [];
      for (const side of sides(query.direction)) {
        const [end, otherEnd] = side === 'OUTGOING' ? (['from_id', 'to_id'] as const) : (['to_id', 'from_id'] as const);
        const types = query.types ?? typesAt(ws, end, id);
        const strongest = sql(
          `SELECT id, ${otherEnd} AS other, weight FROM edges WHERE workspace = @ws AND ${end} = @id AND type = @type AND weight > @above AND weight >= @atLeast
           ORDER BY weight DESC, id ASC LIMIT @limit`,
        );
        const above = query.includePruned ? -1 : query.pruneThreshold;
        for (const type of types) {
          const rows = strongest.all({ ws, id, type, above, atLeast: query.minWeight ?? -1, limit }) as {
            id: string;
            other: string;
            weight: number;
          }[];
          for (const row of rows) picks.push({ ...row, direction: side });
        }
      }
      return strongestOf(ws, picks, limit);
    })();

  /**
   * One memory's page (getAdjacentPage) by SQL, whether or not the adjacency index holds the
   * workspace: per side and relation type, the ranked index (schema.ts) is sought twice, for the
   * rest of the weight the previous page ended in (ids after its last) and for the lighter
   * weights, each read stopping at `limit`; the entries are merged strongest first and the kept
   * ones' records read by id, in one read transaction. So a page costs about `limit` entries per
   * type and side, however many edges the memory has. With BOTH a self-loop is read from its
   * outgoing side only.
   */
  const adjacentPage = (ws: string, id: string, query: AdjacencyPageQuery): AdjacentEdge[] =>
    db.transaction((): AdjacentEdge[] => {
      const picks: IndexEntry[] = [];
      const position = {
        weight: query.after?.weight ?? Number.POSITIVE_INFINITY,
        afterId: query.after?.edgeId ?? '',
      };
      const bounds = { above: query.includePruned ? -1 : query.pruneThreshold, atLeast: query.minWeight ?? -1 };
      for (const side of sides(query.direction)) {
        const [end, otherEnd, index] =
          side === 'OUTGOING'
            ? (['from_id', 'to_id', 'edges_out_ranked'] as const)
            : (['to_id', 'from_id', 'edges_in_ranked'] as const);
        const loops = query.direction === 'BOTH' && side === 'INCOMING' ? 'AND from_id <> to_id' : '';
        const read = (where: string) =>
          sql(
            `SELECT id, ${otherEnd} AS other, weight FROM edges INDEXED BY ${index}
             WHERE workspace = @ws AND ${end} = @id AND type = @type AND ${where}
               AND weight > @above AND weight >= @atLeast ${loops}
             ORDER BY weight DESC, id ASC LIMIT @limit`,
          );
        const ties = read('weight = @weight AND id > @afterId');
        const lighter = read('weight < @weight');
        for (const type of query.types ?? typesAt(ws, end, id)) {
          const parameters = { ws, id, type, ...bounds, ...position, limit: query.limit };
          const rows = (query.after ? ties.all(parameters) : []) as { id: string; other: string; weight: number }[];
          if (rows.length < query.limit)
            rows.push(...(lighter.all({ ...parameters, limit: query.limit - rows.length }) as typeof rows));
          for (const row of rows) picks.push({ ...row, direction: side });
        }
      }
      return strongestOf(ws, picks, query.limit);
    })();

  return {
    async getAdjacent(ws, memoryIds, query: AdjacencyQuery) {
      if (memoryIds.length === 0) return [];
      const fromIndex = index ? adjacentFromIndex(ws, memoryIds, query) : null;
      if (fromIndex) return fromIndex;
      if (query.maxRows != null || (query.limitPerMemory !== null && memoryIds.length === 1)) {
        // Key order decides who is cut, so memories are read one at a time, each only up to what
        // is left, and each read costs its limit, not the memory's degree. (Many memories with a
        // limit but no cap stay one windowed statement: for ordinary degrees it is faster than a
        // bounded read per memory, 26 vs 46 ms for 100 memories of the 10k/50k graph, same process.)
        let left = query.maxRows ?? UNLIMITED;
        return memoryIds.map((id) => {
          if (left <= 0) return [];
          const list = topAdjacentBySql(ws, id, query, Math.min(query.limitPerMemory ?? UNLIMITED, left));
          left -= list.length;
          return list;
        });
      }
      return adjacentBySql(ws, memoryIds, query);
    },

    async getAdjacentPage(ws, memoryIds, query: AdjacencyPageQuery) {
      return memoryIds.map((id) => adjacentPage(ws, id, query));
    },

    async countAdjacent(ws, memoryIds, query: DegreeQuery) {
      if (memoryIds.length === 0) return [];
      const fromIndex = index?.countAdjacent(ws, memoryIds, query);
      if (fromIndex) return fromIndex;
      const union = sides(query.direction)
        .map((side) => adjacencySide(side, query.types !== null))
        .join(' UNION ALL ');
      const rows = sql(`SELECT anchor, COUNT(*) AS n FROM (${union}) GROUP BY anchor`).all({
        ws,
        ids: asJson(memoryIds),
        types: query.types ? asJson(query.types) : undefined,
        above: query.includePruned ? -1 : query.pruneThreshold,
        atLeast: -1,
      }) as { anchor: string; n: number }[];
      return inKeyOrder(memoryIds, new Map(rows.map((row) => [row.anchor, row.n])), 0);
    },

    async expandFrontier(ws, memoryIds, query: FrontierQuery): Promise<FrontierExpansion> {
      if (memoryIds.length === 0) return { steps: [], truncated: false };
      const fromIndex = index?.expandFrontier(ws, memoryIds, query);
      if (fromIndex) return fromIndex;
      const typed = query.types !== null;
      const union = sides(query.direction)
        .map((side) => {
          const [anchor, other] = side === 'OUTGOING' ? ['from_id', 'to_id'] : ['to_id', 'from_id'];
          return `SELECT ${anchor} AS "from", ${other} AS "to", id AS edgeId, weight FROM edges
              WHERE workspace = @ws AND ${anchor} IN (SELECT value FROM json_each(@ids))
              ${typed ? 'AND type IN (SELECT value FROM json_each(@types))' : ''}
              AND weight > @above`;
        })
        .join(' UNION ALL ');
      const parameters = {
        ws,
        ids: asJson(memoryIds),
        types: typed ? asJson(query.types ?? []) : undefined,
        above: query.pruneThreshold,
        take: query.budget + 1,
      };
      if (query.maxTotalWeight != null && query.maxTotalWeight.size > 0) {
        // At most budget + 1 edges are read, in read order (n); each memory's read edges are then
        // weighed together and kept or not (maxTotalWeight). Every edge read counts.
        const read = sql(
          `WITH caps(id, cap) AS MATERIALIZED (SELECT key, value FROM json_each(@caps)),
                read AS MATERIALIZED (SELECT e.*, row_number() OVER () AS n FROM (${union} LIMIT @take) e)
           SELECT r."from", r."to", r.edgeId, r.weight, r.n, (caps.cap IS NULL OR r.total <= caps.cap) AS kept
           FROM (SELECT read.*, sum(read.weight) OVER (PARTITION BY read."from") AS total FROM read) r
           LEFT JOIN caps ON caps.id = r."from"
           ORDER BY r.n`,
        ).all({ ...parameters, caps: JSON.stringify(Object.fromEntries(query.maxTotalWeight)) }) as (FrontierStep & {
          n: number;
          kept: number;
        })[];
        const truncated = read.length > query.budget;
        const steps = read
          .filter((row) => row.kept === 1 && row.n <= query.budget)
          .map(({ from, to, edgeId, weight }) => ({ from, to, edgeId, weight }));
        return frontierExpansion(steps, truncated, read.length);
      }
      const steps = sql(`${union} LIMIT @take`).all(parameters) as FrontierExpansion['steps'];
      const truncated = steps.length > query.budget;
      if (truncated) steps.length = query.budget;
      return { steps, truncated };
    },
  };
}
