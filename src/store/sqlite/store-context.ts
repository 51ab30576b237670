import type Database from 'better-sqlite3';
import { type AdjacencyIndex, LOG_KEEP } from './adjacency-index/types.js';
import { EDGE_COLUMNS, type EdgeRow, MEMORY_COLUMNS, type MemoryRow } from './records.js';
import {
  createSearchIndexUpkeep,
  type SearchIndexUpkeep,
  type SearchIndexUpkeepOptions,
} from './search-index-upkeep.js';

/** Own writes between two prunings of the edge change log. */
const PRUNE_EVERY = 1000;

/** Own writes between two looks at the full-text index's segments (one row read). */
const SEARCH_INDEX_CHECK_EVERY = 500;

/** What the parts of the store share: one connection, its statements, the adjacency index and the write path. */
export interface StoreContext {
  db: Database.Database;
  /** Prepares each distinct statement text once and reuses it for the life of the store. */
  sql(text: string): Database.Statement;
  /** Null when the store walks with SQL only. */
  index: AdjacencyIndex | null;
  /** Merges the full-text index's segments in the background when they have piled up. */
  searchIndex: SearchIndexUpkeep;
  /**
   * Every write method runs through here: the index learns that this connection wrote (PRAGMA
   * data_version only reports OTHER connections' commits) and catches up before its next read.
   */
  written<T>(work: () => T): T;
  /** Changes whenever a memory was added, removed, or its text or tags changed, on any connection. */
  textGeneration(): number;
  /** Keeps the newest LOG_KEEP rows of the edge change log; an index further behind rebuilds. */
  pruneLog(): void;
  memoryById(ws: string, id: string): MemoryRow | undefined;
  edgeById(ws: string, id: string): EdgeRow | undefined;
  edgeByTriple(ws: string, fromId: string, toId: string, type: string): EdgeRow | undefined;
}

export function createStoreContext(
  db: Database.Database,
  index: AdjacencyIndex | null,
  searchIndexOptions?: SearchIndexUpkeepOptions,
): StoreContext {
  const searchIndex = createSearchIndexUpkeep(db, searchIndexOptions);
  let writesSincePrune = 0;
  let writesSinceSearchIndexCheck = 0;
  const generation = db.prepare('SELECT n FROM text_generation').pluck();
  const textGeneration = () => generation.get() as number;
  const pruneLog = () => {
    writesSincePrune = 0;
    sql('DELETE FROM edge_changes WHERE seq <= (SELECT max(seq) FROM edge_changes) - ?').run(LOG_KEEP);
  };
  const written = <T>(work: () => T): T => {
    try {
      return work();
    } finally {
      index?.noteWrite();
      if (++writesSinceSearchIndexCheck >= SEARCH_INDEX_CHECK_EVERY) {
        writesSinceSearchIndexCheck = 0;
        searchIndex.check();
      }
      if (++writesSincePrune >= PRUNE_EVERY) {
        try {
          pruneLog();
        } catch {
          // Busy or read-only: the next write tries again; a long log only costs readers a rebuild.
        }
      }
    }
  };

  const cache = new Map<string, Database.Statement>();
  /** Prepares each distinct statement text once and reuses it for the life of the store. */
  const sql = (text: string): Database.Statement => {
    let statement = cache.get(text);
    if (!statement) {
      statement = db.prepare(text);
      cache.set(text, statement);
    }
    return statement;
  };
  const memoryById = (ws: string, id: string) =>
    sql(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE workspace = ? AND id = ?`).get(ws, id) as MemoryRow | undefined;
  const edgeById = (ws: string, id: string) =>
    sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND id = ?`).get(ws, id) as EdgeRow | undefined;
  const edgeByTriple = (ws: string, fromId: string, toId: string, type: string) =>
    sql(`SELECT ${EDGE_COLUMNS} FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?`).get(
      ws,
      fromId,
      toId,
      type,
    ) as EdgeRow | undefined;

  return { db, sql, index, searchIndex, written, textGeneration, pruneLog, memoryById, edgeById, edgeByTriple };
}
