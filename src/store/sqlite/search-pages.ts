import type { GraphStore } from '../port.js';
import type { StoreContext } from './store-context.js';

/** Expired entries a save deletes at most: the purge's cost is fixed whatever has piled up. */
const PURGE_PER_SAVE = 100;

/** Saved search orders in the `search_pages` table; like recall records, they touch no memory or edge. */
export function createSqliteSearchPages({
  db,
  sql,
}: StoreContext): Pick<GraphStore, 'saveSearchPages' | 'getSearchPages'> {
  const save = db.transaction(
    (ws: string, id: string, memoryIds: string, createdAt: string, expiresAt: string, now: string) => {
      sql(
        `DELETE FROM search_pages WHERE workspace = ? AND id IN (
         SELECT id FROM search_pages WHERE workspace = ? AND expires_at <= ? ORDER BY expires_at LIMIT ${PURGE_PER_SAVE})`,
      ).run(ws, ws, now);
      sql('INSERT INTO search_pages (workspace, id, memory_ids, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
        ws,
        id,
        memoryIds,
        createdAt,
        expiresAt,
      );
    },
  );
  return {
    async saveSearchPages(ws, pages, now) {
      save(ws, pages.id, JSON.stringify(pages.memoryIds), pages.createdAt, pages.expiresAt, now);
    },

    async getSearchPages(ws, id, now) {
      const row = sql('SELECT memory_ids FROM search_pages WHERE workspace = ? AND id = ? AND expires_at > ?').get(
        ws,
        id,
        now,
      ) as { memory_ids: string } | undefined;
      return row ? (JSON.parse(row.memory_ids) as string[]) : null;
    },
  };
}
