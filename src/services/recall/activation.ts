import type { AssociationStep } from '../../domain/associations.js';
import type { FrontierStep } from '../../domain/types.js';
import { compareIds } from '../../store/key-order.js';
import type { RecallAssociation, RecalledCue, RecalledResult } from '../../store/port.js';

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
 * by hand (docs/recall.md has a worked example). Two floors keep the work to what can matter:
 * a reached memory spreads only with SPREAD_FLOOR or more, and an edge carries nothing below
 * LEAST_CARRIED.
 */
export interface ActivationState {
  /** Activation of every memory reached: a seed's own, or what a reached memory received. */
  readonly activation: Map<string, number>;
  /**
   * Each reached memory's best carrier: the memory and the edge that passed it the most. A seed has
   * none. pathTo follows them back; only the few answers need a path, not the thousands reached.
   */
  readonly carriedBy: Map<string, Carrier>;
  /** The memories reached by the last hop (the seeds before the first), in no set order: the next hop starts from them. */
  frontier: string[];
  /** What each seed received from the other seeds in the first hop. */
  readonly seedSupport: Map<string, number>;
  /** The part of `activation` (for a seed: of `seedSupport`) that came through associations. */
  readonly associative: Map<string, number>;
  /** The associations that carried activation, by the carrier id spreadHop gave them (pathTo). */
  readonly associations: Map<string, AssociationStep>;
  /** Hops spread so far. */
  hops: number;
}

/**
 * A step of one hop: an edge, or an association (shared rare terms, domain/associations.ts), which
 * spreads like an edge of its weight and is told apart in the path and the score.
 */
export type SpreadStep = FrontierStep & { association?: AssociationStep };

/**
 * The carrier id of an association in a path: no edge id contains a NUL, so it can never be
 * mistaken for an edge, and feedback, which adjusts the edges of a path, never meets it.
 */
const associationCarrier = (step: AssociationStep): string => `\u0000${step.from}\u0000${step.to}`;

/** Spread steps for associations; their weight is the association's strength. */
export const associationSpreadSteps = (steps: readonly AssociationStep[]): SpreadStep[] =>
  steps.map((association) => ({
    from: association.from,
    to: association.to,
    edgeId: associationCarrier(association),
    weight: association.weight,
    association,
  }));

/**
 * The least activation a reached memory needs to spread on. What it would pass is at most its
 * activation x decay, split over its edges, and counts GRAPH_SHARE in a score: below 0.01 that is
 * at most 0.00125, far under the 10th seed's 0.1. On the bench graph (100k memories / 500k edges),
 * a two-word recall at maxDepth 2 expanded 3,058 edges a recall, 1,523 with this floor, and the
 * first 30 results of all 100 recalls stayed the same (bench/README.md, Recall). Forward-push
 * personalised PageRank cuts its work the same way: a node pushes only a large enough residual.
 * Seeds always spread, whatever their score.
 */
export const SPREAD_FLOOR = 0.01;

/**
 * The least activation one edge carries: less is not passed at all, and a memory nothing else
 * reached is not reached. It counts at most GRAPH_SHARE x 0.0001 in a score; what it saves is a
 * hub's crumbs (a memory of 0.05 spreading over 4,000 edges hands each about 0.000006), each of
 * which cost a map entry and a place in the ranking. On the bench graph the first 30 results of
 * 200 recalls kept their order, and reached memories fell from 1,467 to 584 a recall.
 */
export const LEAST_CARRIED = 0.0001;

/**
 * The memories the next hop expands, as a store is asked for them: the seeds, then the last hop's
 * memories with at least SPREAD_FLOOR; in id order, so the edges a recall budget keeps do not
 * depend on the order a store returned the last hop's steps in.
 */
export const frontierToExpand = (state: ActivationState): string[] =>
  (state.hops === 0
    ? [...state.frontier]
    : state.frontier.filter((id) => (state.activation.get(id) as number) >= SPREAD_FLOOR)
  ).sort(compareIds);

/**
 * For each memory about to spread, the total weight of its edges above which each of them would
 * carry less than LEAST_CARRIED (`activation × decay × weight / total`, with weights at most 1):
 * the store need not hand over such a memory's edges at all (FrontierQuery.maxTotalWeight). A hub
 * reached with 0.05 is skipped from 250 in weight on, about 500 edges of the default weight.
 */
export const edgeWeightCaps = (state: ActivationState, ids: readonly string[], decay: number): Map<string, number> =>
  new Map(ids.map((id) => [id, ((state.activation.get(id) as number) * decay) / LEAST_CARRIED]));

/** The memory and the edge (or association carrier) that passed a reached memory the most. */
interface Carrier {
  from: string;
  edgeId: string;
}

export function startActivation(seeds: ReadonlyMap<string, number>): ActivationState {
  return {
    activation: new Map(seeds),
    carriedBy: new Map(),
    frontier: [...seeds.keys()].sort(compareIds),
    seedSupport: new Map(),
    associative: new Map(),
    associations: new Map(),
    hops: 0,
  };
}

/** A memory of the frontier: its activation, and the weight of its edges in this hop's steps. */
interface Source {
  activation: number;
  spread: number;
}

/**
 * What reached a memory in one hop: the sum, and its best carrier (the largest amount, then the
 * smallest edge id), whose edge extends the path.
 */
interface Arrival extends Carrier {
  received: number;
  amount: number;
}

/**
 * One hop: spreads from the frontier along `steps` (the frontier's edges, already filtered), and
 * makes the newly reached memories the next frontier. `excluded` memories receive nothing and do
 * not spread (superseded ones under currentOnly). Returns the memories reached, in the order reached.
 */
export function spreadHop(
  state: ActivationState,
  steps: readonly SpreadStep[],
  decay: number,
  excluded: ReadonlySet<string> = new Set(),
): string[] {
  // One map lookup per step end where possible: a recall spreads over thousands of steps.
  const sources = new Map<string, Source>();
  for (const id of state.frontier) sources.set(id, { activation: state.activation.get(id) as number, spread: 0 });
  for (const step of steps) {
    const source = sources.get(step.from);
    if (source && !step.association) source.spread += step.weight;
  }
  const seedsSupport = state.hops === 0;
  const arrivals = new Map<string, Arrival>();
  for (const step of steps) {
    const source = sources.get(step.from);
    if (!source || step.to === step.from) continue;
    const amount = step.association
      ? source.activation * step.weight * decay
      : (source.activation * step.weight * decay) / Math.max(1, source.spread);
    if (amount < LEAST_CARRIED) continue;
    if (seedsSupport && sources.has(step.to)) {
      // Two seeds sharing words is what the search that found them both has already counted.
      if (!step.association) state.seedSupport.set(step.to, (state.seedSupport.get(step.to) ?? 0) + amount);
      continue;
    }
    if (state.activation.has(step.to) || excluded.has(step.to)) continue;
    if (step.association) {
      state.associative.set(step.to, (state.associative.get(step.to) ?? 0) + amount);
      state.associations.set(step.edgeId, step.association);
    }
    const arrival = arrivals.get(step.to);
    if (!arrival) arrivals.set(step.to, { received: amount, amount, edgeId: step.edgeId, from: step.from });
    else {
      arrival.received += amount;
      if (amount > arrival.amount || (amount === arrival.amount && compareIds(step.edgeId, arrival.edgeId) < 0)) {
        arrival.amount = amount;
        arrival.edgeId = step.edgeId;
        arrival.from = step.from;
      }
    }
  }
  // In the order reached: sorting thousands of ids took a recall about a millisecond a hop, and
  // only a frontier that is expanded needs an order (frontierToExpand).
  const reached: string[] = [];
  for (const [id, arrival] of arrivals) {
    reached.push(id);
    state.activation.set(id, arrival.received);
    state.carriedBy.set(id, arrival);
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
  /** The best vector match, and one that stands out from the others (vectorLeads). */
  vectorLead?: boolean;
  /** Named in the request's `seeds`. */
  named: boolean;
  /** A recall cue's strength, 0..1 (services/recall/cues.ts), and the cue; absent when no cue matched. */
  learned?: number;
  cue?: RecalledCue;
}

/** How many of the vector matches, best first, vectorLeads reads: recall asks for at least this many. */
export const VECTOR_LEAD_SAMPLE = 10;

/**
 * Whether the best of the vector matches' similarities (best first) stands out: ahead of the
 * second by at least one standard deviation of the first VECTOR_LEAD_SAMPLE (and there are at
 * least three). Where the word and vector lists disagree on their first memory, the vector's was
 * the right one more often when it led like this, and the word list's more often when it did not,
 * on both shapes of bench/longmem (docs/recall.md): the size of the lead, not the rank, says
 * whether to trust it.
 */
export function vectorLeads(similarities: readonly number[]): boolean {
  const sample = similarities.slice(0, VECTOR_LEAD_SAMPLE);
  if (sample.length < 3) return false;
  const mean = sample.reduce((sum, value) => sum + value, 0) / sample.length;
  const deviation = Math.sqrt(sample.reduce((sum, value) => sum + (value - mean) ** 2, 0) / sample.length);
  return deviation > 0 && (sample[0] as number) - (sample[1] as number) >= deviation;
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
 * push the stronger one's answers out; reciprocal ranks put both lists on one scale. A best vector
 * match that leads the others (vectorLeads) starts at 1, as a memory first in both lists would.
 * A memory a recall cue points to starts at least at the cue's strength: a question worded like
 * one it answered, as closely as their words agree (a full match ranks with the best word match).
 */
export function seedActivation(signals: SeedSignals, vectorsRan: boolean): number {
  if (signals.named) return 1;
  return Math.max(searchActivation(signals, vectorsRan), signals.learned ?? 0);
}

function searchActivation(signals: SeedSignals, vectorsRan: boolean): number {
  if (!vectorsRan) return signals.lexical ?? 0;
  if (signals.vectorLead) return 1;
  return ((signals.lexical ?? 0) + (signals.vectorRank ?? 0)) / 2;
}

/** What recall orders by. */
type Scored = Pick<RecalledResult, 'memoryId' | 'score'>;

/** Recall's order: best score first, ties by memory id. */
export const byScore = (a: Scored, b: Scored): number => b.score - a.score || compareIds(a.memoryId, b.memoryId);

/**
 * How much graph activation counts next to a seed's own score. At 1, the neighbours of the best
 * word match (0.25 from a default-weight edge) displaced word matches 4-10 and recall found less
 * than full-text search on both shapes of bench/longmem (R@5 -0.04); at a half or a quarter it
 * found as much at k = 5, and a quarter also at k = 10 (docs/recall.md, bench/README.md).
 */
export const GRAPH_SHARE = 0.25;

/**
 * How much activation received through associations counts next to a seed's own score: in full.
 * Measured on both shapes of bench/longmem (seeds 42 and 7), with each seed's one strongest
 * association (ENGRAM_ASSOCIATIONS_PER_MEMORY 1): multi-hop R@5 x 1.08 / 1.07 on dialogue and
 * single-hop not lower there. At a quarter, like edges, no answer's top 10 changed; at a half (4
 * per seed) only R@10 rose; in full with 2 or 4 per seed a seed's associations pushed single-hop
 * answers out of the top 5 (docs/recall.md, Associations).
 */
export const ASSOCIATION_SHARE = 1;

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
  const scored: Scored[] = [];
  for (const [memoryId, activation] of state.activation) {
    const signals = seeds.get(memoryId);
    const received = signals ? (state.seedSupport.get(memoryId) ?? 0) : activation;
    const associative = state.associative.get(memoryId) ?? 0;
    const throughEdges = Math.min(1, received - associative);
    const own = signals ? seedActivation(signals, vectorsRan) : 0;
    scored.push({ memoryId, score: own + GRAPH_SHARE * throughEdges + ASSOCIATION_SHARE * Math.min(1, associative) });
  }
  // A recall reaches thousands of memories and answers a few: the results are built for the best.
  return bestOf(scored, limit).map(({ memoryId, score }) => {
    const signals = seeds.get(memoryId);
    const received = signals ? state.seedSupport.get(memoryId) : state.activation.get(memoryId);
    const carriers = pathTo(state, memoryId);
    const associations = associationsOnPath(state, carriers);
    return {
      memoryId,
      score,
      lexical: signals?.lexical ?? null,
      vector: signals?.vector ?? null,
      graph: received === undefined ? null : Math.min(1, received),
      seed: signals !== undefined,
      path: carriers.filter((carrier) => !state.associations.has(carrier)),
      ...(associations.length > 0 ? { associations } : {}),
      ...(signals?.cue ? { cue: signals.cue } : {}),
    };
  });
}

/**
 * The edges (and association carriers) that carried most of a memory's activation, seed end first;
 * empty for a seed. A memory is reached once and only from an earlier layer, so the walk back ends
 * at a seed.
 */
export function pathTo(state: ActivationState, memoryId: string): string[] {
  const carriers: string[] = [];
  for (let carrier = state.carriedBy.get(memoryId); carrier; carrier = state.carriedBy.get(carrier.from)) {
    carriers.push(carrier.edgeId);
  }
  return carriers.reverse();
}

/**
 * The `limit` best by byScore's order, in that order. The scores alone are sorted first (numbers
 * sort natively, several times faster than entries by a comparator), which gives the score the
 * last kept entry must reach; only the entries at or above it are ordered in full.
 */
function bestOf<T extends Scored>(entries: readonly T[], limit: number): T[] {
  if (entries.length <= limit) return [...entries].sort(byScore);
  const scores = Float64Array.from(entries, (entry) => entry.score).sort();
  const floor = scores[scores.length - limit] as number;
  return entries
    .filter((entry) => entry.score >= floor)
    .sort(byScore)
    .slice(0, limit);
}

/** The associations among a path's carriers, each with its place in the whole path (edges and associations). */
function associationsOnPath(state: ActivationState, carriers: readonly string[]): RecallAssociation[] {
  const found: RecallAssociation[] = [];
  carriers.forEach((carrier, at) => {
    const association = state.associations.get(carrier);
    if (association) {
      found.push({
        fromId: association.from,
        toId: association.to,
        terms: association.terms,
        weight: association.weight,
        at,
      });
    }
  });
  return found;
}
