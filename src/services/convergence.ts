import { SUPPORTING_TYPES } from '../domain/evidence.js';
import type { EdgeRecord } from '../domain/types.js';
import { roundWeight } from '../domain/weights.js';
import { adjacentOf, type ReadScope } from './research-views.js';

export interface ConvergenceView {
  memoryId: string;
  /** Distinct memories validating, replicating or reproducing this one. */
  support: number;
  /** Sum over those sources of the weight of each one's strongest supporting edge. */
  weight: number;
  /** The same filter the ranking used, so `validations` lists exactly what was counted. */
  minWeight: number | null;
}

export interface ConvergenceQuery {
  minSupport: number;
  minWeight: number | null;
  limit: number;
}

/**
 * Memories with at least `minSupport` independent validations: distinct source memories with an
 * unpruned VALIDATES, REPLICATES or REPRODUCES edge to them. Best supported first (more sources,
 * then more summed weight, then memory id). One store call, aggregated by the store.
 */
export async function rankConvergence(scope: ReadScope, query: ConvergenceQuery): Promise<ConvergenceView[]> {
  const ranked = await scope.store.rankTargetsBySources(scope.workspace, {
    types: SUPPORTING_TYPES,
    minSources: query.minSupport,
    minWeight: query.minWeight,
    pruneThreshold: scope.policy.pruneThreshold,
    limit: query.limit,
  });
  return ranked.map((entry) => ({
    memoryId: entry.memoryId,
    support: entry.sources,
    weight: roundWeight(entry.weight),
    minWeight: query.minWeight,
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
