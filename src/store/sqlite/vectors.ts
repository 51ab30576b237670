import type Database from 'better-sqlite3';
import { checkedDimensions, type VectorMethods } from '../port.js';
import { vectorLengthRefused } from '../shared/store-errors.js';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './records.js';
import { prefixed } from './sql-text.js';
import type { StoreContext } from './store-context.js';

/**
 * Vectors live beside the tables of schema.ts rather than in it: sqlite-vec tables are made per
 * dimension on first use, so only the bookkeeping is created up front.
 * - memory_vectors: which memory has a vector, and of which length; its rowid is the rowid of the
 *   vector in vec_memories_d<N>, the vec0 table of that length (partitioned by workspace, cosine).
 * - embedding_queue: memories with no vector for their current text, filled by triggers on
 *   memories, so the back-fill finds work with an index seek instead of a scan.
 * The queue starts with every memory already stored when the tables are first made.
 */
const BOOKKEEPING = `
  CREATE TABLE IF NOT EXISTS workspace_vector_dims (workspace TEXT PRIMARY KEY, dims INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS memory_vectors (
    rid INTEGER PRIMARY KEY, workspace TEXT NOT NULL, memory_id TEXT NOT NULL, dims INTEGER NOT NULL,
    UNIQUE (workspace, memory_id)
  );
  CREATE TABLE IF NOT EXISTS embedding_queue (
    rid INTEGER PRIMARY KEY, workspace TEXT NOT NULL, memory_id TEXT NOT NULL, UNIQUE (workspace, memory_id)
  );
  CREATE INDEX IF NOT EXISTS embedding_queue_order ON embedding_queue (workspace, rid);
  CREATE TRIGGER IF NOT EXISTS memories_queue_new AFTER INSERT ON memories BEGIN
    INSERT OR IGNORE INTO embedding_queue (workspace, memory_id) VALUES (new.workspace, new.id);
  END;
  CREATE TRIGGER IF NOT EXISTS memories_queue_changed AFTER UPDATE OF title, content ON memories
  WHEN old.title IS NOT new.title OR old.content IS NOT new.content BEGIN
    DELETE FROM memory_vectors WHERE workspace = old.workspace AND memory_id = old.id;
    INSERT OR IGNORE INTO embedding_queue (workspace, memory_id) VALUES (new.workspace, new.id);
  END;
  CREATE TRIGGER IF NOT EXISTS memories_vector_gone AFTER DELETE ON memories BEGIN
    DELETE FROM memory_vectors WHERE workspace = old.workspace AND memory_id = old.id;
    DELETE FROM embedding_queue WHERE workspace = old.workspace AND memory_id = old.id;
  END;
`;

/** Creates the vector bookkeeping once per database file; the first time, queues every stored memory. */
export function prepareVectorTables(db: Database.Database): void {
  db.transaction(() => {
    const existed = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'embedding_queue'").get() !== undefined;
    db.exec(BOOKKEEPING);
    if (!existed)
      db.exec('INSERT OR IGNORE INTO embedding_queue (workspace, memory_id) SELECT workspace, id FROM memories');
  }).immediate();
}

/** A validated length is the only text that reaches a table name. */
function vectorTable(dims: number): string {
  return `vec_memories_d${checkedDimensions(dims)}`;
}

/** Makes the vec0 table of one length, with the trigger that drops its vector with its memory_vectors row. */
function ensureVectorTable(db: Database.Database, dims: number): string {
  const table = vectorTable(dims);
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
      workspace TEXT PARTITION KEY, embedding FLOAT[${dims}] distance_metric=cosine
    );
    CREATE TRIGGER IF NOT EXISTS ${table}_drop AFTER DELETE ON memory_vectors WHEN old.dims = ${dims} BEGIN
      DELETE FROM ${table} WHERE rowid = old.rid;
    END;
  `);
  return table;
}

export function createVectors(context: StoreContext): VectorMethods {
  const { sql } = context;
  const madeTables = new Set<number>();
  const tableFor = (dims: number) => {
    if (!madeTables.has(dims)) {
      ensureVectorTable(context.db, dims);
      madeTables.add(dims);
    }
    return vectorTable(dims);
  };
  const dimensionsOf = (ws: string) =>
    (sql('SELECT dims FROM workspace_vector_dims WHERE workspace = ?').get(ws) as { dims: number } | undefined)?.dims ??
    null;

  return {
    async embeddingDimensions(ws) {
      return dimensionsOf(ws);
    },

    async setEmbeddings(ws, items) {
      return context.written(() =>
        context.db
          .transaction(() => {
            let stored = 0;
            for (const item of items) {
              const memory = context.memoryById(ws, item.memoryId);
              if (!memory) continue;
              if (item.ifText && (memory.title !== item.ifText.title || memory.content !== item.ifText.content)) {
                continue;
              }
              const dims = dimensionsOf(ws) ?? item.vector.length;
              if (item.vector.length !== dims) {
                throw vectorLengthRefused(dims, item.vector.length);
              }
              const table = tableFor(dims);
              sql('INSERT OR IGNORE INTO workspace_vector_dims (workspace, dims) VALUES (?, ?)').run(ws, dims);
              sql('DELETE FROM memory_vectors WHERE workspace = ? AND memory_id = ?').run(ws, memory.id);
              const { rid } = sql(
                'INSERT INTO memory_vectors (workspace, memory_id, dims) VALUES (?, ?, ?) RETURNING rid',
              ).get(ws, memory.id, dims) as { rid: number };
              sql(`INSERT INTO ${table} (rowid, workspace, embedding) VALUES (?, ?, ?)`).run(
                BigInt(rid),
                ws,
                new Float32Array(item.vector),
              );
              sql('DELETE FROM embedding_queue WHERE workspace = ? AND memory_id = ?').run(ws, memory.id);
              stored++;
            }
            return stored;
          })
          .immediate(),
      );
    },

    async hasEmbeddings(ws, memoryIds) {
      const check = sql('SELECT 1 FROM memory_vectors WHERE workspace = ? AND memory_id = ?');
      return memoryIds.map((id) => check.get(ws, id) !== undefined);
    },

    async nearestMemories(ws, vector, k) {
      const dims = dimensionsOf(ws);
      if (dims === null || dims !== vector.length || k < 1) return [];
      const table = tableFor(dims);
      const rows = sql(
        `SELECT v.memory_id AS memoryId, n.distance AS distance
           FROM (SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ? AND workspace = ?) n
           JOIN memory_vectors v ON v.rid = n.rowid
           ORDER BY n.distance, v.memory_id`,
      ).all(new Float32Array(vector), k, ws) as { memoryId: string; distance: number }[];
      return rows;
    },

    async memoriesNeedingEmbedding(ws, limit) {
      const rows = sql(
        `SELECT ${prefixed('m', MEMORY_COLUMNS)}
           FROM embedding_queue q JOIN memories m ON m.workspace = q.workspace AND m.id = q.memory_id
           WHERE q.workspace = ? ORDER BY q.rid LIMIT ?`,
      ).all(ws, limit) as MemoryRow[];
      return rows.map(toMemory);
    },

    async workspacesNeedingEmbedding(limit) {
      // A skip scan over the queue's index: one seek per workspace, however many memories wait.
      return (
        sql(
          `WITH RECURSIVE next(ws) AS (
               SELECT min(workspace) FROM embedding_queue
               UNION ALL
               SELECT (SELECT min(workspace) FROM embedding_queue WHERE workspace > next.ws) FROM next
               WHERE next.ws IS NOT NULL
               LIMIT ?
             )
             SELECT ws FROM next WHERE ws IS NOT NULL`,
        ).all(limit + 1) as { ws: string }[]
      )
        .slice(0, limit)
        .map((row) => row.ws);
    },
  };
}
