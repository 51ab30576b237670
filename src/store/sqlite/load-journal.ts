import type Database from 'better-sqlite3';
import { isBusy } from './errors.js';
import { withoutWaiting } from './without-waiting.js';

/**
 * In WAL mode every page a load writes is written twice: into the log at COMMIT, then into the
 * database by the checkpoint that follows (1.5-2.6 s of a 10 s load of 500k edges). With a
 * rollback journal the pages go to the database once, and the journal keeps only the pages that
 * existed before, so a crash still leaves nothing of the load (the next opening rolls it back):
 * 0.5-0.7 s. Switching needs the file to itself, so it happens only when no other connection has
 * it open; otherwise the load stays in WAL, where those readers keep reading the state before it.
 * The load then begins with BEGIN EXCLUSIVE, which in rollback mode locks readers out at once: a
 * reader that came meanwhile (the sqlite3 shell, a backup) would otherwise hold a shared lock the
 * COMMIT must wait for, and a load of minutes would fail at its end. In WAL it is BEGIN IMMEDIATE.
 *
 * Returns what puts the file back in WAL mode after the load, or null when it stayed there.
 */
export function journalOnceWhenAlone(db: Database.Database): (() => void) | null {
  if (db.memory) return null;
  try {
    // Another connection means WAL now, not after waiting for it to leave.
    if (withoutWaiting(db, () => db.pragma('journal_mode = DELETE', { simple: true })) !== 'delete') return null;
  } catch (error) {
    if (isBusy(error)) return null;
    throw error;
  }
  return () => {
    try {
      db.pragma('journal_mode = WAL');
    } catch (error) {
      // A connection that came during the load still reads: the load is committed, and every
      // Engram opening of the file (openDatabase) asks for WAL again.
      if (!isBusy(error)) throw error;
    }
  };
}
