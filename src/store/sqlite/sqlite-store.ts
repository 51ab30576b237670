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
import { roundWeight, type WeightChangeRequest } from '../../domain/weights.js';
import { mergeMetadata } from '../../domain/metadata.js';
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
  WeightEventFilter,
} from '../port.js';
import { MIGRATIONS } from './migrations.js';
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
}

/** SQLite has no LIMIT ALL inside a WHERE; the largest 32-bit count stands in for it. */
const UNLIMITED = 2_147_483_647;

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

export function createSqliteStore(options: SqliteStoreOptions): GraphStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  db.pragma('foreign_keys = ON');
  migrate(db);

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
    ).run(ws, event.id, event.at, event.source, event.edgeId, event.memoryId, event.old, event.new, event.delta, event.reason);

  /** One atomic clamped read-modify-write; prev_weight captures the value it replaced. */
  function applyOne(ws: string, change: WeightChangeRequest, bounds: { floor: number; ceiling: number }, now: string): AppliedWeightChange {
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
    if (!row) throw notFound(`No ${change.target.kind} with id "${change.target.id}" in this workspace`);
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
      const marked = sql(`UPDATE weight_events SET reverted_by = ? WHERE workspace = ? AND id = ? AND reverted_by IS NULL`).run(
        event.id,
        ws,
        change.revertsEventId,
      );
      // A concurrent revert got there first; failing here rolls this one back whole.
      if (marked.changes === 0) throw conflict(`Weight event "${change.revertsEventId}" is missing or was already reverted`);
    }
    return {
      previousWeight: event.old,
      newWeight: event.new,
      event,
      edge: change.target.kind === 'edge' ? toEdge(row as EdgeRow) : null,
      memory: change.target.kind === 'memory' ? toMemory(row as MemoryRow) : null,
    };
  }

  const store: GraphStore = {
    description: `sqlite ${options.path}`,

    async ping() {
      guard(() => sql('SELECT 1').get());
    },

    async close() {
      if (closed) return;
      closed = true;
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
        const rows = sql(
          `SELECT ${MEMORY_COLUMNS} FROM memories
           WHERE workspace = ? AND (id IN (${IDS}) OR key IN (${IDS}))`,
        ).all(ws, asJson(refs), asJson(refs)) as MemoryRow[];
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
        const rows = sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id IN (${IDS})`).all(
          ws,
          asJson(ids),
        ) as EdgeRow[];
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
      });
    },

    async countAdjacent(ws, memoryIds, query: DegreeQuery) {
      if (memoryIds.length === 0) return [];
      return guard(() => {
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

    async edgesBetween(ws, a, b, types) {
      return guard(() => {
        const rows = sql(
          `SELECT ${EDGE_COLUMNS} FROM edges
           WHERE workspace = @ws AND ((from_id = @a AND to_id = @b) OR (from_id = @b AND to_id = @a))
             ${types ? 'AND type IN (SELECT value FROM json_each(@types))' : ''}
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
        const rows = sql(
          `SELECT * FROM weight_events
           WHERE workspace = @ws
             AND (@edgeId IS NULL OR edge_id = @edgeId)
             AND (@memoryId IS NULL OR memory_id = @memoryId)
             AND (@source IS NULL OR source = @source)
           ORDER BY rid DESC LIMIT @limit`,
        ).all({ ws, edgeId: filter.edgeId, memoryId: filter.memoryId, source: filter.source, limit: filter.limit }) as WeightEventRow[];
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
      return guard(() => {
        const row = sql(
          `INSERT INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
           VALUES (@ws, @id, @key, @title, @content, @kind, @tags, @weight, @metadata, @now, @now)
           RETURNING ${MEMORY_COLUMNS}`,
        ).get({
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
        }) as MemoryRow;
        return toMemory(row);
      });
    },

    async updateMemory(ws, id, patch: MemoryPatch, now) {
      return guard(() =>
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
      );
    },

    async deleteMemory(ws, id) {
      return guard(() =>
        db
          .transaction(() => {
            const { n } = sql(
              `SELECT COUNT(*) AS n FROM edges WHERE workspace = ? AND (from_id = ? OR to_id = ?)`,
            ).get(ws, id, id) as { n: number };
            const { changes } = sql(`DELETE FROM memories WHERE workspace = ? AND id = ?`).run(ws, id);
            return changes === 0 ? null : { edgesRemoved: n };
          })
          .immediate(),
      );
    },

    async linkEdge(ws, link: LinkRequest, now) {
      return guard(() =>
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
            const merged = mergeMetadata(decodeJson(existing.metadata), link.metadata);
            sql(
              `UPDATE edges SET metadata = ?, last_confirmed_at = ?, updated_at = ? WHERE workspace = ? AND id = ?`,
            ).run(encodeJson(merged), now, now, ws, existing.id);
            if (link.weight !== null && link.weight !== existing.weight) {
              applyOne(
                ws,
                {
                  eventId: link.eventId,
                  target: { kind: 'edge', id: existing.id },
                  operation: { kind: 'set', value: link.weight },
                  source: 'MANUAL',
                  reason: link.reason,
                },
                // The domain validated link.weight against the policy bounds already.
                { floor: -Infinity, ceiling: Infinity },
                now,
              );
            }
            return { edge: toEdge(edgeById(ws, existing.id) as EdgeRow), created: false };
          })
          .immediate(),
      );
    },

    async unlinkEdges(ws, selector: EdgeSelector) {
      return guard(() => {
        const rows =
          'id' in selector
            ? (sql(`DELETE FROM edges WHERE workspace = ? AND id = ? RETURNING ${EDGE_COLUMNS}`).all(ws, selector.id) as EdgeRow[])
            : (sql(
                `DELETE FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ? RETURNING ${EDGE_COLUMNS}`,
              ).all(ws, selector.fromId, selector.toId, selector.type) as EdgeRow[]);
        return rows.map(toEdge);
      });
    },

    async importBatch(ws, batch: ImportBatch, now) {
      return guard(() =>
        db
          .transaction(() => {
            const upsertMemory = sql(
              `INSERT INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
               VALUES (@ws, @id, @key, @title, @content, @kind, @tags, @weight, @metadata, @now, @now)
               ON CONFLICT (workspace, id) DO UPDATE SET key = excluded.key, title = excluded.title, content = excluded.content,
                 kind = excluded.kind, tags = excluded.tags, weight = excluded.weight, metadata = excluded.metadata,
                 updated_at = excluded.updated_at`,
            );
            for (const memory of batch.memories) {
              upsertMemory.run({ ws, ...memory, tags: JSON.stringify(memory.tags), metadata: encodeJson(memory.metadata), now });
            }
            const upsertEdge = sql(
              `INSERT INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at)
               VALUES (@ws, @id, @fromId, @toId, @type, @weight, @metadata, @now, @now, NULL)
               ON CONFLICT (workspace, from_id, to_id, type) DO UPDATE SET weight = excluded.weight, metadata = excluded.metadata,
                 updated_at = excluded.updated_at`,
            );
            for (const edge of batch.edges) upsertEdge.run({ ws, ...edge, metadata: encodeJson(edge.metadata), now });
            return { memories: batch.memories.length, edges: batch.edges.length };
          })
          .immediate(),
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
      return guard(() =>
        db.transaction(() => changes.map((change) => applyOne(ws, change, bounds, now))).immediate(),
      );
    },
  };
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
      if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw notFound('A memory this change refers to does not exist');
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

const encodeJson = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value));
const decodeJson = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));
