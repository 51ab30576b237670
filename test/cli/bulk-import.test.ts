import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkMode, BulkRefusedError, ImportLineError, importNdjson } from '../../src/cli/import-command.js';
import { EngramError } from '../../src/domain/errors.js';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { bulkTestGraph, WORDS } from './bulk-graph.js';
import { databaseHealth } from './database-health.js';

const WS = 'bulk';

let dir: string;
const opened: SqliteStore[] = [];
const open = (name: string) => {
  const store = createSqliteStore({ path: join(dir, name), adjacencyIndex: false });
  opened.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-bulk-'));
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const load = (store: SqliteStore, text: string, bulk: BulkMode, workspace = WS, batchSize = 700) =>
  importNdjson({
    store,
    workspace,
    policy: DEFAULT_WEIGHT_POLICY,
    strictTypes: false,
    input: Readable.from([text]),
    batchSize,
    bulk,
    // Large enough that the bulk load drops and rebuilds the edge indexes, other workspace included.
    inputBytes: Buffer.byteLength(text),
  });

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

/** Everything the interchange format and search can tell apart, row for row, in a stable order. */
function contents(path: string, workspace: string) {
  const db = new Database(path, { readonly: true });
  try {
    const memories = db
      .prepare(
        'SELECT id, key, title, content, kind, tags, weight, prev_weight, metadata FROM memories WHERE workspace = ? ORDER BY id',
      )
      .all(workspace);
    const edges = db
      .prepare(
        `SELECT from_id, to_id, type, weight, prev_weight, metadata, last_confirmed_at FROM edges
         WHERE workspace = ? ORDER BY from_id, to_id, type`,
      )
      .all(workspace);
    const search = Object.fromEntries(
      WORDS.map((word) => [
        word,
        db
          .prepare(
            `SELECT m.id FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
             WHERE memories_fts MATCH ? AND m.workspace = ? ORDER BY m.id`,
          )
          .all(word, workspace)
          .map((row) => (row as { id: string }).id),
      ]),
    );
    return { memories, edges, search };
  } finally {
    db.close();
  }
}

describe('engram import in bulk', () => {
  it('gives the ordinary import’s result on the same file, row for row, search included', async () => {
    const graph = bulkTestGraph({ memories: 1_500, edges: 4_000, seed: 11 });
    const ordinary = open('ordinary.db');
    const bulk = open('bulk.db');
    // Another workspace already in the bulk database: its rows are indexed again with the load's.
    const other = bulkTestGraph({ memories: 200, edges: 500, seed: 5 });
    await load(bulk, other.text, 'never', 'other');
    const before = contents(join(dir, 'bulk.db'), 'other');

    const plain = await load(ordinary, graph.text, 'never');
    const loaded = await load(bulk, graph.text, 'auto');
    expect(plain.bulk).toBe(false);
    expect(loaded.bulk).toBe(true);
    expect({ ...loaded, ms: 0 }).toEqual({ ...plain, ms: 0, bulk: true });

    const want = contents(join(dir, 'ordinary.db'), WS);
    const got = contents(join(dir, 'bulk.db'), WS);
    expect(want.memories.length).toBe(graph.distinctMemories);
    expect(want.edges.length).toBe(graph.distinctEdges);
    expect(Object.values(want.search).every((ids) => ids.length > 0)).toBe(true);
    expect(got.memories).toEqual(want.memories);
    expect(got.edges).toEqual(want.edges);
    expect(got.search).toEqual(want.search);
    expect(contents(join(dir, 'bulk.db'), 'other')).toEqual(before);

    for (const word of WORDS.slice(0, 4)) {
      const query = { text: word, limit: 20, kinds: null, tags: null, currentOnly: false, pruneThreshold: 0.05 };
      const answer = async (store: SqliteStore) =>
        (await store.searchMemories(WS, query)).map((memory) => [memory.id, memory.title]);
      expect(await answer(bulk)).toEqual(await answer(ordinary));
    }
    expect(databaseHealth(join(dir, 'bulk.db'))).toEqual(databaseHealth(join(dir, 'ordinary.db')));
    expect(databaseHealth(join(dir, 'bulk.db')).integrity).toBe('ok');
  });

  it('writes nothing when a line fails after many batches, and leaves triggers and indexes as they were', async () => {
    const graph = bulkTestGraph({ memories: 300, edges: 1_000, seed: 3 });
    const store = open('engram.db');
    const error = await rejection(load(store, `${graph.text}{"record":"edge","from":"x"}\n`, 'always', WS, 200));
    expect(error).toBeInstanceOf(ImportLineError);
    expect(contents(join(dir, 'engram.db'), WS)).toEqual({
      memories: [],
      edges: [],
      search: Object.fromEntries(WORDS.map((word) => [word, []])),
    });
    const health = databaseHealth(join(dir, 'engram.db'));
    expect(health.integrity).toBe('ok');
    expect(health.schema).toEqual(databaseHealth(join(dir, 'fresh.db')).schema);
    // The full-text trigger is back: a later ordinary import is searchable at once.
    await load(store, graph.text, 'never');
    expect(contents(join(dir, 'engram.db'), WS).search[WORDS[0] as string]?.length).toBeGreaterThan(0);
  });

  it('names the line of an edge whose memory no earlier line brought, and writes nothing', async () => {
    const store = open('engram.db');
    const text = [
      { record: 'memory', id: 'a', title: 'alpha' },
      { record: 'edge', from: 'a', to: 'b', type: 'CITES' },
      { record: 'memory', id: 'b', title: 'beta' },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const error = await rejection(load(store, text, 'always'));
    expect(error).toBeInstanceOf(EngramError);
    expect((error as EngramError).code).toBe('NOT_FOUND');
    expect((error as Error).message).toMatch(/^line 2: to: no memory "b"/);
    expect(contents(join(dir, 'engram.db'), WS).memories).toEqual([]);
  });

  it('answers CONFLICT for a key two memories claim in different batches, and writes nothing', async () => {
    const store = open('engram.db');
    const text = [
      { record: 'memory', id: 'a', key: 'k', title: 'alpha' },
      { record: 'memory', id: 'b', key: 'k', title: 'beta' },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const error = await rejection(load(store, text, 'always', WS, 1));
    expect((error as EngramError).code).toBe('CONFLICT');
    expect(contents(join(dir, 'engram.db'), WS).memories).toEqual([]);
  });

  it('refuses --bulk into a workspace that holds memories, changing nothing; auto imports batch by batch there', async () => {
    const graph = bulkTestGraph({ memories: 50, edges: 100, seed: 2 });
    const store = open('engram.db');
    await load(store, graph.text, 'never');
    const before = contents(join(dir, 'engram.db'), WS);
    const error = await rejection(load(store, graph.text, 'always'));
    expect(error).toBeInstanceOf(BulkRefusedError);
    expect((error as Error).message).toMatch(/workspace "bulk" already holds memories/);
    const again = await load(store, graph.text, 'auto');
    expect(again.bulk).toBe(false);
    expect(contents(join(dir, 'engram.db'), WS)).toEqual(before);
  });
});

describe('engram import on a store without bulk mode (as Neo4j)', () => {
  it('refuses --bulk naming the store, and imports batch by batch by default', async () => {
    const { beginBulkLoad: _none, ...withoutBulk } = open('engram.db');
    const graph = bulkTestGraph({ memories: 30, edges: 60, seed: 8 });
    const error = await rejection(load(withoutBulk as SqliteStore, graph.text, 'always'));
    expect(error).toBeInstanceOf(BulkRefusedError);
    expect((error as Error).message).toMatch(/^--bulk: this store \(sqlite .*\) has no bulk mode/);
    expect(contents(join(dir, 'engram.db'), WS).memories).toEqual([]);
    const imported = await load(withoutBulk as SqliteStore, graph.text, 'auto');
    // 30 memories, and every tenth of them named again.
    expect(imported).toMatchObject({ bulk: false, memories: graph.distinctMemories + 3 });
  });
});

describe('engram import --bulk (the bin)', () => {
  const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [bin, 'import', '--workspace', WS, ...args], {
      env: { ...process.env, ENGRAM_SQLITE_PATH: join(dir, 'bin.db'), ENGRAM_LOG_LEVEL: 'silent' },
    }).then(
      (done) => ({ code: 0, stderr: done.stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it('loads an empty workspace in bulk, refuses --bulk once it holds memories, and says a failed load wrote nothing', async () => {
    const graph = bulkTestGraph({ memories: 40, edges: 80, seed: 4 });
    const file = join(dir, 'graph.ndjson');
    writeFileSync(file, graph.text);
    const loaded = await run([file]);
    expect(loaded).toMatchObject({ code: 0, stderr: expect.stringMatching(/memories\/s, one bulk load\)/) });
    const refused = await run([file, '--bulk']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--bulk: workspace "bulk" already holds memories/);
    expect(refused.stderr).toMatch(/Stopped: nothing was written\./);
    expect((await run([file, '--bulk', '--no-bulk'])).code).toBe(2);

    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${graph.text}{"record":"memory","id":"x"}\n`);
    const failed = await run([bad, '--workspace', 'fresh']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/nothing was written \(a bulk load is all or nothing\)/);
  }, 60_000);
});

describe('a bulk load that cannot take the write lock', () => {
  it('leaves the connection as it was: foreign keys still refuse a dangling edge afterwards', async () => {
    const path = join(dir, 'busy.db');
    const store = createSqliteStore({ path, adjacencyIndex: false, busyTimeoutMs: 50 });
    opened.push(store);
    await store.importBatch(WS, { memories: [], edges: [] }, new Date().toISOString());
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.beginBulkLoad?.('empty', { expectedEdges: null })).rejects.toThrow();
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
    const dangling = { id: 'e1', fromId: 'nobody', toId: 'no-one', type: 'CITES', weight: 0.5, metadata: null };
    const error = await rejection(store.importBatch(WS, { memories: [], edges: [dangling] }, new Date().toISOString()));
    expect(error).toBeInstanceOf(EngramError);
    expect((error as EngramError).code).toBe('NOT_FOUND');
  });
});
