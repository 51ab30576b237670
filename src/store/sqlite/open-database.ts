import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { load as loadSqliteVec } from 'sqlite-vec';
import { StartupError } from '../../domain/errors.js';
import { isBusy } from './errors.js';
import { MIGRATIONS } from './schema.js';
import { prepareVectorTables } from './vectors.js';

export interface DatabaseFileOptions {
  /** Database file; its folder is created when missing. `:memory:` works for throwaway stores. */
  path: string;
  /** How long a writer waits for another process's write lock before failing with UNAVAILABLE. */
  busyTimeoutMs?: number;
  /** SQLite page cache of this connection, in MiB (default 64; SQLite's own default is 2). */
  cacheSizeMb?: number;
}

/**
 * Driver codes that mean the path itself is unusable (as opposed to a busy or failing disk), so
 * start-up reports them as a mistake in the setting rather than as a crash.
 */
const UNUSABLE_FILE = /^SQLITE_(CANTOPEN|READONLY|PERM|AUTH|NOTADB)/;

/**
 * Opens the database file, creating its folder, sets the connection's pragmas and brings the
 * schema up to date. A path that cannot hold a database throws StartupError with one line that
 * names ENGRAM_SQLITE_PATH: config is the only way a path reaches the store (the CLI reads the same
 * variables), and the store may not import config to ask.
 */
export function openDatabase(options: DatabaseFileOptions): Database.Database {
  const { path } = options;
  if (path !== ':memory:') ensureFolder(path, dirname(path));
  if (path !== ':memory:' && existsSync(path) && statSync(path).isDirectory()) {
    throw startupError(
      path,
      'it is a directory, not a database file (EISDIR)',
      `a file such as ${join(path, 'engram.db')}`,
    );
  }
  let db: Database.Database;
  try {
    // The timeout from the start: the first pragma may already wait for another process's lock.
    db = new Database(path, { timeout: Math.trunc(options.busyTimeoutMs ?? 5000) });
  } catch (error) {
    throw asStartupError(path, error);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = ${-Math.trunc((options.cacheSizeMb ?? 64) * 1024)}`);
    migrate(db);
    // Every connection needs the vec0 module: deleting a memory reaches its vector through a trigger.
    loadSqliteVec(db);
    prepareVectorTables(db);
  } catch (error) {
    db.close();
    throw asStartupError(path, error);
  }
  return db;
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

/**
 * Creates the folder one level at a time from its deepest existing ancestor. Node 20's
 * `mkdirSync(.., { recursive: true })` never returns when mkdir fails with ENOENT under a parent
 * that exists (any path under /proc), and a file in the way deserves its own words.
 */
function ensureFolder(path: string, folder: string): void {
  const missing: string[] = [];
  let ancestor = resolve(folder);
  while (!existsSync(ancestor)) {
    missing.unshift(ancestor);
    const parent = dirname(ancestor);
    if (parent === ancestor) break;
    ancestor = parent;
  }
  if (existsSync(ancestor) && !statSync(ancestor).isDirectory()) {
    throw startupError(path, `${ancestor} is a file, not a directory (ENOTDIR)`, 'a path under a directory');
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory);
    } catch (error) {
      // Another process starting on the same path may have made it first.
      if (isNodeError(error) && error.code === 'EEXIST' && statSync(directory).isDirectory()) continue;
      const reason = isNodeError(error) ? `${error.code}: ${describe(error)}` : String(error);
      throw startupError(path, `cannot create the directory ${directory} (${reason})`, 'a writable path');
    }
  }
}

function asStartupError(path: string, error: unknown): unknown {
  if (isBusy(error))
    // Such as a bulk load that had the file to itself, which then holds it whole (load-journal.ts).
    return new StartupError(
      `ENGRAM_SQLITE_PATH=${path}: another process holds the database file's lock (${error.code}: ${error.message}), as engram import does while it loads; start again when it has finished`,
    );
  if (error instanceof Database.SqliteError && UNUSABLE_FILE.test(error.code)) {
    const reason = `${error.code}: ${error.message}`;
    return error.code === 'SQLITE_NOTADB'
      ? startupError(path, `the file is not an SQLite database (${reason})`, 'an Engram database or a new file')
      : startupError(path, `cannot open the database file (${reason})`, 'a writable path');
  }
  return error;
}

const startupError = (path: string, problem: string, fix: string): StartupError =>
  new StartupError(`ENGRAM_SQLITE_PATH=${path}: ${problem}; point it at ${fix}`);

const isNodeError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';

/** The system's words without Node's "CODE: " prefix and ", mkdir '<path>'" suffix. */
const describe = (error: NodeJS.ErrnoException): string =>
  error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
