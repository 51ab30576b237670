import type { NewMemory } from '../src/domain/types.js';
import type { ImportBatch, ImportEdge } from '../src/store/port.js';
import { createRng, randomInt } from './lib/rng.js';

/**
 * A seeded memory graph with the shape of real ones: a long tail of memories with a few edges and a
 * few hubs with thousands. Each edge end is drawn either uniformly or from a skewed distribution
 * (index = n·u^γ over a fixed shuffle of the memories), which gives power-law degrees; incoming
 * ends are more skewed than outgoing ones (everyone cites the same few sources).
 * Same seed and sizes, same graph: memory ids, edge ids, types and weights are all derived from it.
 */
export interface GraphSpec {
  memories: number;
  edges: number;
  seed: number;
}

export const RELATION_TYPES = ['RELATED_TO', 'CAUSED_BY', 'CITES', 'SUPERSEDES'] as const;
const TYPE_SHARE = [0.4, 0.25, 0.2, 0.15];
/** Share of edges at or below the default prune threshold (0.05): walks must skip them. */
const PRUNED_SHARE = 0.02;
const OUT_SKEW = { share: 0.6, gamma: 1.8 };
const IN_SKEW = { share: 0.7, gamma: 2.5 };

const KINDS = ['fact', 'hypothesis', 'decision', 'experiment'];
const TAGS = Array.from({ length: 30 }, (_, index) => `tag${index}`);
const WORDS = (
  'graph memory edge weight cache postgres sqlite latency index query path hub frontier batch import ' +
  'export agent recall feedback decision hypothesis experiment result evidence source model schema ' +
  'plugin server client request response budget level search token relation cause effect version ' +
  'replica shard tenant cluster queue stream commit rollback snapshot journal vacuum page cursor'
).split(' ');

export interface GeneratedGraph {
  spec: GraphSpec;
  /** Memory ids by index. */
  ids: string[];
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  /** Index into RELATION_TYPES. */
  edgeType: Uint8Array;
  edgeWeight: Float64Array;
  /** The full record of memory `index` (built on demand: a 1M-memory graph never holds them all). */
  memory(index: number): NewMemory;
  /** The id of edge `index`. */
  edgeId(index: number): string;
  /** The memory with the most unpruned edges (both directions) and its degree. */
  topHub: { index: number; degree: number };
}

/** A UUIDv7-shaped id: time-ordered by `index`, the rest from the seed. Looks and sorts like the ids Engram makes. */
function uuidLike(base: number, index: number, seed: number): string {
  const rng = createRng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const hex = (value: number, digits: number) => Math.floor(value).toString(16).padStart(digits, '0');
  const time = hex(base + index, 12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(rng() * 0x1000, 3)}-${hex(0x8000 + rng() * 0x4000, 4)}-${hex(rng() * 0x1000000, 6)}${hex(rng() * 0x1000000, 6)}`;
}

export function generateGraph(spec: GraphSpec): GeneratedGraph {
  const { memories: n, edges: m, seed } = spec;
  const rng = createRng(seed);
  const ids = Array.from({ length: n }, (_, index) => uuidLike(0x18f00000000, index, seed));

  // Fixed shuffles decide which memories are the hubs, separately for each direction.
  const shuffled = (salt: number) => {
    const order = new Int32Array(n);
    for (let index = 0; index < n; index++) order[index] = index;
    const shuffle = createRng(seed ^ salt);
    for (let index = n - 1; index > 0; index--) {
      const other = randomInt(shuffle, index + 1);
      const swap = order[index] as number;
      order[index] = order[other] as number;
      order[other] = swap;
    }
    return order;
  };
  const outOrder = shuffled(0x51ed);
  const inOrder = shuffled(0xa11ce);
  const end = (order: Int32Array, skew: { share: number; gamma: number }) =>
    rng() < skew.share ? (order[Math.min(n - 1, Math.floor(n * rng() ** skew.gamma))] as number) : randomInt(rng, n);
  const pickType = () => {
    let u = rng();
    for (let type = 0; type < TYPE_SHARE.length; type++) {
      u -= TYPE_SHARE[type] as number;
      if (u < 0) return type;
    }
    return TYPE_SHARE.length - 1;
  };

  // Candidate (from, to, type) triples packed into one float each, sorted and de-duplicated: the
  // store keeps one edge per triple. Drawing a few percent extra covers the duplicates.
  let unique = new Float64Array(0);
  let wanted = m;
  while (unique.length < m) {
    const draws = new Float64Array(Math.ceil(wanted * 1.05) + 16);
    let count = 0;
    while (count < draws.length) {
      const from = end(outOrder, OUT_SKEW);
      const to = end(inOrder, IN_SKEW);
      if (from === to) continue;
      draws[count++] = (from * n + to) * 4 + pickType();
    }
    const merged = new Float64Array(unique.length + draws.length);
    merged.set(unique);
    merged.set(draws, unique.length);
    merged.sort();
    let kept = 0;
    for (let index = 0; index < merged.length; index++) {
      if (index === 0 || merged[index] !== merged[index - 1]) merged[kept++] = merged[index] as number;
    }
    unique = merged.slice(0, kept);
    wanted = m - unique.length;
  }
  // Shuffle, then keep m: import order is not sorted by endpoint in real life.
  for (let index = unique.length - 1; index > 0; index--) {
    const other = randomInt(rng, index + 1);
    const swap = unique[index] as number;
    unique[index] = unique[other] as number;
    unique[other] = swap;
  }
  const edgeFrom = new Int32Array(m);
  const edgeTo = new Int32Array(m);
  const edgeType = new Uint8Array(m);
  const edgeWeight = new Float64Array(m);
  const degree = new Int32Array(n);
  for (let index = 0; index < m; index++) {
    const key = unique[index] as number;
    const type = key % 4;
    const pair = (key - type) / 4;
    const to = pair % n;
    const from = (pair - to) / n;
    edgeFrom[index] = from;
    edgeTo[index] = to;
    edgeType[index] = type;
    const pruned = rng() < PRUNED_SHARE;
    edgeWeight[index] = pruned
      ? Math.round((0.01 + rng() * 0.04) * 1000) / 1000
      : Math.round((0.06 + rng() * 0.94) * 1000) / 1000;
    if (!pruned) {
      degree[from] = (degree[from] as number) + 1;
      degree[to] = (degree[to] as number) + 1;
    }
  }
  let topHub = { index: 0, degree: 0 };
  for (let index = 0; index < n; index++) {
    if ((degree[index] as number) > topHub.degree) topHub = { index, degree: degree[index] as number };
  }

  const memory = (index: number): NewMemory => {
    const local = createRng((seed * 31 + index) >>> 0);
    const word = () => WORDS[randomInt(local, WORDS.length)] as string;
    const tagCount = randomInt(local, 4);
    return {
      id: ids[index] as string,
      key: index % 10 === 0 ? `bench-${index}` : null,
      title: `${word()} ${word()} ${word()} #${index}`,
      content: Array.from({ length: 12 }, word).join(' '),
      kind: KINDS[index % KINDS.length] as string,
      tags: Array.from({ length: tagCount }, () => TAGS[randomInt(local, TAGS.length)] as string).filter(
        (tag, at, all) => all.indexOf(tag) === at,
      ),
      weight: 0.5,
      metadata: index % 50 === 0 ? { source: 'bench', index } : null,
    };
  };
  const edgeId = (index: number) => uuidLike(0x18f80000000, index, seed ^ 0xed9e);

  return { spec, ids, edgeFrom, edgeTo, edgeType, edgeWeight, memory, edgeId, topHub };
}

export function importEdge(graph: GeneratedGraph, index: number): ImportEdge {
  return {
    id: graph.edgeId(index),
    fromId: graph.ids[graph.edgeFrom[index] as number] as string,
    toId: graph.ids[graph.edgeTo[index] as number] as string,
    type: RELATION_TYPES[graph.edgeType[index] as number] as string,
    weight: graph.edgeWeight[index] as number,
    metadata: null,
  };
}

/** The edge as `engram import` reads it (an NDJSON line without the edge id). */
export function edgeLine(graph: GeneratedGraph, index: number): string {
  const edge = importEdge(graph, index);
  return JSON.stringify({
    record: 'edge',
    from: edge.fromId,
    to: edge.toId,
    type: edge.type,
    weight: edge.weight,
    metadata: null,
  });
}

/** The graph as import batches: all memories first, then the edges. */
export function* importBatches(graph: GeneratedGraph, size: number): Generator<ImportBatch> {
  const { memories: n, edges: m } = graph.spec;
  for (let start = 0; start < n; start += size) {
    const memories: NewMemory[] = [];
    for (let index = start; index < Math.min(n, start + size); index++) memories.push(graph.memory(index));
    yield { memories, edges: [] };
  }
  for (let start = 0; start < m; start += size) {
    const edges: ImportEdge[] = [];
    for (let index = start; index < Math.min(m, start + size); index++) edges.push(importEdge(graph, index));
    yield { memories: [], edges };
  }
}

/** `count` random (from, to) memory index pairs, from their own seed so they do not depend on the graph's draws. */
export function randomPairs(graph: GeneratedGraph, count: number, seed: number): [number, number][] {
  const rng = createRng(seed);
  const n = graph.spec.memories;
  const pairs: [number, number][] = [];
  while (pairs.length < count) {
    const a = randomInt(rng, n);
    const b = randomInt(rng, n);
    if (a !== b) pairs.push([a, b]);
  }
  return pairs;
}
