import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ENTRY } from '../helpers/server-entry.js';

/** Repository root: the child runs the server (SERVER_ENTRY) from here, as test/helpers/process.ts does. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real server over `dbPath` until it exits (it never listens: every path here is unusable). */
function startServer(dbPath: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVER_ENTRY, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      ENGRAM_STORE: 'sqlite',
      ENGRAM_SQLITE_PATH: dbPath,
      ENGRAM_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // A server that did start would never exit by itself: kill it so the test fails instead of hanging.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

// Every case fails for root too (these suites run as root, for whom a chmod'ed folder is still writable).
describe('start-up with an unusable ENGRAM_SQLITE_PATH', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-sqlite-path-'));
  const file = join(root, 'file');
  writeFileSync(file, 'not a folder');
  const folder = join(root, 'folder.db');
  mkdirSync(folder);
  const junk = join(root, 'junk.db');
  writeFileSync(junk, randomBytes(8192));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const cases: [string, string, string][] = [
    [
      'whose folder is a regular file',
      join(file, 'engram.db'),
      `${file} is a file, not a directory (ENOTDIR); point it at a path under a directory`,
    ],
    [
      'under a regular file, two levels down',
      join(file, 'sub', 'engram.db'),
      `${file} is a file, not a directory (ENOTDIR); point it at a path under a directory`,
    ],
    [
      'that is a directory',
      folder,
      `it is a directory, not a database file (EISDIR); point it at a file such as ${join(folder, 'engram.db')}`,
    ],
    [
      'whose folder cannot be created (under /proc)',
      '/proc/engram-test/engram.db',
      'cannot create the directory /proc/engram-test (ENOENT: no such file or directory); point it at a writable path',
    ],
    [
      'that is not an SQLite database',
      junk,
      'the file is not an SQLite database (SQLITE_NOTADB: file is not a database); point it at an Engram database or a new file',
    ],
  ];

  // /proc exists on Linux only; elsewhere that case is left out.
  it.concurrent.each(cases.filter(([, dbPath]) => !dbPath.startsWith('/proc/') || existsSync('/proc')))(
    'exits 1 with one line naming the variable, the path and the fix, for a path %s',
    async (_case, dbPath, problem) => {
      const { code, stdout, stderr } = await startServer(dbPath);
      expect(code).toBe(1);
      expect(stdout).not.toMatch(/listening/);
      expect(stderr).toBe(`ENGRAM_SQLITE_PATH=${dbPath}: ${problem}\n`);
      expect(stderr).not.toMatch(/^ {4}at /m);
    },
    90_000,
  );
});
