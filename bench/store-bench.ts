import type { Config } from '../src/config.js';
import type { Direction } from '../src/domain/types.js';
import { findShortestPath, traverse, type WalkOptions } from '../src/services/walks.js';
import * as writes from '../src/services/writes.js';
import type { AdjacencyQuery, GraphStore } from '../src/store/port.js';
import { type Csr, createCsrSearch } from './csr.js';
import { type GeneratedGraph, RELATION_TYPES, randomPairs } from './generator.js';
import { createRng, randomInt } from './lib/rng.js';
import { now, type Summary, summarize } from './lib/stats.js';

export interface Timed {
  label: string;
  summary: Summary;
  /** Median over the bound's median, when the row has a bound. */
  ratio?: number;
  note?: string;
}

export interface PathComparison {
  maxHops: number;
  store: Summary;
  bound: Summary;
  ratio: number;
  /** Pairs where the store's hop count differs from the bound's (must be 0). */
  mismatches: number;
  found: number;
  pairs: number;
}

export interface StoreBenchInput {
  store: GraphStore;
  /** The same file without the adjacency index: walks by SQL, for comparison. */
  sqlStore: GraphStore;
  workspace: string;
  graph: GeneratedGraph;
  csr: Csr;
  pairs: [number, number][];
  config: Config;
  rounds: number;
  seed: number;
}

const walkOptions = (config: Config, direction: Direction = 'BOTH'): WalkOptions => ({
  direction,
  types: null,
  pruneThreshold: config.policy.pruneThreshold,
  budget: config.limits.walkBudget,
});

/** The store without its one-call search: what findShortestPath does over expandFrontier alone. */
const levelByLevel = (store: GraphStore): GraphStore =>
  new Proxy(store, {
    get: (target, property) => (property === 'shortestPath' ? undefined : Reflect.get(target, property)),
  });

/**
 * Store-level path against the bound: for every pair, in every round, the CSR search and the
 * store's path run back to back, so machine noise hits both alike. Hop counts are compared.
 */
export async function comparePaths(input: StoreBenchInput, maxHops: number): Promise<PathComparison> {
  const { store, workspace, graph, csr, pairs, config } = input;
  const search = createCsrSearch(csr);
  const options = walkOptions(config);
  const storeTimes: number[] = [];
  const boundTimes: number[] = [];
  let mismatches = 0;
  let found = 0;
  for (let round = 0; round < input.rounds; round++) {
    for (const [a, b] of pairs) {
      const from = graph.ids[a] as string;
      const to = graph.ids[b] as string;
      let started = now();
      const bound = search(a, b, maxHops);
      boundTimes.push(now() - started);
      started = now();
      const outcome = await findShortestPath(store, workspace, from, to, maxHops, options);
      storeTimes.push(now() - started);
      if (round === 0) {
        const hops = outcome.found ? outcome.edgeIds.length : -1;
        if (hops !== (bound ? bound.length - 1 : -1)) mismatches++;
        if (outcome.found) found++;
      }
    }
  }
  const storeSummary = summarize(storeTimes);
  const boundSummary = summarize(boundTimes);
  return {
    maxHops,
    store: storeSummary,
    bound: boundSummary,
    ratio: storeSummary.median / boundSummary.median,
    mismatches,
    found,
    pairs: pairs.length,
  };
}

export async function timeEach<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<Summary> {
  const times: number[] = [];
  for (const item of items) {
    const started = now();
    await work(item);
    times.push(now() - started);
  }
  return summarize(times);
}

export async function readBenchmarks(input: StoreBenchInput): Promise<Timed[]> {
  const { store, sqlStore, workspace, graph, pairs, config } = input;
  const rows: Timed[] = [];
  const options = walkOptions(config);
  const starts = pairs.map(([a]) => graph.ids[a] as string);

  // Walk variants, for the record: the same path level by level (index-backed expandFrontier), and by SQL.
  const hopsSix = pairs.map(([a, b]) => [graph.ids[a] as string, graph.ids[b] as string] as const);
  rows.push({
    label: 'path maxHops 6, level by level over indexed expandFrontier',
    summary: await timeEach(hopsSix, ([from, to]) =>
      findShortestPath(levelByLevel(store), workspace, from, to, 6, options),
    ),
  });
  rows.push({
    label: 'path maxHops 6, SQL only (no index)',
    summary: await timeEach(hopsSix, ([from, to]) => findShortestPath(sqlStore, workspace, from, to, 6, options)),
  });

  const neighbors: AdjacencyQuery = {
    direction: 'BOTH',
    types: null,
    minWeight: null,
    includePruned: false,
    pruneThreshold: config.policy.pruneThreshold,
    limitPerMemory: 20,
  };
  rows.push({
    label: 'neighbors limit 20 (random memory)',
    summary: await timeEach(starts, (id) => store.getAdjacent(workspace, [id], neighbors)),
  });
  const hub = graph.ids[graph.topHub.index] as string;
  rows.push({
    label: `neighbors limit 20 (top hub, degree ${graph.topHub.degree})`,
    summary: await timeEach(
      Array.from({ length: 50 }, () => hub),
      (id) => store.getAdjacent(workspace, [id], neighbors),
    ),
  });
  rows.push({
    label: 'neighbors limit 20 of 100 memories, one call',
    summary: await timeEach(
      Array.from({ length: 20 }, (_, round) => starts.slice(round % 100, (round % 100) + 100)),
      (ids) => store.getAdjacent(workspace, ids, neighbors),
    ),
  });
  rows.push({
    label: 'traverse maxDepth 3 limit 20',
    summary: await timeEach(starts, (id) => traverse(store, workspace, id, 3, 20, options)),
  });
  return rows;
}

export const WEAKEN_LABEL = 'weaken (amount 0.01, CONSCIOUS)';

/** The domain services' write scope over one workspace of a store, as the mutations build it. */
function writeScope(store: GraphStore, workspace: string, config: Config): writes.WriteScope {
  return {
    store,
    workspace,
    policy: config.policy,
    strictTypes: config.strictTypes,
    limits: config.limits,
    findMemory: async (ref) => (await store.getMemories(workspace, [ref]))[0] ?? null,
  };
}

/** How the write services name edge `edge` of the generated graph: its two memories and its type. */
const edgeTriple = (graph: GeneratedGraph, edge: number) => ({
  from: graph.ids[graph.edgeFrom[edge] as number] as string,
  to: graph.ids[graph.edgeTo[edge] as number] as string,
  type: RELATION_TYPES[graph.edgeType[edge] as number] as string,
});

/** `count` edges of the generated graph, by index, drawn from `seed`. */
export function randomEdges(graph: GeneratedGraph, count: number, seed: number): number[] {
  const rng = createRng(seed ^ 0x77);
  return Array.from({ length: count }, () => randomInt(rng, graph.spec.edges));
}

/** Weakens each of `edges` (indexes into the generated graph) by 0.01, as the `weaken` mutation does. */
export function weakenEach(
  store: GraphStore,
  workspace: string,
  graph: GeneratedGraph,
  config: Config,
  edges: readonly number[],
): Promise<Summary> {
  const scope = writeScope(store, workspace, config);
  return timeEach(edges, (edge) =>
    writes.nudgeEdge(
      scope,
      {
        ...edgeTriple(graph, edge),
        amount: 0.01,
        reason: 'bench',
        source: 'CONSCIOUS',
      },
      -1,
      0.3,
    ),
  );
}

/** Writes through the domain services (they change the graph: run them last). */
export async function writeBenchmarks(input: StoreBenchInput): Promise<Timed[]> {
  const { store, workspace, graph, pairs, config } = input;
  const rows: Timed[] = [];
  const options = walkOptions(config);
  const scope = writeScope(store, workspace, config);
  const edges = randomEdges(graph, pairs.length, input.seed);
  rows.push({
    label: WEAKEN_LABEL,
    summary: await weakenEach(store, workspace, graph, config, edges),
  });
  rows.push({
    label: 'link (new edge)',
    summary: await timeEach(pairs, ([a, b]) =>
      writes.link(scope, { from: graph.ids[a] as string, to: graph.ids[b] as string, type: 'BENCH_LINK', weight: 0.5 }),
    ),
  });
  // Coherence has a price only right after a write: the next walk catches up from the change log.
  // Other pairs than the ones just linked directly.
  const alternating = randomPairs(graph, 100, input.seed ^ 0x99);
  const afterWrite: number[] = [];
  for (const [index, [a, b]] of alternating.entries()) {
    const edge = edges[index] as number;
    await writes.nudgeEdge(
      scope,
      {
        ...edgeTriple(graph, edge),
        amount: 0.01,
        source: 'CONSCIOUS',
      },
      1,
      0.01,
    );
    const started = now();
    await findShortestPath(store, workspace, graph.ids[a] as string, graph.ids[b] as string, 6, options);
    afterWrite.push(now() - started);
  }
  rows.push({ label: 'path maxHops 6 right after a weaken (index catch-up included)', summary: summarize(afterWrite) });
  return rows;
}
