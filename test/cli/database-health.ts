import Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/sqlite/open-database.js';

/**
 * What a valid Engram database shows after any import, finished, failed or killed: SQLite's own
 * integrity check, no edge without its memories, a full-text index that matches its table, and
 * every index and trigger of the schema (names and definitions). Opens (and so creates or
 * migrates) the file first, as a server would.
 */
export function databaseHealth(path: string) {
  openDatabase({ path }).close();
  const db = new Database(path);
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .join('; ');
    const danglingEdges = (db.pragma('foreign_key_check') as unknown[]).length;
    let fullText = 'ok';
    try {
      db.exec(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`);
    } catch (error) {
      fullText = (error as Error).message;
    }
    const schema = db
      .prepare(`SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name`)
      .all();
    return { integrity, danglingEdges, fullText, schema };
  } finally {
    db.close();
  }
}
