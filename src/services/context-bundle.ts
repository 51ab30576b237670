import { JUDGING_TYPES, SUPERSEDES } from '../domain/evidence.js';
import type { AdjacentEdge, EdgeRecord, MemoryRecord } from '../domain/types.js';
import { roundWeight } from '../domain/weights.js';
import { compareIds, strongestFirst } from '../store/key-order.js';
import { type ContradictionView, contradictionsAmong, markResolved } from './contradictions.js';
import { adjacentOf, type ReadScope } from './research-views.js';
import { allNewerVersions } from './supersession.js';

/** Why a memory is in a context bundle; also the order of the ranking. */
type ContextRole = 'SEED' | 'NEWER_VERSION' | 'CONTRADICTING' | 'NEIGHBOR';

export interface ContextItemView {
  memory: MemoryRecord;
  role: ContextRole;
  /** What the item was ranked by inside its role (see rankContext). */
  score: number;
  /** The edges that brought the memory in. */
  edges: EdgeRecord[];
}

export interface ContextBundleView {
  items: ContextItemView[];
  /** Edges whose two ends are both in the bundle, strongest first. */
  edges: EdgeRecord[];
  /** Open (unresolved) contradictions touching a seed whose two ends are in the bundle, strongest first. */
  contradictions: ContradictionView[];
  /** True when the budget left memories out. */
  truncated: boolean;
}

export interface ContextOptions {
  budget: number;
  /** Relation types of the neighbors to include; null for all. */
  types: readonly string[] | null;
  /** Lightest neighbor or contradiction edge to consider. */
  minWeight: number | null;
}

/** SUPERSEDES and the judging types are read in one adjacency call; their order is part of the loader key. */
const SPECIAL_TYPES: readonly string[] = [SUPERSEDES, ...JUDGING_TYPES];

/**
 * SUPERSEDES and judging edges read per seed, strongest first, as a multiple of the budget: a
 * seed validated by 50,000 memories costs this many rows, not its degree.
 */
const SPECIAL_PER_BUDGET = 3;

/**
 * A context bundle for an agent, ranked and cut to `budget` memories:
 * 1. the seeds, in the order given (score: the memory's own weight);
 * 2. versions newer than a seed (following SUPERSEDES), current versions first, then nearer ones
 *    (score: the SUPERSEDES edge's weight);
 * 3. the other side of each open contradiction touching a seed, strongest first (score: strength);
 * 4. neighbors of the seeds, by relevance = the sum of the weights of their edges to the seeds,
 *    then their own weight, then id.
 * A memory keeps its first role. Store work does not grow with the number of seeds: the seeds'
 * neighbors (one call, at most `budget` per seed), their SUPERSEDES and judging edges (one call,
 * the strongest 3 x `budget` per seed),
 * one call per further level of a SUPERSEDES chain, and one call to see which contradiction ends
 * are superseded. Seeds must already be resolved (they are the first store call).
 */
export async function buildContext(
  scope: ReadScope,
  seeds: readonly MemoryRecord[],
  options: ContextOptions,
): Promise<ContextBundleView> {
  const seedIds = [...new Set(seeds.map((seed) => seed.id))];
  const [neighborLists, specialLists] = await Promise.all([
    adjacentOf(scope, seedIds, {
      direction: 'BOTH',
      types: options.types,
      minWeight: options.minWeight,
      limitPerMemory: options.budget,
    }),
    adjacentOf(scope, seedIds, {
      direction: 'BOTH',
      types: SPECIAL_TYPES,
      limitPerMemory: options.budget * SPECIAL_PER_BUDGET,
    }),
  ]);
  const incomingSupersedes = specialLists.map((list) =>
    list.filter((entry) => entry.direction === 'INCOMING' && entry.edge.type === SUPERSEDES),
  );
  const candidates = contradictionsAmong(
    specialLists.flat().map((entry) => entry.edge),
    options.minWeight,
  );
  const [versions, contradictions] = await Promise.all([
    allNewerVersions(scope, seedIds, incomingSupersedes),
    markResolved(scope, candidates),
  ]);
  const open = contradictions
    .filter((found) => !found.resolved)
    .sort((x, y) => y.strength - x.strength || compareIds(x.aId, y.aId) || compareIds(x.bId, y.bId));

  const known = new Map<string, MemoryRecord>();
  for (const entry of [...neighborLists.flat(), ...specialLists.flat()]) known.set(entry.neighbor.id, entry.neighbor);
  for (const seed of seeds) known.set(seed.id, seed);

  const ranked: ContextItemView[] = [];
  const roles = new Set<string>();
  const add = (item: ContextItemView) => {
    if (roles.has(item.memory.id)) return;
    roles.add(item.memory.id);
    ranked.push(item);
  };

  for (const id of seedIds)
    add({
      memory: known.get(id) as MemoryRecord,
      role: 'SEED',
      score: (known.get(id) as MemoryRecord).weight,
      edges: [],
    });
  const orderedVersions = [...versions].sort(
    (x, y) =>
      Number(y.current) - Number(x.current) ||
      x.level - y.level ||
      y.edge.weight - x.edge.weight ||
      compareIds(x.memory.id, y.memory.id),
  );
  for (const version of orderedVersions)
    add({ memory: version.memory, role: 'NEWER_VERSION', score: version.edge.weight, edges: [version.edge] });
  const seedSet = new Set(seedIds);
  for (const found of open) {
    const other = seedSet.has(found.aId) ? found.bId : found.aId;
    const memory = known.get(other);
    if (memory) add({ memory, role: 'CONTRADICTING', score: found.strength, edges: found.edges });
  }
  for (const neighbor of rankNeighbors(neighborLists)) add(neighbor);

  const items = ranked.slice(0, options.budget);
  const inBundle = new Set(items.map((item) => item.memory.id));
  const both = (edge: EdgeRecord) => inBundle.has(edge.fromId) && inBundle.has(edge.toId);
  const edges = new Map<string, EdgeRecord>();
  for (const edge of [
    ...neighborLists.flat().map((entry) => entry.edge),
    ...versions.map((version) => version.edge),
    ...open.flatMap((found) => found.edges),
  ]) {
    if (both(edge)) edges.set(edge.id, edge);
  }
  return {
    items,
    edges: [...edges.values()].sort(strongestFirst),
    contradictions: open.filter((found) => inBundle.has(found.aId) && inBundle.has(found.bId)),
    truncated: ranked.length > items.length,
  };
}

function rankNeighbors(lists: readonly AdjacentEdge[][]): ContextItemView[] {
  const byMemory = new Map<string, ContextItemView>();
  for (const entry of lists.flat()) {
    const item = byMemory.get(entry.neighbor.id) ?? {
      memory: entry.neighbor,
      role: 'NEIGHBOR' as const,
      score: 0,
      edges: [],
    };
    if (item.edges.some((edge) => edge.id === entry.edge.id)) continue;
    item.score = roundWeight(item.score + entry.edge.weight);
    item.edges.push(entry.edge);
    byMemory.set(entry.neighbor.id, item);
  }
  return [...byMemory.values()].sort(
    (x, y) => y.score - x.score || y.memory.weight - x.memory.weight || compareIds(x.memory.id, y.memory.id),
  );
}
