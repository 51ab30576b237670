import { checkMergedMetadata, mergeMetadata } from '../../domain/metadata.js';
import type { MemoryPatch, NewMemory } from '../../domain/types.js';
import { linkWeightChange } from '../../domain/weights.js';
import type { EdgeSelector, GraphStore, LinkRequest } from '../port.js';
import { UNBOUNDED } from '../shared/applied-weight-change.js';
import { missingMemory } from '../shared/store-errors.js';
import { createTermWriter } from './association-terms.js';
import {
  decodeJson,
  EDGE_COLUMNS,
  type EdgeRow,
  encodeJson,
  MEMORY_COLUMNS,
  type MemoryRow,
  toEdge,
  toMemory,
} from './records.js';
import type { StoreContext } from './store-context.js';
import { applyWeightChange } from './weights.js';

/**
 * Edges of a deleted memory removed per transaction: a hub's edges go in chunks (250 deletions,
 * their change-log rows and index updates: about 5-20 ms), with other requests served between
 * them, instead of one cascade that holds the event loop and the write lock for seconds.
 */
const DELETE_CHUNK = 250;

/** Creating, changing and deleting memories and edges, one transaction each (a hub's deletion in chunks). */
export function createRecordWrites(
  ctx: StoreContext,
): Pick<GraphStore, 'createMemory' | 'updateMemory' | 'deleteMemory' | 'linkEdge' | 'unlinkEdges'> {
  const { db, sql, written, memoryById, edgeById, edgeByTriple } = ctx;
  const terms = createTermWriter(ctx);
  return {
    async createMemory(ws, memory: NewMemory, now) {
      // Without terms it stays one autocommit statement; with them, one transaction with their rows.
      const insert = () => {
        const row = sql(
          `INSERT INTO memories (workspace, id, key, title, content, kind, tags, weight, metadata, created_at, updated_at)
             VALUES (@ws, @id, @key, @title, @content, @kind, @tags, @weight, @metadata, @now, @now)
             RETURNING ${MEMORY_COLUMNS}`,
          // all(), not get(): in autocommit the commit happens when the statement runs to its end,
          // and get() stops at the first row and drops a failed commit (disk full) silently.
        ).all({
          ws,
          id: memory.id,
          key: memory.key,
          title: memory.title,
          content: memory.content,
          kind: memory.kind,
          tags: JSON.stringify(memory.tags),
          weight: memory.weight,
          metadata: encodeJson(memory.metadata),
          now,
        })[0] as MemoryRow;
        if (memory.terms) terms.replace(ws, memory.id, memory.terms, false);
        return toMemory(row);
      };
      return written(() => (memory.terms ? db.transaction(insert).immediate() : insert()));
    },

    async updateMemory(ws, id, patch: MemoryPatch, now) {
      return written(() =>
        db
          .transaction(() => {
            const current = memoryById(ws, id);
            if (!current) return null;
            const row = sql(
              `UPDATE memories SET key = @key, title = @title, content = @content, kind = @kind, tags = @tags,
                   metadata = @metadata, updated_at = @now
                 WHERE workspace = @ws AND id = @id RETURNING ${MEMORY_COLUMNS}`,
            ).get({
              ws,
              id,
              key: patch.key !== undefined ? patch.key : current.key,
              title: patch.title ?? current.title,
              content: patch.content !== undefined ? patch.content : current.content,
              kind: patch.kind !== undefined ? patch.kind : current.kind,
              tags: patch.tags ? JSON.stringify(patch.tags) : current.tags,
              metadata: patch.metadata !== undefined ? encodeJson(patch.metadata) : current.metadata,
              now,
            }) as MemoryRow;
            if (patch.terms) terms.replace(ws, id, patch.terms, true);
            return toMemory(row);
          })
          .immediate(),
      );
    },

    async deleteMemory(ws, id) {
      let chunked = 0;
      for (;;) {
        const removed = written(() =>
          db
            .transaction(() => {
              // Only while more than a chunk is left: the last chunk goes with the memory, in one transaction.
              const { n } = sql(
                `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE workspace = @ws AND from_id = @id LIMIT @over))
                        + (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE workspace = @ws AND to_id = @id LIMIT @over)) AS n`,
              ).get({ ws, id, over: DELETE_CHUNK + 1 }) as { n: number };
              if (n <= DELETE_CHUNK) return 0;
              const outgoing =
                sql(`SELECT 1 FROM edges WHERE workspace = ? AND from_id = ? LIMIT 1`).get(ws, id) !== undefined;
              const end = outgoing ? 'from_id' : 'to_id';
              return sql(
                `DELETE FROM edges WHERE rid IN (SELECT rid FROM edges WHERE workspace = ? AND ${end} = ? LIMIT ?)`,
              ).run(ws, id, DELETE_CHUNK).changes;
            })
            .immediate(),
        );
        if (removed === 0) break;
        chunked += removed;
        await new Promise((resume) => setImmediate(resume));
      }
      const last = written(() =>
        db
          .transaction(() => {
            // Two index counts (an OR would scan the workspace); no edge joins a memory to itself.
            const { n } = sql(
              `SELECT (SELECT COUNT(*) FROM edges WHERE workspace = @ws AND from_id = @id)
                      + (SELECT COUNT(*) FROM edges WHERE workspace = @ws AND to_id = @id) AS n`,
            ).get({ ws, id }) as { n: number };
            const { changes } = sql(`DELETE FROM memories WHERE workspace = ? AND id = ?`).run(ws, id);
            return changes === 0 ? null : n;
          })
          .immediate(),
      );
      return last === null ? null : { edgesRemoved: last + chunked };
    },

    async linkEdge(ws, link: LinkRequest, now) {
      return written(() =>
        db
          .transaction(() => {
            for (const end of [link.fromId, link.toId]) {
              if (!memoryById(ws, end)) throw missingMemory(end);
            }
            const existing = edgeByTriple(ws, link.fromId, link.toId, link.type);
            if (!existing) {
              const row = sql(
                `INSERT INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at)
                   VALUES (@ws, @id, @fromId, @toId, @type, @weight, @metadata, @now, @now, NULL)
                   RETURNING ${EDGE_COLUMNS}`,
              ).get({
                ws,
                id: link.id,
                fromId: link.fromId,
                toId: link.toId,
                type: link.type,
                weight: link.weight ?? link.defaultWeight,
                metadata: encodeJson(link.metadata),
                now,
              }) as EdgeRow;
              // A reason is kept as an event in this transaction: the edge never exists without it.
              const noted = linkWeightChange(link, row, true);
              const applied = noted ? applyWeightChange(ctx, ws, noted, UNBOUNDED, now) : null;
              return { edge: applied?.edge ?? toEdge(row), created: true };
            }
            const merged = checkMergedMetadata(mergeMetadata(decodeJson(existing.metadata), link.metadata));
            sql(
              `UPDATE edges SET metadata = ?, last_confirmed_at = ?, updated_at = ? WHERE workspace = ? AND id = ?`,
            ).run(encodeJson(merged), now, now, ws, existing.id);
            const weightChange = linkWeightChange(link, existing, false);
            if (weightChange) applyWeightChange(ctx, ws, weightChange, UNBOUNDED, now);
            return { edge: toEdge(edgeById(ws, existing.id) as EdgeRow), created: false };
          })
          .immediate(),
      );
    },

    async unlinkEdges(ws, selector: EdgeSelector) {
      return written(() => {
        const rows =
          'id' in selector
            ? (sql(`DELETE FROM edges WHERE workspace = ? AND id = ? RETURNING ${EDGE_COLUMNS}`).all(
                ws,
                selector.id,
              ) as EdgeRow[])
            : (sql(
                `DELETE FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ? RETURNING ${EDGE_COLUMNS}`,
              ).all(ws, selector.fromId, selector.toId, selector.type) as EdgeRow[]);
        return rows.map(toEdge);
      });
    },
  };
}
