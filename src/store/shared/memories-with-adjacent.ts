import type { MemoryRecord } from '../../domain/types.js';
import type { AdjacencyQuery, GraphStore, MemoryWithAdjacent } from '../port.js';

/**
 * getMemoriesWithAdjacent from the two calls it folds together, for a store whose calls cost no
 * round trip (SQLite) and for a caller that must read the adjacency in bounded parts (the work budget).
 */
export async function memoriesWithAdjacent(
  store: Pick<GraphStore, 'getMemories' | 'getAdjacent'>,
  workspace: string,
  refs: readonly string[],
  query: AdjacencyQuery,
): Promise<(MemoryWithAdjacent | null)[]> {
  const memories = await store.getMemories(workspace, refs);
  const found = memories.filter((memory): memory is MemoryRecord => memory !== null);
  const lists = await store.getAdjacent(
    workspace,
    found.map((memory) => memory.id),
    query,
  );
  let at = 0;
  return memories.map((memory) => (memory ? { memory, adjacent: lists[at++] ?? [] } : null));
}
