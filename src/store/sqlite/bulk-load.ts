import type Database from 'better-sqlite3';
import { conflict, EngramError } from '../../domain/errors.js';
import type { NewMemory } from '../../domain/types.js';
import { compareIds } from '../key-order.js';
import type { BulkLoad, BulkLoadOptions, GraphStore, ImportBatch, ImportEdge } from '../port.js';
import { ID_TAKEN, KEY_TAKEN } from '../shared/store-errors.js';
import { mapErrors } from './errors.js';
import { journalOnceWhenAlone } from './load-journal.js';
import { encodeJson } from './records.js';
import { ftsScope } from './search-query.js';
import type { StoreContext } from './store-context.js';

/**
 * Rows per multi-row INSERT: one statement call instead of 400; 400 x 11 = 4,400 parameters stays
 * far below SQLite's limit on bound parameters (32,766).
 */
const ROWS_PER_INSERT = 400;

/**
 * Edge indexes that only speed reads (the unique ones enforce rules and stay): dropped for the
 * load and built once after it, a sort instead of a random insert per edge per index.
 */
const DEFERRABLE_EDGE_INDEXES = ['edges_out', 'edges_in', 'edges_type', 'edges_out_ranked', 'edges_in_ranked'];

/** The triggers that keep full-text search, the tag index and the text generation in step; the load does each once instead. */
const DERIVED_TRIGGERS = [
  'memories_fts_insert',
  'memories_fts_delete',
  'memories_fts_update',
  'memory_tags_insert',
  'memory_tags_delete',
  'memory_tags_update',
  'text_generation_insert',
  'text_generation_delete',
  'text_generation_update',
];

/**
 * Rebuilding an index sorts every edge of the database, not only the loaded ones: worth it while
 * the rest of the database holds at most this many edges per edge the load brings.
 */
const REBUILD_WHEN_OTHERS_AT_MOST = 4;

const MEMORY_INSERT_COLUMNS =
  'workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at';
const EDGE_INSERT_COLUMNS = 'workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at';
const placeholders = (columns: string, rows: number): string => {
  const row = `(${columns
    .split(',')
    .map(() => '?')
    .join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
};

/**
 * beginBulkLoad: the whole load is ONE write transaction on this connection (BEGIN EXCLUSIVE ...
 * COMMIT), so what it drops and rebuilds (the triggers of derived data, read-only edge indexes) is never
 * missing for another connection, and a crash or a failure leaves nothing of it: the database is
 * as it was. Other writers wait for the write lock meanwhile (busy_timeout, then UNAVAILABLE);
 * readers keep reading the state before the load. A load alone on its file writes it once, through
 * a rollback journal (see journalOnceWhenAlone).
 */
export function createBulkLoad(ctx: StoreContext): Pick<GraphStore, 'beginBulkLoad'> {
  return {
    async beginBulkLoad(ws, options) {
      return ctx.written(() => begin(ctx, ws, options));
    },
  };
}

function begin(ctx: StoreContext, ws: string, options: BulkLoadOptions): BulkLoad | null {
  const { db, sql } = ctx;
  if (db.inTransaction) throw new Error('This connection is already inside a transaction');
  const backToWal = journalOnceWhenAlone(db);
  // Foreign keys cannot be switched inside a transaction; finish() checks the loaded edges instead.
  db.pragma('foreign_keys = OFF');
  const restorePragmas = applyLoadPragmas(db);
  const restoreConnection = () => {
    db.pragma('foreign_keys = ON');
    restorePragmas();
    backToWal?.();
  };
  try {
    // EXCLUSIVE keeps new readers out of a rollback-journal load; in WAL it is the same as IMMEDIATE.
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    // Another writer held the lock past busy_timeout: the connection goes back to its usual settings.
    restoreQuietly(restoreConnection);
    throw error;
  }
  let open = true;
  const end = (statement: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    try {
      db.exec(statement);
    } catch (error) {
      // A COMMIT that failed (a full disk) leaves the transaction open: nothing of it may stay.
      if (db.inTransaction) db.exec('ROLLBACK');
      restoreQuietly(restoreConnection);
      throw error;
    }
    restoreConnection();
  };
  const rebuilt: string[] = [];
  let firstMemoryRid = 0;
  let firstEdgeRid = 0;
  try {
    if (sql('SELECT 1 FROM memories WHERE workspace = ? LIMIT 1').get(ws)) {
      end('ROLLBACK');
      return null;
    }
    // Rowids grow: every row this load inserts lies above the largest rowid now.
    firstMemoryRid = maxRid(db, 'memories') + 1;
    firstEdgeRid = maxRid(db, 'edges') + 1;
    const expected = options.expectedEdges ?? 0;
    const indexes = firstEdgeRid - 1 <= REBUILD_WHEN_OTHERS_AT_MOST * expected ? DEFERRABLE_EDGE_INDEXES : [];
    for (const { type, name, sql: text } of schemaEntries(db, [...DERIVED_TRIGGERS, ...indexes])) {
      rebuilt.push(text);
      db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} ${name}`);
    }
    // The change log would get a row per updated edge; one "workspace changed" row is logged at the end.
    sql('INSERT OR IGNORE INTO edge_changes_muted (workspace) VALUES (?)').run(ws);
  } catch (error) {
    end('ROLLBACK');
    throw error;
  }

  const loadedIds = new Set<string>();
  // Edges that named a memory no earlier batch of this load brought: only then does finish() ask SQL.
  let edgesAheadOfTheirEnds = 0;
  const writeMemories = createMemoryWriter(ctx, ws);
  const writeEdges = createEdgeWriter(ctx, ws);
  const keepTerms = sql(`INSERT OR REPLACE INTO memory_terms (workspace, memory_id, terms) VALUES (?, ?, ?)`);
  const whileOpen = <T>(work: () => T): T => {
    if (!open) throw new Error('This bulk load has already finished');
    try {
      return ctx.written(() => mapErrors(work));
    } catch (error) {
      end('ROLLBACK');
      throw error;
    }
  };
  return {
    async add(batch: ImportBatch, now: string) {
      return whileOpen(() => {
        const memories = inOrder(batch.memories, byId);
        writeMemories(memories, now);
        for (const memory of memories) {
          loadedIds.add(memory.id);
          // The last record of a memory wins, its terms too; their postings are built once, in finish().
          if (memory.terms) keepTerms.run(ws, memory.id, JSON.stringify(memory.terms));
        }
        for (const edge of batch.edges)
          if (!loadedIds.has(edge.fromId) || !loadedIds.has(edge.toId)) edgesAheadOfTheirEnds++;
        writeEdges(inOrder(batch.edges, byTriple), now);
        return { memories: batch.memories.length, edges: batch.edges.length };
      });
    },
    async finish() {
      whileOpen(() => {
        // The workspace started empty and a load only adds memories: an edge whose ends this load
        // had already written cannot dangle, so the query runs only when some edge came first.
        const dangling = edgesAheadOfTheirEnds > 0 ? firstDanglingEdge(ctx, ws, firstEdgeRid) : null;
        if (dangling) throw dangling;
        sql(
          `INSERT INTO memories_fts (rowid, title, content, tags, scope)
           SELECT rid, title, content, tags, ? FROM memories WHERE rid >= ? AND workspace = ?`,
        ).run(ftsScope(ws), firstMemoryRid, ws);
        sql(
          `INSERT OR IGNORE INTO memory_tags (workspace, tag, created_at, memory_id)
           SELECT m.workspace, j.value, m.created_at, m.id FROM memories m, json_each(m.tags) j
           WHERE m.rid >= ? AND m.workspace = ? ORDER BY 2, 3, 4`,
        ).run(firstMemoryRid, ws);
        // One for each memory, as the triggers would have counted (the workspace started empty, so
        // each distinct id is a row): a search trusts a word count taken `drift` changes ago to be
        // off by at most `drift` (search.ts).
        sql('UPDATE text_generation SET n = n + ?').run(loadedIds.size);
        // The workspace started empty: every term row is this load's. In key order, the b-tree fills in one run.
        sql(
          `INSERT OR IGNORE INTO term_postings (workspace, term, memory_id)
           SELECT t.workspace, j.value, t.memory_id FROM memory_terms t, json_each(t.terms) j
           WHERE t.workspace = ? ORDER BY 2, 3`,
        ).run(ws);
        for (const text of rebuilt) db.exec(text);
        sql('DELETE FROM edge_changes_muted WHERE workspace = ?').run(ws);
        sql('INSERT INTO edge_changes (workspace, edge_id) VALUES (?, NULL)').run(ws);
        ctx.pruneLog();
        end('COMMIT');
        // The load wrote the whole workspace's text into the full-text index in one statement,
        // which leaves it in several large segments.
        ctx.searchIndex.check();
      });
    },
    async abort() {
      end('ROLLBACK');
    },
  };
}

/** Restores what it can after a failure, whose error is the one to report, not a later one. */
function restoreQuietly(restore: () => void): void {
  try {
    restore();
  } catch {
    // The failure already thrown says what went wrong; every opening of the file sets these again.
  }
}

/**
 * Connection settings for the load's duration, restored at its end: sorts (index rebuilds, the
 * unique indexes' page splits) in memory rather than in temporary files, and with a helper thread.
 * synchronous stays FULL: under NORMAL the checkpoint inside the COMMIT syncs the same log, and
 * alternating runs measured no difference.
 */
const LOAD_PRAGMAS = { temp_store: 'MEMORY', threads: '2' } as const;

function applyLoadPragmas(db: Database.Database): () => void {
  const before = Object.entries(LOAD_PRAGMAS).map(([name]) => [name, db.pragma(name, { simple: true })] as const);
  for (const [name, value] of Object.entries(LOAD_PRAGMAS)) db.pragma(`${name} = ${value}`);
  return () => {
    for (const [name, value] of before) db.pragma(`${name} = ${String(value)}`);
  };
}

/**
 * Index order, so each statement's rows land on neighbouring pages of the unique indexes. The sort
 * is stable: of two records for one memory or one edge, the later still comes later and wins.
 */
const byId = (a: NewMemory, b: NewMemory): number => compareIds(a.id, b.id);
const byTriple = (a: ImportEdge, b: ImportEdge): number =>
  compareIds(a.fromId, b.fromId) || compareIds(a.toId, b.toId) || compareIds(a.type, b.type);

/** The list in `order`: itself when it already is (engram import hands edges over sorted), else a sorted copy. */
function inOrder<T>(list: readonly T[], order: (a: T, b: T) => number): readonly T[] {
  for (let at = 1; at < list.length; at++)
    if (order(list[at - 1] as T, list[at] as T) > 0) return [...list].sort(order);
  return list;
}

const maxRid = (db: Database.Database, table: 'memories' | 'edges'): number =>
  (db.prepare(`SELECT coalesce(max(rid), 0) AS rid FROM ${table}`).get() as { rid: number }).rid;

function schemaEntries(db: Database.Database, names: readonly string[]) {
  return db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE name IN (SELECT value FROM json_each(?)) ORDER BY name`)
    .all(JSON.stringify(names)) as { type: string; name: string; sql: string }[];
}

/**
 * Inserts rows in statements of ROWS_PER_INSERT rows (a shorter tail row by row) with INSERT OR
 * IGNORE; when a statement inserted fewer rows than it carried, `replay` runs each of its rows again
 * as an update (a record repeated within the load: the later one wins).
 */
function createChunkedInsert<R>(
  ctx: StoreContext,
  table: 'memories' | 'edges',
  columns: string,
  fill: (params: unknown[], at: number, row: R, now: string) => void,
  replay: (row: R, now: string) => void,
) {
  const width = columns.split(',').length;
  const statement = (rows: number) =>
    ctx.sql(`INSERT OR IGNORE INTO ${table} (${columns}) VALUES ${placeholders(columns, rows)}`);
  const [many, one] = [statement(ROWS_PER_INSERT), statement(1)];
  // One parameter array per statement size, refilled for each chunk: no array per row to collect.
  const manyParams: unknown[] = new Array(ROWS_PER_INSERT * width);
  const oneParams: unknown[] = new Array(width);
  return (rows: readonly R[], now: string) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const end = Math.min(rows.length, start + ROWS_PER_INSERT);
      let inserted = 0;
      if (end - start === ROWS_PER_INSERT) {
        for (let at = start; at < end; at++) fill(manyParams, (at - start) * width, rows[at] as R, now);
        inserted = many.run(manyParams).changes;
      } else {
        for (let at = start; at < end; at++) {
          fill(oneParams, 0, rows[at] as R, now);
          inserted += one.run(oneParams).changes;
        }
      }
      if (inserted < end - start) for (let at = start; at < end; at++) replay(rows[at] as R, now);
    }
  };
}

function createMemoryWriter(ctx: StoreContext, ws: string) {
  const update = ctx.sql(
    `UPDATE memories SET key = ?, title = ?, content = ?, kind = ?, tags = ?, weight = ?, metadata = ?, updated_at = ?
     WHERE workspace = ? AND id = ?`,
  );
  return createChunkedInsert<NewMemory>(
    ctx,
    'memories',
    MEMORY_INSERT_COLUMNS,
    (params, at, m, now) => {
      params[at] = ws;
      params[at + 1] = m.id;
      params[at + 2] = m.key;
      params[at + 3] = m.title;
      params[at + 4] = m.content;
      params[at + 5] = m.kind;
      params[at + 6] = JSON.stringify(m.tags);
      params[at + 7] = m.weight;
      params[at + 8] = encodeJson(m.metadata);
      params[at + 9] = now;
      params[at + 10] = now;
    },
    (m, now) => {
      // No row to update: the memory's key is held by another memory.
      const [tags, metadata] = [JSON.stringify(m.tags), encodeJson(m.metadata)];
      if (update.run(m.key, m.title, m.content, m.kind, tags, m.weight, metadata, now, ws, m.id).changes === 0)
        throw conflict(KEY_TAKEN);
    },
  );
}

function createEdgeWriter(ctx: StoreContext, ws: string) {
  const update = ctx.sql(
    'UPDATE edges SET weight = ?, metadata = ?, updated_at = ? WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?',
  );
  return createChunkedInsert<ImportEdge>(
    ctx,
    'edges',
    EDGE_INSERT_COLUMNS,
    (params, at, e, now) => {
      params[at] = ws;
      params[at + 1] = e.id;
      params[at + 2] = e.fromId;
      params[at + 3] = e.toId;
      params[at + 4] = e.type;
      params[at + 5] = e.weight;
      params[at + 6] = encodeJson(e.metadata);
      params[at + 7] = now;
      params[at + 8] = now;
    },
    (e, now) => {
      // A repeated (from, to, type) keeps the first record's id and takes the last one's weight and
      // metadata; no row to update means the id itself is taken by another edge.
      if (update.run(e.weight, encodeJson(e.metadata), now, ws, e.fromId, e.toId, e.type).changes === 0)
        throw conflict(ID_TAKEN);
    },
  );
}

/** The first loaded edge with an end that is not a memory of the workspace: what the foreign keys would have refused. */
function firstDanglingEdge(ctx: StoreContext, ws: string, firstEdgeRid: number): EngramError | null {
  const row = ctx
    .sql(
      `SELECT from_id AS fromId, to_id AS toId, type,
         NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.from_id) AS fromMissing
       FROM edges e
       WHERE e.rid >= ? AND e.workspace = ?
         AND (NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.from_id)
           OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.to_id))
       LIMIT 1`,
    )
    .get(firstEdgeRid, ws) as { fromId: string; toId: string; type: string; fromMissing: number } | undefined;
  if (!row) return null;
  const [end, id] = row.fromMissing ? (['from', row.fromId] as const) : (['to', row.toId] as const);
  return new EngramError(
    'NOT_FOUND',
    `edge ${row.fromId} -[${row.type}]-> ${row.toId}: ${end}: no memory "${id}" in this workspace or among the memories imported with it`,
    { extensions: { argument: end } },
  );
}
