import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartupError } from '../../src/domain/errors.js';
import type { ImportBatch } from '../../src/store/port.js';
import { openDatabase } from '../../src/store/sqlite/open-database.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { plainMemory } from '../helpers/records.js';

const WS = 'bulk';
const NOW = '2026-11-24T00:00:00.000Z';

let dir: string;
let path: string;
let store: SqliteStore;
const others: Database.Database[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-load-journal-'));
  path = join(dir, 'engram.db');
  store = createSqliteStore({ path, adjacencyIndex: false });
});

afterEach(async () => {
  for (const db of others.splice(0)) db.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function batch(from: number, count: number): ImportBatch {
  const ids = Array.from({ length: count }, (_, k) => `m${from + k}`);
  return {
    memories: ids.map((id) => plainMemory(id, 1)),
    edges: ids.slice(1).map((id, k) => ({
      id: `e${from + k}`,
      fromId: ids[k] as string,
      toId: id,
      type: 'RELATED_TO',
      weight: 1,
      metadata: null,
    })),
  };
}

const memoriesIn = (db: Database.Database) =>
  (db.prepare('SELECT count(*) AS n FROM memories WHERE workspace = ?').get(WS) as { n: number }).n;

/** What a new connection finds on the file once the load is over. */
const fileState = () => {
  const db = new Database(path, { readonly: true });
  try {
    return { journalMode: db.pragma('journal_mode', { simple: true }), memories: memoriesIn(db) };
  } finally {
    db.close();
  }
};

describe('a bulk load alone on its file', () => {
  it('writes through a rollback journal instead of the WAL, and leaves the file in WAL mode', async () => {
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 100 });
    if (!load) throw new Error('expected a bulk load');
    await load.add(batch(0, 100), NOW);
    expect(existsSync(`${path}-journal`)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    await load.finish();
    expect(existsSync(`${path}-journal`)).toBe(false);
    expect(fileState()).toEqual({ journalMode: 'wal', memories: 100 });
  });

  it('refuses a server started meanwhile with a startup error that says why, and lets it start after', async () => {
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 100 });
    if (!load) throw new Error('expected a bulk load');
    await load.add(batch(0, 100), NOW);
    const startup = (() => {
      try {
        openDatabase({ path, busyTimeoutMs: 100 }).close();
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(startup).toBeInstanceOf(StartupError);
    expect((startup as Error).message).toMatch(/another process holds the database file's lock .*engram import/);
    await load.finish();
    const server = openDatabase({ path });
    others.push(server);
    expect(memoriesIn(server)).toBe(100);
  });

  it('keeps a reader that opens the file meanwhile out, rather than failing its own COMMIT on that reader', async () => {
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 100 });
    if (!load) throw new Error('expected a bulk load');
    await load.add(batch(0, 100), NOW);
    // A plain SQLite reader (the shell, a backup), which does not go through openDatabase.
    const reader = new Database(path, { readonly: true, timeout: 100 });
    others.push(reader);
    reader.exec('BEGIN');
    expect(() => memoriesIn(reader)).toThrow(/locked/);
    await load.finish();
    expect(memoriesIn(reader)).toBe(100);
  });

  it('rolls back, through the journal, when it is aborted', async () => {
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 100 });
    if (!load) throw new Error('expected a bulk load');
    await load.add(batch(0, 100), NOW);
    await load.abort();
    expect(existsSync(`${path}-journal`)).toBe(false);
    expect(fileState()).toEqual({ journalMode: 'wal', memories: 0 });
  });
});

describe('a bulk load beside another connection', () => {
  it('stays in WAL mode, where that connection keeps reading the state before the load', async () => {
    const reader = openDatabase({ path });
    others.push(reader);
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 100 });
    if (!load) throw new Error('expected a bulk load');
    await load.add(batch(0, 100), NOW);
    expect(existsSync(`${path}-journal`)).toBe(false);
    expect(memoriesIn(reader)).toBe(0);
    await load.finish();
    expect(memoriesIn(reader)).toBe(100);
    expect(fileState().journalMode).toBe('wal');
  });
});
