import type { AdjustmentSource } from '../domain/types.js';
import { compareIds } from '../store/key-order.js';
import { apply, edgeChange, requireMemory, tooManyEdges, type WeightChangeResult, type WriteScope } from './writes.js';

export interface CoRetrievalInput {
  ids: readonly string[];
  reason?: string | null;
  source: AdjustmentSource;
}

/**
 * Memories used together in one successful agent step: every existing, unpruned edge among them
 * (in either direction, any type) is strengthened by the source tier's step (AGENT: 0.00001 by
 * default), at most ENGRAM_FEEDBACK_MAX_EDGES of them (more is refused, nothing written). No edge
 * is ever created; all changes and their WeightEvents commit in one transaction; an edge another
 * writer removes meanwhile is skipped.
 * Fewer than two distinct memories, or no edges among them, change nothing.
 */
export async function reinforceCoRetrieval(scope: WriteScope, input: CoRetrievalInput): Promise<WeightChangeResult[]> {
  const memories = await Promise.all(input.ids.map((ref) => requireMemory(scope, ref, 'ids')));
  const ids = [...new Set(memories.map((memory) => memory.id))];
  if (ids.length < 2) return [];
  // Both ends among the members: the cost grows with the pairs of members, not with their degrees.
  const edges = await scope.store.edgesAmong(scope.workspace, ids, {
    pruneThreshold: scope.policy.pruneThreshold,
    limit: scope.limits.feedbackMaxEdges + 1,
  });
  if (edges.length > scope.limits.feedbackMaxEdges) {
    throw tooManyEdges(scope, 'reinforceCoRetrieval', 'pass fewer memories');
  }
  const edgeIds = edges.map((edge) => edge.id).sort(compareIds);
  const step = scope.policy.tierDelta[input.source];
  return apply(
    scope,
    edgeIds.map((id) => edgeChange(id, step, input.source, input.reason ?? null, true)),
  );
}
