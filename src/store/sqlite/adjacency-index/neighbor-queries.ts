import type { FrontierStep } from '../../../domain/types.js';
import type { AdjacencyQuery, DegreeQuery, FrontierExpansion, FrontierQuery } from '../../port.js';
import { frontierExpansion } from '../../shared/frontier-expansion.js';
import { listsFor } from './lists.js';
import type { AdjacentSelection } from './types.js';
import type { WorkspaceIndex } from './workspace-index.js';

// The port's one-hop reads over a current index whose scratch is sized (index.ts checks both).

/** Every unpruned edge leaving the given memories, in walk order, cut at the budget. */
export function collectFrontier(
  index: WorkspaceIndex,
  memoryIds: readonly string[],
  query: FrontierQuery,
): FrontierExpansion {
  const lists = listsFor(query.direction);
  const mask = index.typeMaskFor(query.types);
  const steps: FrontierStep[] = [];
  // Edges read against the budget: those returned, and those of memories maxTotalWeight left out.
  let examined = 0;
  const { nodeIds, weight, scratchSlots, scratchOther } = index;
  const seen = index.seenF;
  const stamp = index.stamps(1);
  for (const id of memoryIds) {
    const u = index.nodeOf.get(id);
    if (u === undefined || seen[u] === stamp) continue;
    seen[u] = stamp;
    const cap = query.maxTotalWeight?.get(id);
    // Weighed where the edges lie, before any merge: a hub passed over costs no scratch work.
    if (cap !== undefined && index.outweighs(u, lists, query.pruneThreshold, mask, cap)) {
      examined += index.countPassing(u, lists, query.pruneThreshold, mask);
      if (examined > query.budget) return frontierExpansion(steps, true, examined);
      continue;
    }
    const count = index.collect(u, lists, query.pruneThreshold, mask);
    for (let k = 0; k < count; k++) {
      if (examined === query.budget) return frontierExpansion(steps, true, examined);
      examined++;
      const slot = scratchSlots[k] as number;
      steps.push({
        from: id,
        to: nodeIds[scratchOther[k] as number] as string,
        edgeId: index.idAt(slot),
        weight: weight[slot] as number,
      });
    }
  }
  return frontierExpansion(steps, false, examined);
}

/** Each memory's edges as getAdjacent lists them (strongest first, then edge id; filtered and cut per memory). */
export function selectAdjacent(
  index: WorkspaceIndex,
  memoryIds: readonly string[],
  query: AdjacencyQuery,
): AdjacentSelection[][] {
  const lists = listsFor(query.direction);
  const mask = index.typeMaskFor(query.types);
  const threshold = query.includePruned ? Number.NEGATIVE_INFINITY : query.pruneThreshold;
  const atLeast = query.minWeight ?? Number.NEGATIVE_INFINITY;
  const limit = query.limitPerMemory ?? Number.POSITIVE_INFINITY;
  const { nodeIds, nodeRids, rids, scratchSlots, scratchOther, scratchOutgoing } = index;
  return memoryIds.map((id) => {
    const u = index.nodeOf.get(id);
    if (u === undefined) return [];
    const count = index.collect(u, lists, threshold, mask, atLeast, limit);
    const picked: AdjacentSelection[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const slot = scratchSlots[k] as number;
      const other = scratchOther[k] as number;
      picked[k] = {
        edgeId: index.idAt(slot),
        otherId: nodeIds[other] as string,
        direction: scratchOutgoing[k] ? 'OUTGOING' : 'INCOMING',
        edgeRid: rids[slot] as number,
        otherRid: other < nodeRids.length ? (nodeRids[other] as number) : 0,
      };
    }
    return picked;
  });
}

/** Each memory's count of the edges selectAdjacent would list without a limit. */
export function countDegrees(index: WorkspaceIndex, memoryIds: readonly string[], query: DegreeQuery): number[] {
  const lists = listsFor(query.direction);
  const mask = index.typeMaskFor(query.types);
  const threshold = query.includePruned ? Number.NEGATIVE_INFINITY : query.pruneThreshold;
  return memoryIds.map((id) => {
    const u = index.nodeOf.get(id);
    return u === undefined ? 0 : index.countPassing(u, lists, threshold, mask);
  });
}
