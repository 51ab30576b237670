import type { WeightEventRecord } from '../../domain/types.js';
import type { WeightChangeRequest } from '../../domain/weights.js';
import type { AppliedWeightChange } from '../port.js';
import { appliedWeightChange } from '../shared/applied-weight-change.js';
import { missingTarget, revertRefused } from '../shared/store-errors.js';
import { APPLY_EDGE_WEIGHTS, APPLY_MEMORY_WEIGHTS } from './cypher/weights.js';
import type { TransactionLike } from './driver.js';
import type { Neo4jReads } from './reads.js';
import { toEdge, toMemory, toNumber, toWeightEvent } from './records.js';
import { rows } from './transactions.js';

type Bounds = { floor: number; ceiling: number };
type Run = { kind: 'edge' | 'memory'; items: { index: number; change: WeightChangeRequest }[] };

/**
 * Consecutive changes of one kind whose targets (and revert marks) are all distinct: each run is
 * one UNWIND statement, and no row of a statement reads what another row of it wrote. A change to
 * a target already in the run starts the next run, so changes still apply in the given order.
 */
function runsOf(changes: readonly WeightChangeRequest[]): Run[] {
  const runs: (Run & { touched: Set<string> })[] = [];
  changes.forEach((change, index) => {
    const keys = [`target:${change.target.id}`, `event:${change.eventId}`];
    if (change.revertsEventId) keys.push(`event:${change.revertsEventId}`);
    const last = runs.at(-1);
    if (last && last.kind === change.target.kind && keys.every((key) => !last.touched.has(key))) {
      last.items.push({ index, change });
      for (const key of keys) last.touched.add(key);
    } else {
      runs.push({ kind: change.target.kind, items: [{ index, change }], touched: new Set(keys) });
    }
  });
  return runs.map(({ kind, items }) => ({ kind, items }));
}

/**
 * Applies changes inside the caller's transaction, run by run (see runsOf). Everything it
 * computes is returned, nothing is kept outside, so the driver may re-run the transaction.
 */
export async function applyChanges(
  tx: TransactionLike,
  ws: string,
  changes: readonly WeightChangeRequest[],
  bounds: Bounds,
  now: string,
): Promise<AppliedWeightChange[]> {
  const results: AppliedWeightChange[] = new Array(changes.length);
  for (const run of runsOf(changes)) {
    const records = await rows(tx, run.kind === 'edge' ? APPLY_EDGE_WEIGHTS : APPLY_MEMORY_WEIGHTS, {
      ws,
      changes: run.items.map(({ index, change }) => ({
        index,
        eventId: change.eventId,
        targetId: change.target.id,
        isDelta: change.operation.kind === 'delta',
        amount: change.operation.kind === 'delta' ? change.operation.delta : change.operation.value,
        source: change.source,
        reason: change.reason,
        revertsEventId: change.revertsEventId ?? null,
      })),
      floor: bounds.floor,
      ceiling: bounds.ceiling,
      now,
    });
    const done = new Set<number>();
    for (const record of records) {
      const index = toNumber(record.get('index'), 'index');
      const change = changes[index] as WeightChangeRequest;
      if (record.get('revertOk') !== true) throw revertRefused(change.revertsEventId);
      const target =
        run.kind === 'edge'
          ? toEdge(record.get('target'), record.get('fromId'), record.get('toId'))
          : toMemory(record.get('target'));
      results[index] = appliedWeightChange(change, toWeightEvent(record.get('event')), target);
      done.add(index);
    }
    const missing = run.items.find(({ index, change }) => !done.has(index) && !change.skipIfMissing);
    if (missing) throw missingTarget(missing.change.target);
  }
  // Skipped changes (targets another writer removed) leave holes; the answer lists the applied ones in order.
  return results.filter((result) => result !== undefined);
}

/**
 * The answer of an earlier attempt whose commit succeeded but whose reply was lost, rebuilt from
 * what it stored; null when the stored events are not exactly these changes' (a real conflict).
 */
export async function replayedChanges(
  reads: Pick<Neo4jReads, 'getWeightEvents' | 'getEdges' | 'getMemories'>,
  ws: string,
  changes: readonly WeightChangeRequest[],
): Promise<AppliedWeightChange[] | null> {
  const events = await reads.getWeightEvents(
    ws,
    changes.map((change) => change.eventId),
  );
  const matches = events.every((event, index) => {
    const change = changes[index] as WeightChangeRequest;
    const target = change.target.kind === 'edge' ? event?.edgeId : event?.memoryId;
    return event !== null && target === change.target.id && event.source === change.source;
  });
  if (!matches) return null;
  const idsOf = (kind: 'edge' | 'memory') =>
    changes.filter((change) => change.target.kind === kind).map((change) => change.target.id);
  const targets = new Map<string, Parameters<typeof appliedWeightChange>[2]>();
  for (const edge of await reads.getEdges(ws, idsOf('edge'))) if (edge) targets.set(`edge:${edge.id}`, edge);
  for (const memory of await reads.getMemories(ws, idsOf('memory')))
    if (memory) targets.set(`memory:${memory.id}`, memory);
  return changes.map((change, index) =>
    appliedWeightChange(
      change,
      events[index] as WeightEventRecord,
      targets.get(`${change.target.kind}:${change.target.id}`) ?? null,
    ),
  );
}
