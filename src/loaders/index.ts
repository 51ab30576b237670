import DataLoader from 'dataloader';
import type { AdjacentEdge, EdgeRecord, MemoryRecord, WeightEventRecord } from '../domain/types.js';
import type { AdjacencyPageQuery, AdjacencyQuery, DegreeQuery, GraphStore } from '../store/port.js';

export interface Loaders {
  /** By id or key (an id match wins). */
  memory: DataLoader<string, MemoryRecord | null>;
  edge: DataLoader<string, EdgeRecord | null>;
  /** One loader per distinct query shape, so every memory asking the same question shares one batch. */
  adjacency(query: AdjacencyQuery): DataLoader<string, AdjacentEdge[]>;
  /** One page of adjacency per memory (Memory.neighborsConnection); memories at the same position share a batch. */
  adjacencyPage(query: AdjacencyPageQuery): DataLoader<string, AdjacentEdge[]>;
  /**
   * `memory`, reading the memory's adjacency for `query` in the same store call (a look-ahead of
   * graphql/neighbors-ahead.ts): the answer primes `adjacency(query)` and the memory loader.
   */
  memoryWithNeighbors(query: AdjacencyQuery): DataLoader<string, MemoryRecord | null>;
  degree(query: DegreeQuery): DataLoader<string, number>;
  history(limit: number): DataLoader<string, WeightEventRecord[]>;
  /** Whether a memory id has a vector (Memory.hasEmbedding). */
  hasEmbedding: DataLoader<string, boolean>;
  /** Forgets everything cached; a write calls it so its response shows the state after the write. */
  invalidate(): void;
}

interface Keyed<Q, V> {
  (query: Q): DataLoader<string, V>;
  clear(): void;
}

function keyed<Q, V>(make: (query: Q) => DataLoader<string, V>): Keyed<Q, V> {
  const loaders = new Map<string, DataLoader<string, V>>();
  const get = (query: Q) => {
    const key = JSON.stringify(query);
    let loader = loaders.get(key);
    if (!loader) {
      loader = make(query);
      loaders.set(key, loader);
    }
    return loader;
  };
  return Object.assign(get, { clear: () => loaders.clear() });
}

/** A value loadMany found: neither missing (null) nor the error of a failed load. */
export const isLoaded = <T>(value: T | Error | null | undefined): value is T =>
  value !== null && value !== undefined && !(value instanceof Error);

/**
 * A fresh set per request: caches never outlive one request or cross workspaces.
 * Adjacency answers carry the neighbor memories and edges, which prime the memory and edge
 * loaders, so `neighbors { memory { title } edge { weight } }` costs no further store call.
 */
export function createLoaders(store: GraphStore, workspace: string): Loaders {
  const memory = new DataLoader<string, MemoryRecord | null>((refs) => store.getMemories(workspace, refs));
  const edge = new DataLoader<string, EdgeRecord | null>((ids) => store.getEdges(workspace, ids));
  const primeEnds = (list: readonly AdjacentEdge[]) => {
    for (const entry of list) {
      memory.prime(entry.neighbor.id, entry.neighbor);
      edge.prime(entry.edge.id, entry.edge);
    }
  };
  const adjacency = keyed(
    (query: AdjacencyQuery) =>
      new DataLoader<string, AdjacentEdge[]>(async (ids) => {
        const lists = await store.getAdjacent(workspace, ids, query);
        for (const list of lists) primeEnds(list);
        return lists;
      }),
  );
  const adjacencyPage = keyed(
    (query: AdjacencyPageQuery) =>
      new DataLoader<string, AdjacentEdge[]>(async (ids) => {
        const lists = await store.getAdjacentPage(workspace, ids, query);
        for (const list of lists) primeEnds(list);
        return lists;
      }),
  );
  const memoryWithNeighbors = keyed(
    (query: AdjacencyQuery) =>
      new DataLoader<string, MemoryRecord | null>(async (refs) => {
        const found = await store.getMemoriesWithAdjacent(workspace, refs, query);
        const lists = adjacency(query);
        return found.map((entry) => {
          if (!entry) return null;
          memory.prime(entry.memory.id, entry.memory);
          lists.prime(entry.memory.id, entry.adjacent);
          primeEnds(entry.adjacent);
          return entry.memory;
        });
      }),
  );
  const degree = keyed(
    (query: DegreeQuery) => new DataLoader<string, number>((ids) => store.countAdjacent(workspace, ids, query)),
  );
  const history = keyed(
    (limit: number) =>
      new DataLoader<string, WeightEventRecord[]>((ids) => store.getEdgeHistories(workspace, ids, limit)),
  );
  const hasEmbedding = new DataLoader<string, boolean>((ids) => store.hasEmbeddings(workspace, ids));
  return {
    memory,
    edge,
    adjacency,
    adjacencyPage,
    memoryWithNeighbors,
    degree,
    history,
    hasEmbedding,
    invalidate() {
      hasEmbedding.clearAll();
      memory.clearAll();
      edge.clearAll();
      adjacency.clear();
      adjacencyPage.clear();
      memoryWithNeighbors.clear();
      degree.clear();
      history.clear();
    },
  };
}
