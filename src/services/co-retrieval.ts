import type { AdjustmentSource } from '../domain/types.js';
import { compareIds } from './intelligence.js';
import { apply, edgeChange, requireMemory, type WeightChangeResult, type WriteScope } from './writes.js';

export interface CoRetrievalInput {
  ids: readonly string[];
  reason?: string | null;
  source: AdjustmentSource;
}

/**
 * Memories used together in one successful agent step: every existing, unpruned edge among them
 * (in either direction, any type) is strengthened by the source tier's step (AGENT: 0.00001 by
 * default). No edge is ever created; all changes and their WeightEvents commit in one transaction.
 * Fewer than two distinct memories, or no edges among them, change nothing.
 */
export async function reinforceCoRetrieval(scope: WriteScope, input: CoRetrievalInput): Promise<WeightChangeResult[]> {
  const memories = await Promise.all(input.ids.map((ref) => requireMemory(scope, ref, 'ids')));
  const ids = [...new Set(memories.map((memory) => memory.id))];
  if (ids.length < 2) return [];
  const members = new Set(ids);
  // OUTGOING from every member sees each edge among them exactly once, from its source.
  const lists = await scope.store.getAdjacent(scope.workspace, ids, {
    direction: 'OUTGOING',
    types: null,
    minWeight: null,
    includePruned: false,
    pruneThreshold: scope.policy.pruneThreshold,
    limitPerMemory: null,
  });
  const edgeIds = lists
    .flat()
    .filter((entry) => members.has(entry.neighbor.id))
    .map((entry) => entry.edge.id)
    .sort(compareIds);
  const step = scope.policy.tierDelta[input.source];
  return apply(
    scope,
    edgeIds.map((id) => edgeChange(id, step, input.source, input.reason ?? null)),
  );
}
