import type Database from 'better-sqlite3';

/**
 * Runs `work` with the connection's busy timeout at 0, then puts the timeout back: a lock another
 * connection holds fails the work at once (SQLITE_BUSY) instead of holding the process, which
 * better-sqlite3 blocks while it waits, for up to the timeout.
 */
export function withoutWaiting<T>(db: Database.Database, work: () => T): T {
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return work();
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
