import { SUPERSEDES } from '../domain/evidence.js';
import type { AdjacentEdge, EdgeRecord, MemoryRecord } from '../domain/types.js';
import { adjacentOf, loadAll, type ReadScope } from './research-views.js';

/** Longest SUPERSEDES chain followed; a longer (or cyclic) history stops here. */
const MAX_VERSION_HOPS = 50;

/** Most versions read on each side of one memory (strongest SUPERSEDES edges first): a memory superseded 10,000 times costs 100 rows. */
const MAX_VERSIONS_PER_MEMORY = 100;

const SUPERSEDES_ONLY: readonly string[] = [SUPERSEDES];

/** Newer versions of each memory: the sources of unpruned SUPERSEDES edges pointing at it, strongest first. */
export function newerVersions(scope: ReadScope, memoryIds: readonly string[]): Promise<AdjacentEdge[][]> {
  return adjacentOf(scope, memoryIds, {
    direction: 'INCOMING',
    types: SUPERSEDES_ONLY,
    limitPerMemory: MAX_VERSIONS_PER_MEMORY,
  });
}

/** Older versions each memory replaces: the targets of its unpruned SUPERSEDES edges, strongest first. */
export function olderVersions(scope: ReadScope, memoryIds: readonly string[]): Promise<AdjacentEdge[][]> {
  return adjacentOf(scope, memoryIds, {
    direction: 'OUTGOING',
    types: SUPERSEDES_ONLY,
    limitPerMemory: MAX_VERSIONS_PER_MEMORY,
  });
}

/**
 * The ids, among those given, of superseded memories (an unpruned SUPERSEDES edge points at
 * them). One store call for the whole list.
 */
export async function supersededAmong(scope: ReadScope, memoryIds: readonly string[]): Promise<Set<string>> {
  if (memoryIds.length === 0) return new Set();
  const counts = await loadAll(
    scope.loaders.degree({
      direction: 'INCOMING',
      types: SUPERSEDES_ONLY,
      includePruned: false,
      pruneThreshold: scope.policy.pruneThreshold,
    }),
    memoryIds,
  );
  return new Set(memoryIds.filter((_, index) => (counts[index] ?? 0) > 0));
}

/**
 * Follows incoming SUPERSEDES edges from a memory to its newest version; at a fork the strongest
 * edge (then the smaller edge id) wins, and a cycle stops the walk. A memory nothing supersedes
 * is its own current version. When many memories ask in one request, each step of all of them
 * is one store call.
 */
export async function currentVersion(
  scope: ReadScope,
  memory: MemoryRecord,
): Promise<{ memory: MemoryRecord; via: EdgeRecord[] }> {
  const seen = new Set([memory.id]);
  const via: EdgeRecord[] = [];
  let current = memory;
  for (let hop = 0; hop < MAX_VERSION_HOPS; hop++) {
    const [newer = []] = await newerVersions(scope, [current.id]);
    const next = newer.find((entry) => !seen.has(entry.neighbor.id));
    if (!next) break;
    seen.add(next.neighbor.id);
    via.push(next.edge);
    current = next.neighbor;
  }
  return { memory: current, via };
}

export interface NewerVersion {
  memory: MemoryRecord;
  /** The SUPERSEDES edge from this version to the one it replaces. */
  edge: EdgeRecord;
  /** 1 for a direct successor of a start memory, 2 for its successor, ... */
  level: number;
  /** True when nothing supersedes this version. */
  current: boolean;
}

/**
 * Every version newer than the given memories, level by level (one store call per level). The
 * first level may be passed in when the caller already read the memories' incoming SUPERSEDES
 * edges as part of a wider read.
 */
export async function allNewerVersions(
  scope: ReadScope,
  startIds: readonly string[],
  firstLevel?: readonly AdjacentEdge[][],
): Promise<NewerVersion[]> {
  const seen = new Set(startIds);
  const found: NewerVersion[] = [];
  let lists = firstLevel ?? (await newerVersions(scope, startIds));
  for (let level = 1; level <= MAX_VERSION_HOPS; level++) {
    const next: NewerVersion[] = [];
    for (const entry of lists.flat()) {
      if (seen.has(entry.neighbor.id)) continue;
      seen.add(entry.neighbor.id);
      next.push({ memory: entry.neighbor, edge: entry.edge, level, current: true });
    }
    if (next.length === 0) break;
    lists = await newerVersions(
      scope,
      next.map((version) => version.memory.id),
    );
    next.forEach((version, index) => {
      version.current = (lists[index] ?? []).length === 0;
    });
    found.push(...next);
  }
  return found;
}
