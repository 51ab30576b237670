import { conflict } from '../../domain/errors.js';
import type { GraphStore, ImportBatch } from '../port.js';
import { ID_TAKEN, KEY_TAKEN } from '../shared/store-errors.js';
import { createTermWriter } from './association-terms.js';
import { encodeJson } from './records.js';
import type { StoreContext } from './store-context.js';

/** Edges in one importBatch above which it logs the workspace as changed wholesale. */
const BULK_EDGES = 2_000;

/** A stable sort by a string key, computing each key once. */
function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keyed = items.map((item, at) => ({ item, at, key: key(item) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.at - b.at));
  return keyed.map((entry) => entry.item);
}

/** importBatch: many memories and edges in one transaction, in index order. */
export function createImportBatch(ctx: StoreContext): Pick<GraphStore, 'importBatch'> {
  const { db, sql, written, pruneLog } = ctx;
  const terms = createTermWriter(ctx);
  return {
    async importBatch(ws, batch: ImportBatch, now) {
      return written(() =>
        db
          .transaction(() => {
            // Rows go in sorted by the keys of the indexes they land in, so each b-tree is
            // written in runs instead of at random; the sort is stable, so when a batch names one
            // memory or edge twice the last still wins. Each row is a plain INSERT, and an UPDATE
            // only when the row exists: an upsert (INSERT .. ON CONFLICT DO UPDATE) on a table
            // with UPDATE triggers runs about twice as slowly, even for rows it inserts.
            const insertMemory = sql(
              `INSERT OR IGNORE INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            );
            const updateMemory = sql(
              `UPDATE memories SET key = ?, title = ?, content = ?, kind = ?, tags = ?, weight = ?, metadata = ?, updated_at = ?
                 WHERE workspace = ? AND id = ?`,
            );
            for (const m of sortedBy(batch.memories, (memory) => memory.id)) {
              const [tags, metadata] = [JSON.stringify(m.tags), encodeJson(m.metadata)];
              if (
                insertMemory.run(ws, m.id, m.key, m.title, m.content, m.kind, tags, m.weight, metadata, now, now)
                  .changes > 0
              ) {
                if (m.terms) terms.replace(ws, m.id, m.terms, false);
                continue;
              }
              // Not inserted: the id exists (update it), or the key belongs to another memory.
              if (
                updateMemory.run(m.key, m.title, m.content, m.kind, tags, m.weight, metadata, now, ws, m.id).changes ===
                0
              ) {
                throw conflict(KEY_TAKEN);
              }
              if (m.terms) terms.replace(ws, m.id, m.terms, true);
            }
            const insertEdge = sql(
              `INSERT OR IGNORE INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
            );
            const updateEdge = sql(
              `UPDATE edges SET weight = ?, metadata = ?, updated_at = ? WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?`,
            );
            // A large batch logs one "workspace changed" row instead of a row per edge (see the
            // migration): adjacency indexes rebuild after it rather than patch edge by edge.
            const bulk = batch.edges.length > BULK_EDGES;
            if (bulk) sql('INSERT OR IGNORE INTO edge_changes_muted (workspace) VALUES (?)').run(ws);
            for (const e of sortedBy(batch.edges, (edge) => `${edge.fromId}\u0000${edge.toId}\u0000${edge.type}`)) {
              const metadata = encodeJson(e.metadata);
              // OR IGNORE covers uniqueness only: a missing memory still fails the foreign key.
              if (insertEdge.run(ws, e.id, e.fromId, e.toId, e.type, e.weight, metadata, now, now).changes > 0)
                continue;
              if (updateEdge.run(e.weight, metadata, now, ws, e.fromId, e.toId, e.type).changes === 0) {
                throw conflict(ID_TAKEN);
              }
            }
            if (bulk) {
              sql('DELETE FROM edge_changes_muted WHERE workspace = ?').run(ws);
              sql('INSERT INTO edge_changes (workspace, edge_id) VALUES (?, NULL)').run(ws);
            }
            if (batch.edges.length > 0) pruneLog();
            return { memories: batch.memories.length, edges: batch.edges.length };
          })
          .immediate(),
      );
    },
  };
}
