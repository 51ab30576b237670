import type { FrontierStep } from '../../domain/types.js';
import { compareIds } from '../../store/key-order.js';
import type { RecalledResult } from '../../store/port.js';

/**
 * Spreading activation, layer by layer, as pure functions over the steps a store returned.
 *
 * Seeds form layer 0 with their own activation. Each hop, every memory of the last layer passes
 * `activation × decay` on, split over its edges in proportion to their weights, and never more
 * than `activation × weight × decay` along one edge: `activation × weight × decay / max(1, Σ
 * weights)`. A memory with one or two edges passes what it passed before normalisation; a hub with
 * a thousand splits the same amount a thousand ways instead of handing every neighbour as much as a
 * quiet memory hands its one (personalised PageRank's normalisation, with the decay as the walk's
 * chance to go on). A memory reached from several memories of the layer receives the sum. In the
 * first hop seeds pass to each other too (a word match linked to other matches gains their
 * support); otherwise activation only flows outward: a memory spreads once, in the hop after it was
 * reached, and never back into an earlier layer, so the numbers of a small graph can be worked out
 * by hand (docs/recall.md has a worked example).
 */
export interface ActivationState {
  /** Activation of every memory reached: a seed's own, or what a reached memory received. */
  readonly activation: Map<string, number>;
  /** The edges that carried most of each memory's activation, seed end first; empty for a seed. */
  readonly paths: Map<string, readonly string[]>;
  /** The memories reached by the last hop (the seeds before the first): the next hop starts from them. */
  frontier: string[];
  /** What each seed received from the other seeds in the first hop. */
  readonly seedSupport: Map<string, number>;
  /** Hops spread so far. */
  hops: number;
}

export function startActivation(seeds: ReadonlyMap<string, number>): ActivationState {
  const activation = new Map(seeds);
  const paths = new Map<string, readonly string[]>([...seeds.keys()].map((id) => [id, []]));
  return { activation, paths, frontier: [...seeds.keys()].sort(compareIds), seedSupport: new Map(), hops: 0 };
}

/** What one memory passes along one edge; the best carrier of a memory is the largest, then the smallest edge id. */
interface Carrier {
  amount: number;
  edgeId: string;
  from: string;
}

/**
 * One hop: spreads from the frontier along `steps` (the frontier's edges, already filtered), and
 * makes the newly reached memories the next frontier (in id order). `excluded` memories receive
 * nothing and do not spread (superseded ones under currentOnly). Returns the memories reached.
 */
export function spreadHop(
  state: ActivationState,
  steps: readonly FrontierStep[],
  decay: number,
  excluded: ReadonlySet<string> = new Set(),
): string[] {
  const frontier = new Set(state.frontier);
  const seedsSupport = state.hops === 0;
  const spread = new Map<string, number>();
  for (const step of steps) {
    if (frontier.has(step.from)) spread.set(step.from, (spread.get(step.from) ?? 0) + step.weight);
  }
  const received = new Map<string, number>();
  const best = new Map<string, Carrier>();
  for (const step of steps) {
    const source = state.activation.get(step.from);
    if (!frontier.has(step.from) || source === undefined || step.to === step.from) continue;
    const amount = (source * step.weight * decay) / Math.max(1, spread.get(step.from) as number);
    if (seedsSupport && frontier.has(step.to)) {
      state.seedSupport.set(step.to, (state.seedSupport.get(step.to) ?? 0) + amount);
      continue;
    }
    if (state.activation.has(step.to) || excluded.has(step.to)) continue;
    received.set(step.to, (received.get(step.to) ?? 0) + amount);
    const current = best.get(step.to);
    if (
      !current ||
      amount > current.amount ||
      (amount === current.amount && compareIds(step.edgeId, current.edgeId) < 0)
    ) {
      best.set(step.to, { amount, edgeId: step.edgeId, from: step.from });
    }
  }
  const reached = [...received.keys()].sort(compareIds);
  for (const id of reached) {
    const carrier = best.get(id) as Carrier;
    state.activation.set(id, received.get(id) as number);
    state.paths.set(id, [...(state.paths.get(carrier.from) ?? []), carrier.edgeId]);
  }
  state.frontier = reached;
  state.hops++;
  return reached;
}

/** A seed's own signals, each 0..1; null where the signal did not find it. */
export interface SeedSignals {
  lexical: number | null;
  /** Cosine similarity mapped to 0..1: what RecalledMemory.vector shows. */
  vector: number | null;
  /** Its reciprocal rank among the vector matches (1, 1/2, 1/3 ...): what the blend uses. */
  vectorRank: number | null;
  /** Named in the request's `seeds`. */
  named: boolean;
}

/**
 * The lexical score of the hit at `rank` (0 = best) of a full-text answer: its reciprocal rank,
 * 1, 1/2, 1/3, ... Already 0..1 with the best hit at 1, and independent of the store's own
 * relevance numbers (BM25 on SQLite, Lucene on Neo4j), so both stores score alike.
 */
export const lexicalScore = (rank: number): number => 1 / (rank + 1);

/**
 * A seed's starting activation, 0..1: 1 for a memory named in `seeds`; otherwise its lexical
 * score, or, when a vector match ran, the mean of its reciprocal ranks in the two lists (a list
 * that missed it counts 0). Ranks, not raw cosine: cosine mapped to 0..1 gives even a weak vector
 * match about 0.4, above every lexical seed from the third on, so raw scores let the weaker signal
 * push the stronger one's answers out; reciprocal ranks put both lists on one scale.
 */
export function seedActivation(signals: SeedSignals, vectorsRan: boolean): number {
  if (signals.named) return 1;
  if (!vectorsRan) return signals.lexical ?? 0;
  return ((signals.lexical ?? 0) + (signals.vectorRank ?? 0)) / 2;
}

/** Recall's order: best score first, ties by memory id. */
export const byScore = (a: RecalledResult, b: RecalledResult): number =>
  b.score - a.score || compareIds(a.memoryId, b.memoryId);

/**
 * How much graph activation counts next to a seed's own score. At 1, the neighbours of the best
 * word match (0.25 from a default-weight edge) displaced word matches 4-10 and recall found less
 * than full-text search on both shapes of bench/longmem (R@5 -0.04); at a half or a quarter it
 * found as much at k = 5, and a quarter also at k = 10 (docs/recall.md, bench/README.md).
 */
export const GRAPH_SHARE = 0.25;

/**
 * The blended score: a memory's own activation (seedActivation, 0 when it is no seed) plus
 * GRAPH_SHARE × its graph component, where the graph component is the activation received
 * through edges (for a seed, what the other seeds passed it), capped at 1, and null when nothing
 * reached it that way. Best first, ties by memory id; at most `limit`.
 */
export function rankRecall(
  state: ActivationState,
  seeds: ReadonlyMap<string, SeedSignals>,
  vectorsRan: boolean,
  limit: number,
): RecalledResult[] {
  const ranked: RecalledResult[] = [];
  for (const [memoryId, activation] of state.activation) {
    const signals = seeds.get(memoryId);
    const received = signals ? state.seedSupport.get(memoryId) : activation;
    const graph = received === undefined ? null : Math.min(1, received);
    const own = signals ? seedActivation(signals, vectorsRan) : 0;
    ranked.push({
      memoryId,
      score: own + GRAPH_SHARE * (graph ?? 0),
      lexical: signals?.lexical ?? null,
      vector: signals?.vector ?? null,
      graph,
      seed: signals !== undefined,
      path: [...(state.paths.get(memoryId) ?? [])],
    });
  }
  ranked.sort(byScore);
  return ranked.slice(0, limit);
}
