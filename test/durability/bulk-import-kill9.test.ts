import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/open-database.js';
import { MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { bulkTestGraph } from '../cli/bulk-graph.js';
import { databaseHealth } from '../cli/database-health.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WS = 'bulk';

let dir: string;
let child: ChildProcess | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-bulk-kill-'));
});

afterEach(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `engram import` as its own process, as a user runs it. */
function importProcess(dbPath: string, args: string[]) {
  const started = spawn(process.execPath, ['bin/engram.js', 'import', ...args], {
    cwd: ROOT,
    env: { ...process.env, ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  started.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    started.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child: started, exited, stderr: () => stderr };
}

/**
 * True once the importer holds the write lock with the schema already migrated: the bulk load's
 * transaction is open. Asked with a zero busy timeout, so the probe never waits on the importer.
 */
function bulkLoadRunning(dbPath: string): boolean {
  if (!existsSync(dbPath)) return false;
  const db = new Database(dbPath);
  try {
    db.pragma('busy_timeout = 0');
    try {
      // Busy here: the importer is still creating the file or switching it to WAL.
      if (db.pragma('user_version', { simple: true }) !== MIGRATIONS.length) return false;
    } catch {
      return false;
    }
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
      return false;
    } catch (error) {
      return (error as { code?: string }).code === 'SQLITE_BUSY';
    }
  } finally {
    db.close();
  }
}

const countIn = (dbPath: string, table: 'memories' | 'edges') => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace = ?`).get(WS) as { n: number }).n;
  } finally {
    db.close();
  }
};

/**
 * Alone on its file the load writes through a rollback journal, which exists for exactly as long
 * as the load's transaction: watching for it never opens a connection that would keep the load in
 * WAL mode. Beside another connection it stays in WAL, where the probe can ask SQLite.
 */
const CASES = [
  { name: 'alone on its file (rollback journal)', beside: false },
  { name: 'beside another connection (WAL)', beside: true },
] as const;

describe.each(CASES)('a bulk import killed with SIGKILL mid-load, $name', ({ beside }) => {
  it('leaves a valid database holding nothing of it, and a re-run completes', async () => {
    const graph = bulkTestGraph({ memories: 3_000, edges: 12_000, seed: 9 });
    const dbPath = join(dir, 'engram.db');
    const journal = `${dbPath}-journal`;
    const loading = beside ? () => bulkLoadRunning(dbPath) : () => existsSync(journal);
    const lines = graph.text.split('\n');
    const half = `${lines.slice(0, Math.floor(lines.length * 0.6)).join('\n')}\n`;
    const reader = beside ? openDatabase({ path: dbPath }) : null;

    try {
      // The file through stdin, so the test decides where the load is when the process dies.
      const running = importProcess(dbPath, ['-', '--workspace', WS, '--bulk', '--batch-size', '500']);
      child = running.child;
      for (let waited = 0; !loading(); waited += 50) {
        if (waited > 60_000) throw new Error(`the import never began its load: ${running.stderr()}`);
        await sleep(50);
      }
      await new Promise<void>((resolve, reject) =>
        running.child.stdin?.write(half, (error) => (error ? reject(error) : resolve())),
      );
      // Time to write some of those batches into the open transaction; then the process dies mid-load.
      await sleep(1_500);
      expect(loading()).toBe(true);
      expect(existsSync(journal)).toBe(!beside);
      running.child.kill('SIGKILL');
      expect((await running.exited).signal).toBe('SIGKILL');
    } finally {
      reader?.close();
    }

    const fresh = databaseHealth(join(dir, 'fresh.db'));
    const afterKill = databaseHealth(dbPath);
    expect(afterKill).toEqual({ integrity: 'ok', danglingEdges: 0, fullText: 'ok', schema: fresh.schema });
    expect(countIn(dbPath, 'memories')).toBe(0);

    const file = join(dir, 'graph.ndjson');
    writeFileSync(file, graph.text);
    const rerun = importProcess(dbPath, [file, '--workspace', WS]);
    child = rerun.child;
    rerun.child.stdin?.end();
    expect(await rerun.exited).toEqual({ code: 0, signal: null });
    expect(rerun.stderr()).toMatch(/one bulk load/);
    expect(countIn(dbPath, 'memories')).toBe(graph.distinctMemories);
    expect(countIn(dbPath, 'edges')).toBe(graph.distinctEdges);
    expect(databaseHealth(dbPath)).toEqual(afterKill);
  }, 120_000);
});
