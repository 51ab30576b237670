import type { GraphStore, RecallRecord } from '../port.js';
import type { StoreContext } from './store-context.js';

/** Expired records a save deletes at most: the purge's cost is fixed whatever has piled up. */
const PURGE_PER_SAVE = 100;

interface RecallRow {
  id: string;
  query: string | null;
  results: string;
  truncated: number;
  created_at: string;
  expires_at: string;
}

const COLUMNS = 'id, query, results, truncated, created_at, expires_at';

const toRecord = (row: RecallRow): RecallRecord => ({
  id: row.id,
  query: row.query,
  results: JSON.parse(row.results) as RecallRecord['results'],
  truncated: row.truncated === 1,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * Recall records in the `recalls` table. They touch no memory or edge, so they bypass the write
 * path that keeps the adjacency index in step (StoreContext.written).
 */
export function createRecallRecords({
  db,
  sql,
}: StoreContext): Pick<GraphStore, 'saveRecall' | 'getRecall' | 'listRecalls'> {
  const save = db.transaction((ws: string, record: RecallRecord, now: string) => {
    sql(
      `DELETE FROM recalls WHERE rid IN (
         SELECT rid FROM recalls WHERE workspace = ? AND expires_at <= ? ORDER BY expires_at LIMIT ${PURGE_PER_SAVE})`,
    ).run(ws, now);
    sql(
      `INSERT INTO recalls (workspace, id, query, results, truncated, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      ws,
      record.id,
      record.query,
      JSON.stringify(record.results),
      record.truncated ? 1 : 0,
      record.createdAt,
      record.expiresAt,
    );
  });
  return {
    async saveRecall(ws, record, now) {
      // A record is kept for a while to trace feedback, not for ever: its commit does not wait for
      // the log to reach the disk (NORMAL in WAL mode; it is synced with the next FULL commit or
      // checkpoint, and a crash of the process loses nothing). A power cut may lose the latest
      // records, never the file's consistency; every other write stays FULL. The fsync cost a
      // recall 0.5-2 ms of the synchronous connection.
      db.pragma('synchronous = NORMAL');
      try {
        save(ws, record, now);
      } finally {
        db.pragma('synchronous = FULL');
      }
    },

    async getRecall(ws, id, now) {
      const row = sql(`SELECT ${COLUMNS} FROM recalls WHERE workspace = ? AND id = ? AND expires_at > ?`).get(
        ws,
        id,
        now,
      ) as RecallRow | undefined;
      return row ? toRecord(row) : null;
    },

    async listRecalls(ws, { limit, now, after }) {
      // Newest first down the (workspace, created_at, id) index, from the cursor when there is one,
      // stopping after `limit` rows. Left to itself the planner took the expiry index and sorted
      // every unexpired record of the workspace for each page.
      const found = sql(
        `SELECT ${COLUMNS} FROM recalls INDEXED BY recalls_created WHERE workspace = @ws AND expires_at > @now
           ${after ? 'AND (created_at, id) < (@afterCreatedAt, @afterId)' : ''}
         ORDER BY created_at DESC, id DESC LIMIT @limit`,
      ).all({ ws, now, afterCreatedAt: after?.createdAt, afterId: after?.id, limit }) as RecallRow[];
      return found.map(toRecord);
    },
  };
}
