import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export interface DatabaseFileOptions {
  /** Database file; its folder is created when missing. `:memory:` works for throwaway stores. */
  path: string;
  /** How long a writer waits for another process's write lock before failing with UNAVAILABLE. */
  busyTimeoutMs?: number;
  /** SQLite page cache of this connection, in MiB (default 64; SQLite's own default is 2). */
  cacheSizeMb?: number;
}

/** Opens the database file, creating its folder, sets the connection's pragmas and brings the schema up to date. */
export function openDatabase(options: DatabaseFileOptions): Database.Database {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = ${-Math.trunc((options.cacheSizeMb ?? 64) * 1024)}`);
  migrate(db);
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
