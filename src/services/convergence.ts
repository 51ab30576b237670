import { SUPPORTING_TYPES } from '../domain/evidence.js';
import type { EdgeRecord } from '../domain/types.js';
import { roundWeight } from '../domain/weights.js';
import type { SourceRank } from '../store/port.js';
import { adjacentOf, type ReadScope } from './research-views.js';

export interface ConvergenceView {
  memoryId: string;
  /** Distinct memories validating, replicating or reproducing this one. */
  support: number;
  /** Sum over those sources of the weight of each one's strongest supporting edge. */
  weight: number;
  /** The same filter the ranking used, so `validations` lists exactly what was counted. */
  minWeight: number | null;
  /** The entry as the store ranked it: a page continues after it. */
  rank: SourceRank;
}

export interface ConvergenceFilter {
  minSupport: number;
  minWeight: number | null;
}

export interface ConvergenceQuery extends ConvergenceFilter {
  limit: number;
}

/**
 * Memories with at least `minSupport` independent validations: distinct source memories with an
 * unpruned VALIDATES, REPLICATES or REPRODUCES edge to them. Best supported first (more sources,
 * then more summed weight, then memory id). One store call, aggregated by the store.
 */
export function rankConvergence(scope: ReadScope, query: ConvergenceQuery): Promise<ConvergenceView[]> {
  return convergenceAfter(scope, query, null, query.limit);
}

/** The sort key of a convergence entry, in the view's order: (sources, weight, memory id). */
export const convergencePosition = (view: ConvergenceView): [number, number, string] => [
  view.rank.sources,
  view.rank.weight,
  view.rank.memoryId,
];

/**
 * At most `limit` entries of the ranking after `after` (a convergencePosition), the store doing
 * the keyset: a page costs one aggregation, whatever page it is.
 */
export async function convergenceAfter(
  scope: ReadScope,
  filter: ConvergenceFilter,
  after: readonly (string | number)[] | null,
  limit: number,
): Promise<ConvergenceView[]> {
  const ranked = await scope.store.rankTargetsBySources(scope.workspace, {
    types: SUPPORTING_TYPES,
    minSources: filter.minSupport,
    minWeight: filter.minWeight,
    pruneThreshold: scope.policy.pruneThreshold,
    after: after === null ? null : { sources: Number(after[0]), weight: Number(after[1]), memoryId: String(after[2]) },
    limit,
  });
  return ranked.map((entry) => ({
    memoryId: entry.memoryId,
    support: entry.sources,
    weight: roundWeight(entry.weight),
    minWeight: filter.minWeight,
    rank: entry,
  }));
}

/** The supporting edges pointing at a converging memory, strongest first (batched across the list). */
export async function validationsOf(scope: ReadScope, view: ConvergenceView): Promise<EdgeRecord[]> {
  const [list = []] = await adjacentOf(scope, [view.memoryId], {
    direction: 'INCOMING',
    types: SUPPORTING_TYPES,
    minWeight: view.minWeight,
  });
  return list.map((entry) => entry.edge);
}
