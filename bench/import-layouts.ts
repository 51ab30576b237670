/**
 * How fast SQLite itself can take the benchmark graph's edges in a few table layouts, outside
 * Engram: the evidence behind "200k edges/s needs a different store" in the README. Each layout
 * gets a fresh file, the same memories, then the edges in 50,000-row transactions sorted by their
 * first index key, as importBatch writes them. Only the edge inserts are timed.
 *
 *   npx tsx bench/import-layouts.ts [--memories N] [--edges N] [--seed N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/store/sqlite/schema.js';
import { type GeneratedGraph, generateGraph, RELATION_TYPES } from './generator.js';

interface Layout {
  name: string;
  pageSize: number;
  /** Creates the tables; returns the statements that run after the load (late indexes), if any. */
  create(db: Database.Database): string | null;
  insertMemory: string;
  insertEdge: string;
  /** One edge's bound values, given its ends' memory ids and rowids. */
  edgeValues(graph: GeneratedGraph, index: number, rowid: (id: string) => number): unknown[];
}

const NOW = '2026-01-01T00:00:00.000Z';
const BATCH = 50_000;

const textLayout = (pageSize: number): Layout => ({
  name: `Engram's schema (text keys, 5 edge indexes, foreign keys), ${pageSize / 1024} KB pages`,
  pageSize,
  create: (db) => {
    for (const migration of MIGRATIONS) db.exec(migration);
    return null;
  },
  insertMemory: `INSERT INTO memories (workspace, id, title, tags, weight, created_at, updated_at) VALUES ('bench', ?, ?, '[]', 0.5, '${NOW}', '${NOW}')`,
  insertEdge: `INSERT OR IGNORE INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at) VALUES ('bench', ?, ?, ?, ?, ?, NULL, '${NOW}', '${NOW}')`,
  edgeValues: (graph, index) => [
    graph.edgeId(index),
    graph.ids[graph.edgeFrom[index] as number],
    graph.ids[graph.edgeTo[index] as number],
    RELATION_TYPES[graph.edgeType[index] as number],
    graph.edgeWeight[index],
  ],
});

const INTEGER_INDEXES = `CREATE UNIQUE INDEX edges_id ON edges (ws, id);
  CREATE UNIQUE INDEX edges_out ON edges (src, type, dst);
  CREATE INDEX edges_in ON edges (dst, type);
  CREATE INDEX edges_type ON edges (ws, type);`;

const integerLayout = (late: boolean): Layout => ({
  name: `integer memory keys and types${late ? ', every index built after the load' : ''}`,
  pageSize: 4096,
  create: (db) => {
    db.exec(`CREATE TABLE memories (rid INTEGER PRIMARY KEY, ws INTEGER NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, UNIQUE (ws, id));
      CREATE TABLE edges (rid INTEGER PRIMARY KEY, ws INTEGER NOT NULL, id TEXT NOT NULL,
        src INTEGER NOT NULL REFERENCES memories (rid) ON DELETE CASCADE, dst INTEGER NOT NULL REFERENCES memories (rid) ON DELETE CASCADE,
        type INTEGER NOT NULL, weight REAL NOT NULL, metadata TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);`);
    if (late) return INTEGER_INDEXES;
    db.exec(INTEGER_INDEXES);
    return null;
  },
  insertMemory: `INSERT INTO memories (ws, id, title) VALUES (1, ?, ?)`,
  insertEdge: `INSERT ${late ? '' : 'OR IGNORE '}INTO edges (ws, id, src, dst, type, weight, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, '${NOW}', '${NOW}')`,
  edgeValues: (graph, index, rowid) => [
    graph.edgeId(index),
    rowid(graph.ids[graph.edgeFrom[index] as number] as string),
    rowid(graph.ids[graph.edgeTo[index] as number] as string),
    graph.edgeType[index],
    graph.edgeWeight[index],
  ],
});

function measure(layout: Layout, graph: GeneratedGraph, dir: string): number {
  const path = join(dir, `${layout.pageSize}-${layout.name.length}.db`);
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${layout.pageSize}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -262144');
    const lateIndexes = layout.create(db);
    const insertMemory = db.prepare(layout.insertMemory);
    const rowids = new Map<string, number>();
    db.transaction(() => {
      for (const id of [...graph.ids].sort()) rowids.set(id, Number(insertMemory.run(id, id).lastInsertRowid));
    })();
    const rowid = (id: string) => rowids.get(id) as number;
    const rows = Array.from({ length: graph.spec.edges }, (_, index) => layout.edgeValues(graph, index, rowid));
    const insertEdge = db.prepare(layout.insertEdge);
    const started = performance.now();
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH).sort((a, b) => compare(a[1], b[1]) || compare(a[2], b[2]));
      db.transaction(() => {
        for (const values of batch) insertEdge.run(...values);
      }).immediate();
    }
    if (lateIndexes) db.exec(lateIndexes);
    return graph.spec.edges / ((performance.now() - started) / 1000);
  } finally {
    db.close();
  }
}

const compare = (a: unknown, b: unknown): number =>
  (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    edges: { type: 'string', default: '500000' },
    seed: { type: 'string', default: '42' },
  },
});
const graph = generateGraph({
  memories: Number(values.memories),
  edges: Number(values.edges),
  seed: Number(values.seed),
});
const dir = mkdtempSync(join(tmpdir(), 'engram-layouts-'));
try {
  console.log(
    `${graph.spec.memories.toLocaleString('en-US')} memories / ${graph.spec.edges.toLocaleString('en-US')} edges, seed ${graph.spec.seed}: edge inserts only, edges/s`,
  );
  for (const layout of [textLayout(4096), textLayout(16384), integerLayout(false), integerLayout(true)]) {
    console.log(
      `${Math.round(measure(layout, graph, dir))
        .toLocaleString('en-US')
        .padStart(9)}  ${layout.name}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
