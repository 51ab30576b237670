import type { AdjacentEdge, MemoryRecord } from '../../domain/types.js';
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
  return pairedWithLists(memories, lists);
}

/**
 * Each memory found with its list, `lists` holding one list per memory found, in order: the shape
 * of getMemoriesWithAdjacent's answer, however a store came by the two.
 */
export function pairedWithLists(
  memories: readonly (MemoryRecord | null)[],
  lists: readonly AdjacentEdge[][],
): (MemoryWithAdjacent | null)[] {
  let at = 0;
  return memories.map((memory) => (memory ? { memory, adjacent: lists[at++] ?? [] } : null));
}
