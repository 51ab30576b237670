import { newId, nowIso } from '../../domain/ids.js';
import type { AdjustmentSource } from '../../domain/types.js';
import type { WeightChangeRequest } from '../../domain/weights.js';
import type { RecalledResult, RecallRecord } from '../../store/port.js';
import { edgeChange, type WriteScope } from '../writes.js';

/** The relation type of the associations feedback learns. */
export const LEARNED_RELATION = 'RECALLED_WITH';

/** How many of a recall's best seeds a used memory gets associated with. */
const LEARN_FROM_SEEDS = 3;

export interface LearningSettings {
  /** Weight a new association starts at. */
  learnedWeight: number;
  /** Most learned associations of one memory in each direction. */
  learnedPerMemory: number;
}

export interface LearnedAssociations {
  /** Weight changes to apply with the feedback's other changes, in one transaction. */
  changes: WeightChangeRequest[];
  /** Associations linked (at weight 0) for this feedback: unlinked again if its transaction fails. */
  linked: string[];
  /** The association from the best seed that has one to the memory: the recall's cue hangs on it (cues.ts). */
  cueEdge: string | null;
}

/**
 * What USED feedback on a recalled memory teaches beyond the path that brought it: the recall's
 * best seeds (its best word or vector matches or named seeds, at most LEARN_FROM_SEEDS) become
 * associated with the memory used, by a `RECALLED_WITH` edge from each seed to it. A later recall
 * that seeds on one of them, even with a different question, spreads along the association to the
 * memory. An association that exists is strengthened by the source tier's step; a new one is
 * linked at weight 0 (hidden, as pruned) and raised to `learnedWeight` by a change of its own, so
 * it has a WeightEvent like every learned weight and reverting that event unlearns it. Bounded: a
 * memory that already has `learnedPerMemory` learned associations in a direction gets no new one
 * there (existing ones are still strengthened). A failed feedback changes nothing: the caller
 * unlinks what was linked when the transaction fails.
 */
export async function learnedAssociations(
  scope: WriteScope,
  record: RecallRecord,
  used: RecalledResult,
  settings: LearningSettings,
  change: { source: AdjustmentSource; reason: string },
): Promise<LearnedAssociations> {
  const memoryId = used.memoryId;
  // Results are best first: the recall's best seeds, whichever signal found them.
  const seeds = record.results
    .filter((result) => result.seed && result.memoryId !== memoryId)
    .slice(0, LEARN_FROM_SEEDS)
    .map((result) => result.memoryId);
  const linked: string[] = [];
  if (seeds.length === 0) return { changes: [], linked, cueEdge: null };
  // A seed deleted since the recall is left out.
  const present = (await Promise.all(seeds.map((id) => scope.findMemory(id)))).map((memory) => memory?.id);
  const live = seeds.filter((id, index) => present[index] === id);
  const known = await Promise.all(
    live.map((seed) => scope.store.findEdge(scope.workspace, seed, memoryId, LEARNED_RELATION)),
  );
  const changes: WeightChangeRequest[] = [];
  const fresh: string[] = [];
  // Each seed's association to the memory, known or linked here: the best seed's carries the cue.
  const edgeOf = new Map<string, string>();
  const cueEdge = () => live.map((seed) => edgeOf.get(seed)).find((id) => id !== undefined) ?? null;
  // An association on the result's own path is strengthened with the path already.
  const onPath = new Set(used.path);
  live.forEach((seed, index) => {
    const edge = known[index];
    if (!edge) fresh.push(seed);
    else edgeOf.set(seed, edge.id);
    if (edge && !onPath.has(edge.id)) {
      changes.push(edgeChange(edge.id, scope.policy.tierDelta[change.source], change.source, change.reason, true));
    }
  });
  if (fresh.length === 0 || settings.learnedPerMemory === 0) return { changes, linked, cueEdge: cueEdge() };
  const degree = (ids: readonly string[], direction: 'INCOMING' | 'OUTGOING') =>
    scope.store.countAdjacent(scope.workspace, ids, {
      direction,
      types: [LEARNED_RELATION],
      includePruned: true,
      pruneThreshold: scope.policy.pruneThreshold,
    });
  const [[into = 0], outOf] = await Promise.all([degree([memoryId], 'INCOMING'), degree(fresh, 'OUTGOING')]);
  let room = settings.learnedPerMemory - into;
  for (const [index, seed] of fresh.entries()) {
    if (room <= 0) break;
    if ((outOf[index] ?? 0) >= settings.learnedPerMemory) continue;
    const { edge } = await scope.store.linkEdge(
      scope.workspace,
      {
        id: newId(),
        fromId: seed,
        toId: memoryId,
        type: LEARNED_RELATION,
        weight: 0,
        defaultWeight: scope.policy.defaultEdgeWeight,
        metadata: null,
        reason: null,
        eventId: newId(),
      },
      nowIso(),
    );
    linked.push(edge.id);
    edgeOf.set(seed, edge.id);
    changes.push(edgeChange(edge.id, settings.learnedWeight - edge.weight, change.source, change.reason, true));
    room--;
  }
  return { changes, linked, cueEdge: cueEdge() };
}
