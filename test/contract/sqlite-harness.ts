import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Json } from '../../src/domain/types.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { RawEdge, RawMemory, RawWeightEvent, StoreHarness, StoreInspector } from './contract-kit.js';

interface EdgeRow {
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  weight: number;
  metadata: string | null;
  last_confirmed_at: string | null;
}

interface WeightEventRow {
  id: string;
  edge_id: string | null;
  memory_id: string | null;
  source: string;
  old: number;
  new: number;
  delta: number;
  reason: string | null;
  reverted_by: string | null;
}

const TABLES = {
  memories: 'memories',
  edges: 'edges',
  weight_events: 'weight_events',
  recall_cues: 'recall_cues',
} as const;

const parseJson = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));

const toRawEdge = (row: EdgeRow): RawEdge => ({
  id: row.id,
  fromId: row.from_id,
  toId: row.to_id,
  type: row.type,
  weight: row.weight,
  metadata: parseJson(row.metadata),
  lastConfirmedAt: row.last_confirmed_at,
});

const toRawWeightEvent = (row: WeightEventRow): RawWeightEvent => ({
  id: row.id,
  edgeId: row.edge_id,
  memoryId: row.memory_id,
  source: row.source,
  old: row.old,
  new: row.new,
  delta: row.delta,
  reason: row.reason,
  revertedBy: row.reverted_by,
});

/** Reads the database file with its own connection, bypassing the adapter. */
export function createSqliteInspector(db: Database.Database): StoreInspector {
  const edgeColumns = 'id, from_id, to_id, type, weight, metadata, last_confirmed_at';
  const eventColumns = 'id, edge_id, memory_id, source, old, new, delta, reason, reverted_by';
  return {
    async countRows(kind, workspace) {
      // A recall cue is one row per key: count cues, not rows.
      const row = db
        .prepare(`SELECT count(DISTINCT id) AS n FROM ${TABLES[kind]} WHERE workspace = ?`)
        .get(workspace) as {
        n: number;
      };
      return row.n;
    },
    async rawMemory(workspace, id) {
      const row = db
        .prepare('SELECT id, key, title, content, weight FROM memories WHERE workspace = ? AND id = ?')
        .get(workspace, id) as RawMemory | undefined;
      return row ?? null;
    },
    async rawEdge(workspace, id) {
      const row = db.prepare(`SELECT ${edgeColumns} FROM edges WHERE workspace = ? AND id = ?`).get(workspace, id) as
        | EdgeRow
        | undefined;
      return row ? toRawEdge(row) : null;
    },
    async rawEdges(workspace) {
      const rows = db
        .prepare(`SELECT ${edgeColumns} FROM edges WHERE workspace = ? ORDER BY id`)
        .all(workspace) as EdgeRow[];
      return rows.map(toRawEdge);
    },
    async rawWeightEvents(workspace) {
      const rows = db
        .prepare(`SELECT ${eventColumns} FROM weight_events WHERE workspace = ? ORDER BY id`)
        .all(workspace) as WeightEventRow[];
      return rows.map(toRawWeightEvent);
    },
  };
}

/**
 * A fresh SQLite file per test, read back by a connection of its own. `indexed: false` is the store
 * as it serves a workspace its adjacency index does not hold (too large, or still building): every
 * read by SQL.
 */
export const sqliteHarness = (indexed: boolean): StoreHarness => ({
  offersShortestPath: indexed,
  async create() {
    const dir = await mkdtemp(join(tmpdir(), 'engram-contract-'));
    const path = join(dir, 'engram.db');
    const store = createSqliteStore({ path, ...(indexed ? {} : { adjacencyIndex: false }) });
    const db = new Database(path, { fileMustExist: true });
    return {
      store,
      inspect: createSqliteInspector(db),
      async cleanup() {
        await store.close();
        db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
});
