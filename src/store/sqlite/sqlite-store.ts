import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { EngramError, conflict, notFound, unavailable } from '../../domain/errors.js';
import type {
  AdjacentEdge,
  Direction,
  EdgeRecord,
  Json,
  MemoryPatch,
  MemoryRecord,
  NewMemory,
  WeightEventRecord,
} from '../../domain/types.js';
import { relinkWeightChange, roundWeight, type WeightChangeRequest } from '../../domain/weights.js';
import { checkMergedMetadata, mergeMetadata } from '../../domain/metadata.js';
import type {
  AdjacencyQuery,
  AppliedWeightChange,
  DegreeQuery,
  EdgeSelector,
  FrontierExpansion,
  FrontierQuery,
  GraphStore,
  ImportBatch,
  LinkRequest,
  SearchQuery,
  SourceRank,
  SourceRankQuery,
  TypedEdgeQuery,
  WeightEventFilter,
} from '../port.js';
import { capInKeyOrder, compareIds } from '../key-order.js';
import { MIGRATIONS } from './migrations.js';
import { createAdjacencyIndex } from './adjacency-index/index.js';
import {
  type AdjacencyIndex,
  type AdjacencyIndexOptions,
  DEFAULT_ADJACENCY_INDEX_OPTIONS,
  LOG_KEEP,
} from './adjacency-index/types.js';
import { toFtsQuery } from './fts-query.js';
import {
  EDGE_COLUMNS,
  MEMORY_COLUMNS,
  toEdge,
  toMemory,
  toWeightEvent,
  type EdgeRow,
  type MemoryRow,
  type WeightEventRow,
} from './rows.js';

export interface SqliteStoreOptions {
  /** Database file; its folder is created when missing. `:memory:` works for throwaway stores. */
  path: string;
  /** How long a writer waits for another process's write lock before failing with UNAVAILABLE. */
  busyTimeoutMs?: number;
  /**
   * The in-process adjacency index that serves walks from memory (adjacency-index.ts): on by
   * default; `false` walks with SQL only (benchmarks compare the two).
   */
  adjacencyIndex?: false | Partial<AdjacencyIndexOptions>;
  /** SQLite page cache of this connection, in MiB (default 64; SQLite's own default is 2). */
  cacheSizeMb?: number;
}

/** The SQLite store, with handles on its adjacency index beyond the port. */
export interface SqliteStore extends GraphStore {
  /**
   * Builds the workspace's adjacency index now (or waits for its background build), so the first
   * walk does not pay for it; the server can call this before it listens. False when the index is
   * off or the workspace too large for it.
   */
  warmAdjacencyIndex(workspace: string): Promise<boolean>;
  /** Size and build statistics of a workspace's index, or null when it has none. */
  adjacencyIndexStats(workspace: string): ReturnType<AdjacencyIndex['stats']>;
  /** How many workspace indexes are held and their estimated bytes, against the cap (zeros when the index is off). */
  adjacencyIndexTotals(): ReturnType<AdjacencyIndex['totals']>;
}

/** Edges in one importBatch above which it logs the workspace as changed wholesale. */
const BULK_EDGES = 2_000;

/** Own writes between two prunings of the edge change log. */
const PRUNE_EVERY = 1000;

/** SQLite has no LIMIT ALL inside a WHERE; the largest 32-bit count stands in for it. */
const UNLIMITED = 2_147_483_647;

/**
 * Edges of a deleted memory removed per transaction: a hub's edges go in chunks (250 deletions,
 * their change-log rows and index updates: about 5-20 ms), with other requests served between
 * them, instead of one cascade that holds the event loop and the write lock for seconds.
 */
const DELETE_CHUNK = 250;

const asJson = (values: readonly string[]): string => JSON.stringify(values);

/**
 * Lists are bound as one JSON parameter and unpacked with json_each, so a batch of any size uses
 * the same prepared statement.
 */
const IDS = `SELECT value FROM json_each(?)`;

/** Statement text for one side of an adjacency, chosen from fixed fragments only. */
function adjacencySide(side: 'OUTGOING' | 'INCOMING', typed: boolean): string {
  const [anchor, other] = side === 'OUTGOING' ? ['from_id', 'to_id'] : ['to_id', 'from_id'];
  return `SELECT e.rid AS erid, e.${anchor} AS anchor, e.${other} AS other, '${side}' AS direction
    FROM edges e
    WHERE e.workspace = @ws AND e.${anchor} IN (SELECT value FROM json_each(@ids))
      ${typed ? 'AND e.type IN (SELECT value FROM json_each(@types))' : ''}
      AND e.weight > @above AND e.weight >= @atLeast`;
}

function sides(direction: Direction): ('OUTGOING' | 'INCOMING')[] {
  return direction === 'BOTH' ? ['OUTGOING', 'INCOMING'] : [direction];
}

/** One raw row of edge columns then memory columns (EDGE_COLUMNS, MEMORY_COLUMNS) as an adjacency entry. */
function adjacentFromRow(row: unknown[]): AdjacentEdge {
  const [id, fromId, toId, type, weight, metadata, createdAt, updatedAt, lastConfirmedAt, ...memory] = row;
  return {
    direction: 'OUTGOING',
    edge: toEdge({
      id: id as string,
      from_id: fromId as string,
      to_id: toId as string,
      type: type as string,
      weight: weight as number,
      metadata: metadata as string | null,
      created_at: createdAt as string,
      updated_at: updatedAt as string,
      last_confirmed_at: lastConfirmedAt as string | null,
    }),
    neighbor: toMemory({
      id: memory[0] as string,
      key: memory[1] as string | null,
      title: memory[2] as string,
      content: memory[3] as string | null,
      kind: memory[4] as string | null,
      tags: memory[5] as string,
      weight: memory[6] as number,
      metadata: memory[7] as string | null,
      created_at: memory[8] as string,
      updated_at: memory[9] as string,
    }),
  };
}

export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = ${-Math.trunc((options.cacheSizeMb ?? 64) * 1024)}`);
  migrate(db);
  const index =
    options.adjacencyIndex === false
      ? null
      : createAdjacencyIndex(db, { ...DEFAULT_ADJACENCY_INDEX_OPTIONS, ...options.adjacencyIndex });
  let writesSincePrune = 0;
  /** Keeps the newest LOG_KEEP rows of the edge change log; an index further behind rebuilds. */
  const pruneLog = () => {
    writesSincePrune = 0;
    sql('DELETE FROM edge_changes WHERE seq <= (SELECT max(seq) FROM edge_changes) - ?').run(LOG_KEEP);
  };
  /**
   * Every write method runs through here: the index learns that this connection wrote (PRAGMA
   * data_version only reports OTHER connections' commits) and catches up before its next read.
   */
  const written = <T>(work: () => T): T => {
    try {
      return work();
    } finally {
      index?.noteWrite();
      if (++writesSincePrune >= PRUNE_EVERY) {
        try {
          pruneLog();
        } catch {
          // Busy or read-only: the next write tries again; a long log only costs readers a rebuild.
        }
      }
    }
  };

  const cache = new Map<string, Database.Statement>();
  /** Prepares each distinct statement text once and reuses it for the life of the store. */
  const sql = (text: string): Database.Statement => {
    let statement = cache.get(text);
    if (!statement) {
      statement = db.prepare(text);
      cache.set(text, statement);
    }
    return statement;
  };
  let closed = false;

  const memoryById = (ws: string, id: string) =>
    sql(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = ? AND id = ?`).get(ws, id) as MemoryRow | undefined;
  const edgeById = (ws: string, id: string) =>
    sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id = ?`).get(ws, id) as EdgeRow | undefined;
  const edgeByTriple = (ws: string, fromId: string, toId: string, type: string) =>
    sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?`).get(
      ws,
      fromId,
      toId,
      type,
    ) as EdgeRow | undefined;

  const insertEvent = (ws: string, event: WeightEventRecord) =>
    sql(
      `INSERT INTO weight_events (workspace, id, at, source, edge_id, memory_id, old, new, delta, reason, reverted_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    ).run(
      ws,
      event.id,
      event.at,
      event.source,
      event.edgeId,
      event.memoryId,
      event.old,
      event.new,
      event.delta,
      event.reason,
    );

  /** One atomic clamped read-modify-write; prev_weight captures the value it replaced. */
  function applyOne(
    ws: string,
    change: WeightChangeRequest,
    bounds: { floor: number; ceiling: number },
    now: string,
  ): AppliedWeightChange | null {
    const table = change.target.kind === 'edge' ? 'edges' : 'memories';
    const next = change.operation.kind === 'delta' ? 'weight + @amount' : '@amount';
    const amount = change.operation.kind === 'delta' ? change.operation.delta : change.operation.value;
    const columns = change.target.kind === 'edge' ? EDGE_COLUMNS : MEMORY_COLUMNS;
    const row = sql(
      `UPDATE ${table} SET prev_weight = weight, weight = ROUND(MIN(@ceiling, MAX(@floor, ${next})), 12), updated_at = @now
       WHERE workspace = @ws AND id = @id RETURNING prev_weight, ${columns}`,
    ).get({ ws, id: change.target.id, amount, floor: bounds.floor, ceiling: bounds.ceiling, now }) as
      | ((EdgeRow | MemoryRow) & { prev_weight: number })
      | undefined;
    if (!row) {
      if (change.skipIfMissing) return null;
      throw notFound(`No ${change.target.kind} with id "${change.target.id}" in this workspace`);
    }
    const event: WeightEventRecord = {
      id: change.eventId,
      at: now,
      source: change.source,
      edgeId: change.target.kind === 'edge' ? change.target.id : null,
      memoryId: change.target.kind === 'memory' ? change.target.id : null,
      old: row.prev_weight,
      new: row.weight,
      delta: roundWeight(row.weight - row.prev_weight),
      reason: change.reason,
      revertedBy: null,
    };
    insertEvent(ws, event);
    if (change.revertsEventId) {
      const marked = sql(
        `UPDATE weight_events SET reverted_by = ? WHERE workspace = ? AND id = ? AND reverted_by IS NULL`,
      ).run(event.id, ws, change.revertsEventId);
      // A concurrent revert got there first; failing here rolls this one back whole.
      if (marked.changes === 0)
        throw conflict(`Weight event "${change.revertsEventId}" is missing or was already reverted`);
    }
    return {
      previousWeight: event.old,
      newWeight: event.new,
      event,
      edge: change.target.kind === 'edge' ? toEdge(row as EdgeRow) : null,
      memory: change.target.kind === 'memory' ? toMemory(row as MemoryRow) : null,
    };
  }

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
    const byAnchor = new Map<string, AdjacentEdge[]>();
    for (const row of rows) {
      const anchor = row.anchor as string;
      let list = byAnchor.get(anchor);
      if (!list) byAnchor.set(anchor, (list = []));
      list.push({
        direction: row.direction as 'OUTGOING' | 'INCOMING',
        edge: toEdge(unprefix<EdgeRow>(row, 'e_')),
        neighbor: toMemory(unprefix<MemoryRow>(row, 'm_')),
      });
    }
    return memoryIds.map((id) => byAnchor.get(id) ?? []);
  };

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
      const picks: { id: string; other: string; weight: number; direction: 'OUTGOING' | 'INCOMING' }[] = [];
      for (const side of sides(query.direction)) {
        const [end, otherEnd] = side === 'OUTGOING' ? ['from_id', 'to_id'] : ['to_id', 'from_id'];
        const types =
          query.types ??
          (sql(
            `WITH RECURSIVE t(type) AS (
               SELECT (SELECT min(type) FROM edges WHERE workspace = @ws AND ${end} = @id)
               UNION ALL
               SELECT (SELECT min(type) FROM edges WHERE workspace = @ws AND ${end} = @id AND type > t.type) FROM t WHERE t.type IS NOT NULL
             ) SELECT type FROM t WHERE type IS NOT NULL`,
          )
            .pluck()
            .all({ ws, id }) as string[]);
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
      picks.sort((a, b) => b.weight - a.weight || compareIds(a.id, b.id));
      if (picks.length > limit) picks.length = limit;
      const found: (AdjacentEdge | null)[] = new Array(picks.length).fill(null);
      readAdjacentById(
        ws,
        picks.map((pick, at) => [at, pick.id, pick.other] as const),
        found,
      );
      return found.flatMap((entry, at) =>
        entry ? [{ ...entry, direction: (picks[at] as (typeof picks)[number]).direction }] : [],
      );
    })();

  const store: SqliteStore = {
    description: `sqlite ${options.path}`,

    async warmAdjacencyIndex(ws) {
      if (!index) return false;
      try {
        return await index.warm(ws);
      } catch (error) {
        return guard(() => {
          throw error;
        });
      }
    },

    adjacencyIndexStats(ws) {
      return index?.stats(ws) ?? null;
    },

    adjacencyIndexTotals() {
      return index?.totals() ?? { indexes: 0, bytes: 0, maxBytes: 0 };
    },

    async ping() {
      guard(() => sql('SELECT 1').get());
    },

    async close() {
      if (closed) return;
      closed = true;
      index?.clear();
      // Folding the WAL back into the main file leaves a single self-contained file behind.
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },

    async getMemories(ws, refs) {
      if (refs.length === 0) return [];
      return guard(() => {
        // Two index lookups, not one OR: SQLite answers `id IN (..) OR key IN (..)` by scanning
        // every memory of the workspace.
        const rows = sql(
          `SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = @ws AND id IN (SELECT value FROM json_each(@refs))
           UNION ALL
           SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = @ws AND key IN (SELECT value FROM json_each(@refs))`,
        ).all({ ws, refs: asJson(refs) }) as MemoryRow[];
        const byId = new Map<string, MemoryRow>();
        const byKey = new Map<string, MemoryRow>();
        for (const row of rows) {
          byId.set(row.id, row);
          if (row.key !== null) byKey.set(row.key, row);
        }
        return refs.map((ref) => {
          const row = byId.get(ref) ?? byKey.get(ref);
          return row ? toMemory(row) : null;
        });
      });
    },

    async getEdges(ws, ids) {
      if (ids.length === 0) return [];
      return guard(() => {
        // Both ends must be memories of the workspace: a row pointing elsewhere (only possible by
        // writing the file directly) is never answered.
        const rows = sql(
          `SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id IN (${IDS})
             AND EXISTS (SELECT 1 FROM memories m WHERE m.workspace = edges.workspace AND m.id = edges.from_id)
             AND EXISTS (SELECT 1 FROM memories m WHERE m.workspace = edges.workspace AND m.id = edges.to_id)`,
        ).all(ws, asJson(ids)) as EdgeRow[];
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => {
          const row = byId.get(id);
          return row ? toEdge(row) : null;
        });
      });
    },

    async getAdjacent(ws, memoryIds, query: AdjacencyQuery) {
      if (memoryIds.length === 0) return [];
      return guard(() => {
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
      });
    },

    async countAdjacent(ws, memoryIds, query: DegreeQuery) {
      if (memoryIds.length === 0) return [];
      return guard(() => {
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
        const counts = new Map(rows.map((row) => [row.anchor, row.n]));
        return memoryIds.map((id) => counts.get(id) ?? 0);
      });
    },

    async expandFrontier(ws, memoryIds, query: FrontierQuery): Promise<FrontierExpansion> {
      if (memoryIds.length === 0) return { steps: [], truncated: false };
      return guard(() => {
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
        const steps = sql(`${union} LIMIT @take`).all({
          ws,
          ids: asJson(memoryIds),
          types: typed ? asJson(query.types ?? []) : undefined,
          above: query.pruneThreshold,
          take: query.budget + 1,
        }) as FrontierExpansion['steps'];
        const truncated = steps.length > query.budget;
        if (truncated) steps.length = query.budget;
        return { steps, truncated };
      });
    },

    async findEdge(ws, fromId, toId, type) {
      return guard(() => {
        const row = edgeByTriple(ws, fromId, toId, type);
        return row ? toEdge(row) : null;
      });
    },

    async edgesAmong(ws, memoryIds, query) {
      if (memoryIds.length < 2) return [];
      return guard(() => {
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
          ids: asJson([...new Set(memoryIds)]),
          above: query.pruneThreshold,
          limit: query.limit,
        }) as EdgeRow[];
        rows.sort((x, y) => compareIds(x.id, y.id));
        return rows.map(toEdge);
      });
    },

    async edgesBetween(ws, a, b, types) {
      return guard(() => {
        // One index lookup per direction (an OR of the two would scan the workspace's edges).
        const typed = types ? 'AND type IN (SELECT value FROM json_each(@types))' : '';
        const rows = sql(
          `SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = @ws AND from_id = @a AND to_id = @b ${typed}
           UNION ALL
           SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = @ws AND from_id = @b AND to_id = @a ${typed}
           ORDER BY weight DESC, id ASC`,
        ).all({ ws, a, b, types: types ? asJson(types) : undefined }) as EdgeRow[];
        return rows.map(toEdge);
      });
    },

    async searchMemories(ws, query: SearchQuery) {
      const match = toFtsQuery(query.text);
      if (match === null) return [];
      return guard(() => {
        const rows = sql(
          `SELECT ${prefixed('m', MEMORY_COLUMNS)}
           FROM memories_fts f JOIN memories m ON m.rid = f.rowid
           WHERE memories_fts MATCH @match AND m.workspace = @ws
             ${query.kinds ? 'AND m.kind IN (SELECT value FROM json_each(@kinds))' : ''}
             ${query.tags ? 'AND EXISTS (SELECT 1 FROM json_each(m.tags) t WHERE t.value IN (SELECT value FROM json_each(@tags)))' : ''}
           ORDER BY bm25(memories_fts, 4.0, 1.0, 2.0), m.weight DESC, m.id
           LIMIT @limit`,
        ).all({
          ws,
          match,
          kinds: query.kinds ? asJson(query.kinds) : undefined,
          tags: query.tags ? asJson(query.tags) : undefined,
          limit: query.limit,
        }) as MemoryRow[];
        return rows.map(toMemory);
      });
    },

    async listWeightEvents(ws, filter: WeightEventFilter) {
      return guard(() => {
        // Only the filters given, from fixed fragments, so each combination gets its own plan and
        // uses its index ("@x IS NULL OR col = @x" would read every event of the workspace).
        const where = [
          filter.edgeId !== null ? 'AND edge_id = @edgeId' : '',
          filter.memoryId !== null ? 'AND memory_id = @memoryId' : '',
          filter.source !== null ? 'AND source = @source' : '',
        ].join(' ');
        const rows = sql(
          `SELECT * FROM weight_events WHERE workspace = @ws ${where} ORDER BY rid DESC LIMIT @limit`,
        ).all({
          ws,
          edgeId: filter.edgeId ?? undefined,
          memoryId: filter.memoryId ?? undefined,
          source: filter.source ?? undefined,
          limit: filter.limit,
        }) as WeightEventRow[];
        return rows.map(toWeightEvent);
      });
    },

    async getEdgeHistories(ws, edgeIds, limit) {
      if (edgeIds.length === 0) return [];
      return guard(() => {
        const rows = sql(
          `SELECT * FROM (
             SELECT w.*, ROW_NUMBER() OVER (PARTITION BY w.edge_id ORDER BY w.rid DESC) AS rank
             FROM weight_events w
             WHERE w.workspace = ? AND w.edge_id IN (${IDS})
           ) WHERE rank <= ? ORDER BY edge_id, rank`,
        ).all(ws, asJson(edgeIds), limit) as WeightEventRow[];
        const byEdge = new Map<string, WeightEventRecord[]>();
        for (const row of rows) {
          const key = row.edge_id as string;
          let list = byEdge.get(key);
          if (!list) byEdge.set(key, (list = []));
          list.push(toWeightEvent(row));
        }
        return edgeIds.map((id) => byEdge.get(id) ?? []);
      });
    },

    async listEdgesByType(ws, query: TypedEdgeQuery) {
      if (query.types.length === 0) return [];
      return guard(() => {
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
      });
    },

    async rankTargetsBySources(ws, query: SourceRankQuery) {
      if (query.types.length === 0) return [];
      return guard(
        () =>
          sql(
            `SELECT to_id AS memoryId, COUNT(*) AS sources, SUM(strongest) AS weight FROM (
               SELECT to_id, from_id, MAX(weight) AS strongest FROM edges
               WHERE workspace = @ws AND type IN (SELECT value FROM json_each(@types))
                 AND weight > @above AND weight >= @atLeast
               GROUP BY to_id, from_id
             )
             GROUP BY to_id HAVING COUNT(*) >= @minSources
             ORDER BY sources DESC, weight DESC, memoryId ASC LIMIT @limit`,
          ).all({
            ws,
            types: asJson(query.types),
            above: query.pruneThreshold,
            atLeast: query.minWeight ?? -1,
            minSources: query.minSources,
            limit: query.limit,
          }) as SourceRank[],
      );
    },

    async getWeightEvents(ws, ids) {
      if (ids.length === 0) return [];
      return guard(() => {
        const rows = sql(`SELECT * FROM weight_events WHERE workspace = ? AND id IN (${IDS})`).all(
          ws,
          asJson(ids),
        ) as WeightEventRow[];
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => {
          const row = byId.get(id);
          return row ? toWeightEvent(row) : null;
        });
      });
    },

    async createMemory(ws, memory: NewMemory, now) {
      return written(() =>
        guard(() => {
          const row = sql(
            `INSERT INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
             VALUES (@ws, @id, @key, @title, @content, @kind, @tags, @weight, @metadata, @now, @now)
             RETURNING ${MEMORY_COLUMNS}`,
            // all(), not get(): in autocommit the commit happens when the statement runs to its end,
            // and get() stops at the first row and drops a failed commit (disk full) silently.
          ).all({
            ws,
            id: memory.id,
            key: memory.key,
            title: memory.title,
            content: memory.content,
            kind: memory.kind,
            tags: JSON.stringify(memory.tags),
            weight: memory.weight,
            metadata: encodeJson(memory.metadata),
            now,
          })[0] as MemoryRow;
          return toMemory(row);
        }),
      );
    },

    async updateMemory(ws, id, patch: MemoryPatch, now) {
      return written(() =>
        guard(() =>
          db
            .transaction(() => {
              const current = memoryById(ws, id);
              if (!current) return null;
              const row = sql(
                `UPDATE memories SET key = @key, title = @title, content = @content, kind = @kind, tags = @tags,
                   metadata = @metadata, updated_at = @now
                 WHERE workspace = @ws AND id = @id RETURNING ${MEMORY_COLUMNS}`,
              ).get({
                ws,
                id,
                key: patch.key !== undefined ? patch.key : current.key,
                title: patch.title ?? current.title,
                content: patch.content !== undefined ? patch.content : current.content,
                kind: patch.kind !== undefined ? patch.kind : current.kind,
                tags: patch.tags ? JSON.stringify(patch.tags) : current.tags,
                metadata: patch.metadata !== undefined ? encodeJson(patch.metadata) : current.metadata,
                now,
              }) as MemoryRow;
              return toMemory(row);
            })
            .immediate(),
        ),
      );
    },

    async deleteMemory(ws, id) {
      let chunked = 0;
      for (;;) {
        const removed = written(() =>
          guard(() =>
            db
              .transaction(() => {
                // Only while more than a chunk is left: the last chunk goes with the memory, in one transaction.
                const { n } = sql(
                  `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE workspace = @ws AND from_id = @id LIMIT @over))
                        + (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE workspace = @ws AND to_id = @id LIMIT @over)) AS n`,
                ).get({ ws, id, over: DELETE_CHUNK + 1 }) as { n: number };
                if (n <= DELETE_CHUNK) return 0;
                const outgoing =
                  sql(`SELECT 1 FROM edges WHERE workspace = ? AND from_id = ? LIMIT 1`).get(ws, id) !== undefined;
                const end = outgoing ? 'from_id' : 'to_id';
                return sql(
                  `DELETE FROM edges WHERE rid IN (SELECT rid FROM edges WHERE workspace = ? AND ${end} = ? LIMIT ?)`,
                ).run(ws, id, DELETE_CHUNK).changes;
              })
              .immediate(),
          ),
        );
        if (removed === 0) break;
        chunked += removed;
        await new Promise((resume) => setImmediate(resume));
      }
      const last = written(() =>
        guard(() =>
          db
            .transaction(() => {
              // Two index counts (an OR would scan the workspace); no edge joins a memory to itself.
              const { n } = sql(
                `SELECT (SELECT COUNT(*) FROM edges WHERE workspace = @ws AND from_id = @id)
                      + (SELECT COUNT(*) FROM edges WHERE workspace = @ws AND to_id = @id) AS n`,
              ).get({ ws, id }) as { n: number };
              const { changes } = sql(`DELETE FROM memories WHERE workspace = ? AND id = ?`).run(ws, id);
              return changes === 0 ? null : n;
            })
            .immediate(),
        ),
      );
      return last === null ? null : { edgesRemoved: last + chunked };
    },

    async linkEdge(ws, link: LinkRequest, now) {
      return written(() =>
        guard(() =>
          db
            .transaction(() => {
              for (const end of [link.fromId, link.toId]) {
                if (!memoryById(ws, end)) throw notFound(`No memory "${end}" in this workspace`);
              }
              const existing = edgeByTriple(ws, link.fromId, link.toId, link.type);
              if (!existing) {
                const row = sql(
                  `INSERT INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at)
                   VALUES (@ws, @id, @fromId, @toId, @type, @weight, @metadata, @now, @now, NULL)
                   RETURNING ${EDGE_COLUMNS}`,
                ).get({
                  ws,
                  id: link.id,
                  fromId: link.fromId,
                  toId: link.toId,
                  type: link.type,
                  weight: link.weight ?? link.defaultWeight,
                  metadata: encodeJson(link.metadata),
                  now,
                }) as EdgeRow;
                return { edge: toEdge(row), created: true };
              }
              const merged = checkMergedMetadata(mergeMetadata(decodeJson(existing.metadata), link.metadata));
              sql(
                `UPDATE edges SET metadata = ?, last_confirmed_at = ?, updated_at = ? WHERE workspace = ? AND id = ?`,
              ).run(encodeJson(merged), now, now, ws, existing.id);
              const weightChange = relinkWeightChange(link, existing);
              // The domain validated link.weight against the policy bounds already.
              if (weightChange) applyOne(ws, weightChange, { floor: -Infinity, ceiling: Infinity }, now);
              return { edge: toEdge(edgeById(ws, existing.id) as EdgeRow), created: false };
            })
            .immediate(),
        ),
      );
    },

    async unlinkEdges(ws, selector: EdgeSelector) {
      return written(() =>
        guard(() => {
          const rows =
            'id' in selector
              ? (sql(`DELETE FROM edges WHERE workspace = ? AND id = ? RETURNING ${EDGE_COLUMNS}`).all(
                  ws,
                  selector.id,
                ) as EdgeRow[])
              : (sql(
                  `DELETE FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ? RETURNING ${EDGE_COLUMNS}`,
                ).all(ws, selector.fromId, selector.toId, selector.type) as EdgeRow[]);
          return rows.map(toEdge);
        }),
      );
    },

    async importBatch(ws, batch: ImportBatch, now) {
      return written(() =>
        guard(() =>
          db
            .transaction(() => {
              // Rows go in sorted by the keys of the indexes they land in, so each b-tree is
              // written in runs instead of at random; the sort is stable, so when a batch names one
              // memory or edge twice the last still wins. Each row is a plain INSERT, and an UPDATE
              // only when the row exists: an upsert (INSERT .. ON CONFLICT DO UPDATE) on a table
              // with UPDATE triggers runs about twice as slowly, even for rows it inserts.
              const insertMemory = sql(
                `INSERT OR IGNORE INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
              );
              const updateMemory = sql(
                `UPDATE memories SET key = ?, title = ?, content = ?, kind = ?, tags = ?, weight = ?, metadata = ?, updated_at = ?
                 WHERE workspace = ? AND id = ?`,
              );
              for (const m of sortedBy(batch.memories, (memory) => memory.id)) {
                const [tags, metadata] = [JSON.stringify(m.tags), encodeJson(m.metadata)];
                if (
                  insertMemory.run(ws, m.id, m.key, m.title, m.content, m.kind, tags, m.weight, metadata, now, now)
                    .changes > 0
                )
                  continue;
                // Not inserted: the id exists (update it), or the key belongs to another memory.
                if (
                  updateMemory.run(m.key, m.title, m.content, m.kind, tags, m.weight, metadata, now, ws, m.id)
                    .changes === 0
                ) {
                  throw conflict('That key is already taken in this workspace');
                }
              }
              const insertEdge = sql(
                `INSERT OR IGNORE INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
              );
              const updateEdge = sql(
                `UPDATE edges SET weight = ?, metadata = ?, updated_at = ? WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?`,
              );
              // A large batch logs one "workspace changed" row instead of a row per edge (see the
              // migration): adjacency indexes rebuild after it rather than patch edge by edge.
              const bulk = batch.edges.length > BULK_EDGES;
              if (bulk) sql('INSERT OR IGNORE INTO edge_changes_muted (workspace) VALUES (?)').run(ws);
              for (const e of sortedBy(batch.edges, (edge) => `${edge.fromId}\u0000${edge.toId}\u0000${edge.type}`)) {
                const metadata = encodeJson(e.metadata);
                // OR IGNORE covers uniqueness only: a missing memory still fails the foreign key.
                if (insertEdge.run(ws, e.id, e.fromId, e.toId, e.type, e.weight, metadata, now, now).changes > 0)
                  continue;
                if (updateEdge.run(e.weight, metadata, now, ws, e.fromId, e.toId, e.type).changes === 0) {
                  throw conflict('An item with that id already exists in this workspace');
                }
              }
              if (bulk) {
                sql('DELETE FROM edge_changes_muted WHERE workspace = ?').run(ws);
                sql('INSERT INTO edge_changes (workspace, edge_id) VALUES (?, NULL)').run(ws);
              }
              if (batch.edges.length > 0) pruneLog();
              return { memories: batch.memories.length, edges: batch.edges.length };
            })
            .immediate(),
        ),
      );
    },

    async listMemories(ws, page) {
      return guard(() =>
        (
          sql(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = ? AND id > ? ORDER BY id LIMIT ?`).all(
            ws,
            page.afterId ?? '',
            page.limit,
          ) as MemoryRow[]
        ).map(toMemory),
      );
    },

    async listEdges(ws, page) {
      return guard(() =>
        (
          sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id > ? ORDER BY id LIMIT ?`).all(
            ws,
            page.afterId ?? '',
            page.limit,
          ) as EdgeRow[]
        ).map(toEdge),
      );
    },

    async applyWeightChanges(ws, changes, bounds, now) {
      return written(() =>
        guard(() =>
          db.transaction(() => changes.flatMap((change) => applyOne(ws, change, bounds, now) ?? [])).immediate(),
        ),
      );
    },
  };
  if (index) {
    store.shortestPath = async (ws, fromId, toId, maxHops, query) =>
      guard(() => index.shortestPath(ws, fromId, toId, maxHops, query));
  }
  return store;
}

function migrate(db: Database.Database): void {
  // IMMEDIATE: two processes starting on a new file must not both run the same migration.
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    for (let index = applied; index < MIGRATIONS.length; index++) {
      db.exec(MIGRATIONS[index] as string);
    }
    if (applied < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/** Maps driver failures to coded errors once, so no raw SQLite error reaches a client. */
function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngramError) throw error;
    if (error instanceof Database.SqliteError) {
      if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw conflict(
          error.message.includes('.key')
            ? 'That key is already taken in this workspace'
            : 'An item with that id already exists in this workspace',
        );
      }
      if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
        throw notFound('A memory this change refers to does not exist');
      if (/^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL)/.test(error.code)) throw unavailable(error);
    }
    if (error instanceof TypeError && /database connection is not open/.test(error.message)) throw unavailable(error);
    throw error;
  }
}

function prefixed(alias: string, columns: string, prefix = ''): string {
  return columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}${prefix ? ` AS ${prefix}${column.trim()}` : ''}`)
    .join(', ');
}

function unprefix<T>(row: Record<string, unknown>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  }
  return out as T;
}

/** A stable sort by a string key, computing each key once. */
function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keyed = items.map((item, at) => ({ item, at, key: key(item) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.at - b.at));
  return keyed.map((entry) => entry.item);
}

const encodeJson = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value));
const decodeJson = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));
