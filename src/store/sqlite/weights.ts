import type { WeightEventRecord } from '../../domain/types.js';
import { roundWeight, type WeightChangeRequest, weightEventTime } from '../../domain/weights.js';
import { groupInKeyOrder, inKeyOrder, uniqueKeys } from '../key-order.js';
import type { AppliedWeightChange, GraphStore, WeightEventFilter } from '../port.js';
import { appliedWeightChange } from '../shared/applied-weight-change.js';
import { missingTarget, revertRefused } from '../shared/store-errors.js';
import {
  EDGE_COLUMNS,
  type EdgeRow,
  MEMORY_COLUMNS,
  type MemoryRow,
  toEdge,
  toMemory,
  toWeightEvent,
  type WeightEventRow,
} from './records.js';
import { asJson, IDS } from './sql-text.js';
import type { StoreContext } from './store-context.js';

const insertEvent = ({ sql }: StoreContext, ws: string, event: WeightEventRecord) =>
  sql(
    `INSERT INTO weight_events (workspace, id, at, source, edge_id, memory_id, old, new, delta, reason, reverted_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  ).run(
    ws,
    event.id,
    event.at,
    event.source,
    event.edgeId,
    event.memoryId,
    event.old,
    event.new,
    event.delta,
    event.reason,
  );

/** One atomic clamped read-modify-write; prev_weight captures the value it replaced. */
export function applyWeightChange(
  ctx: StoreContext,
  ws: string,
  change: WeightChangeRequest,
  bounds: { floor: number; ceiling: number },
  now: string,
): AppliedWeightChange | null {
  const { sql } = ctx;
  const table = change.target.kind === 'edge' ? 'edges' : 'memories';
  const next = change.operation.kind === 'delta' ? 'weight + @amount' : '@amount';
  const amount = change.operation.kind === 'delta' ? change.operation.delta : change.operation.value;
  const columns = change.target.kind === 'edge' ? EDGE_COLUMNS : MEMORY_COLUMNS;
  // The caller's transaction is immediate: no other writer's event can land between this read and the write.
  const newest = sql(
    `SELECT at, id FROM weight_events WHERE workspace = ? AND ${change.target.kind === 'edge' ? 'edge_id' : 'memory_id'} = ?
     ORDER BY at DESC, id DESC LIMIT 1`,
  ).get(ws, change.target.id) as { at: string; id: string } | undefined;
  const at = weightEventTime(now, change.eventId, newest ?? null);
  const row = sql(
    `UPDATE ${table} SET prev_weight = weight, weight = ROUND(MIN(@ceiling, MAX(@floor, ${next})), 12), updated_at = @at
     WHERE workspace = @ws AND id = @id RETURNING prev_weight, ${columns}`,
  ).get({ ws, id: change.target.id, amount, floor: bounds.floor, ceiling: bounds.ceiling, at }) as
    | ((EdgeRow | MemoryRow) & { prev_weight: number })
    | undefined;
  if (!row) {
    if (change.skipIfMissing) return null;
    throw missingTarget(change.target);
  }
  const event: WeightEventRecord = {
    id: change.eventId,
    at,
    source: change.source,
    edgeId: change.target.kind === 'edge' ? change.target.id : null,
    memoryId: change.target.kind === 'memory' ? change.target.id : null,
    old: row.prev_weight,
    new: row.weight,
    delta: roundWeight(row.weight - row.prev_weight),
    reason: change.reason,
    revertedBy: null,
  };
  insertEvent(ctx, ws, event);
  if (change.revertsEventId) {
    const marked = sql(
      `UPDATE weight_events SET reverted_by = ? WHERE workspace = ? AND id = ? AND reverted_by IS NULL`,
    ).run(event.id, ws, change.revertsEventId);
    // A concurrent revert got there first; failing here rolls this one back whole.
    if (marked.changes === 0) throw revertRefused(change.revertsEventId);
  }
  return appliedWeightChange(
    change,
    event,
    change.target.kind === 'edge' ? toEdge(row as EdgeRow) : toMemory(row as MemoryRow),
  );
}

/** The weight event log: its reads, and weight changes applied atomically with their events. */
export function createWeightEvents(
  ctx: StoreContext,
): Pick<GraphStore, 'listWeightEvents' | 'getEdgeHistories' | 'getWeightEvents' | 'applyWeightChanges'> {
  const { db, sql, written } = ctx;
  return {
    async listWeightEvents(ws, filter: WeightEventFilter) {
      // Only the filters given, from fixed fragments, so each combination gets its own plan and
      // uses its index ("@x IS NULL OR col = @x" would read every event of the workspace): an
      // edge or a memory with a source has an index of its own. The row-value comparison is a
      // range on the index's (at, id) tail: a page starts exactly at its cursor.
      const where = [
        filter.edgeId !== null ? 'AND edge_id = @edgeId' : '',
        filter.memoryId !== null ? 'AND memory_id = @memoryId' : '',
        filter.source !== null ? 'AND source = @source' : '',
        filter.after ? 'AND (at, id) < (@afterAt, @afterId)' : '',
      ].join(' ');
      const rows = sql(
        `SELECT * FROM weight_events WHERE workspace = @ws ${where} ORDER BY at DESC, id DESC LIMIT @limit`,
      ).all({
        ws,
        edgeId: filter.edgeId ?? undefined,
        memoryId: filter.memoryId ?? undefined,
        source: filter.source ?? undefined,
        afterAt: filter.after?.at,
        afterId: filter.after?.id,
        limit: filter.limit,
      }) as WeightEventRow[];
      return rows.map(toWeightEvent);
    },

    async getEdgeHistories(ws, edgeIds, limit) {
      if (edgeIds.length === 0) return [];
      // The subquery runs once per edge and stops after `limit` index entries, where a window over
      // the edges' events would read every event they ever had.
      const rows = sql(
        `SELECT w.* FROM json_each(?) AS k
           JOIN weight_events w ON w.rid IN (
             SELECT rid FROM weight_events
             WHERE workspace = ? AND edge_id = k.value ORDER BY at DESC, id DESC LIMIT ?)
         ORDER BY w.at DESC, w.id DESC`,
      ).all(asJson(uniqueKeys(edgeIds)), ws, limit) as WeightEventRow[];
      return groupInKeyOrder(edgeIds, rows, (row) => row.edge_id as string, toWeightEvent);
    },
    async getWeightEvents(ws, ids) {
      if (ids.length === 0) return [];
      const rows = sql(`SELECT * FROM weight_events WHERE workspace = ? AND id IN (${IDS})`).all(
        ws,
        asJson(ids),
      ) as WeightEventRow[];
      return inKeyOrder(ids, new Map(rows.map((row) => [row.id, toWeightEvent(row)])), null);
    },
    async applyWeightChanges(ws, changes, bounds, now) {
      return written(() =>
        db
          .transaction(() => changes.flatMap((change) => applyWeightChange(ctx, ws, change, bounds, now) ?? []))
          .immediate(),
      );
    },
  };
}
