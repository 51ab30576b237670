import type DataLoader from 'dataloader';
import type { AdjacentEdge, Direction } from '../domain/types.js';
import type { WeightPolicy } from '../domain/weights.js';
import type { Loaders } from '../loaders/index.js';
import type { AdjacencyQuery, GraphStore } from '../store/port.js';
import type { WorkMeter } from '../store/work-budget.js';

/**
 * What the research views read with. Every graph read goes through the request's loaders, so
 * reads of many memories in one step (a BFS level, the parents of one field) cost one store
 * call; the store is used directly only for workspace-wide reads that have no memory keys.
 * The GraphQL context satisfies this shape.
 */
export interface ReadScope {
  workspace: string;
  store: GraphStore;
  loaders: Loaders;
  policy: WeightPolicy;
  limits: { walkBudget: number };
  /** The request's store work so far: views size their reads to what is left. */
  work: Pick<WorkMeter, 'remaining'>;
}

/** Loads many keys in one batch, failing like `load` would (DataLoader's loadMany returns errors instead). */
export function loadAll<K, V>(loader: DataLoader<K, V>, keys: readonly K[]): Promise<V[]> {
  return Promise.all(keys.map((key) => loader.load(key)));
}

export interface AdjacencyOptions {
  direction: Direction;
  /** A constant list: the list is part of the loader key, so equal questions share one batch. */
  types: readonly string[] | null;
  minWeight?: number | null;
  limitPerMemory?: number | null;
  /** Most entries for the whole call, filled in the order of the memory ids. */
  maxRows?: number | null;
}

/** Unpruned edges of each memory, strongest first; one store call for all memories of one step. */
export function adjacentOf(
  scope: ReadScope,
  memoryIds: readonly string[],
  options: AdjacencyOptions,
): Promise<AdjacentEdge[][]> {
  const query: AdjacencyQuery = {
    direction: options.direction,
    types: options.types,
    minWeight: options.minWeight ?? null,
    includePruned: false,
    pruneThreshold: scope.policy.pruneThreshold,
    limitPerMemory: options.limitPerMemory ?? null,
    ...(options.maxRows != null ? { maxRows: options.maxRows } : {}),
  };
  return loadAll(scope.loaders.adjacency(query), memoryIds);
}
