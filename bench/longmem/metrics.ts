import { quantile } from '../lib/stats.js';
import { QUESTION_KINDS, type QuestionKind } from './generator.js';

/** The cut-offs every table reports. */
export const KS = [1, 5, 10] as const;
export type K = (typeof KS)[number];

/**
 * Evidence recall@k of one question: the share of its evidence memories among the first k ranked
 * ids (each evidence memory counted once, however often it is listed).
 */
export function recallAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const wanted = new Set(evidence);
  if (wanted.size === 0) throw new Error('a question without evidence');
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of wanted) if (top.has(id)) found++;
  return found / wanted.size;
}

export interface Scored {
  kind: QuestionKind;
  evidence: readonly string[];
  ranked: readonly string[];
}

export interface RecallRow {
  n: number;
  r1: number;
  r5: number;
  r10: number;
}

export type RecallByKind = Record<QuestionKind | 'all', RecallRow>;

/** Mean recall@1/5/10 over the questions, per kind and over all of them (each question weighs the same). */
export function recallByKind(rows: readonly Scored[]): RecallByKind {
  const out = {} as RecallByKind;
  for (const kind of [...QUESTION_KINDS, 'all'] as const) {
    const of = kind === 'all' ? rows : rows.filter((row) => row.kind === kind);
    out[kind] = meanRecall(of);
  }
  return out;
}

export function meanRecall(rows: readonly Scored[]): RecallRow {
  const mean = (k: number) =>
    rows.length === 0
      ? Number.NaN
      : rows.reduce((sum, row) => sum + recallAtK(row.ranked, row.evidence, k), 0) / rows.length;
  return { n: rows.length, r1: mean(1), r5: mean(5), r10: mean(10) };
}

/**
 * What bridging from a question's found evidence to the rest of it could give at most: R@5 if
 * every question that has at least one evidence memory among the first `from` ranked ids had all
 * of its evidence in its top 5, and every other question kept its own R@5. Associations start
 * from what the search found, so they cannot lift a question none of whose evidence the search
 * reached; issue 28's multi-hop target is worth reading against it.
 */
export function bridgingCeiling(rows: readonly Scored[], from: number): number {
  if (rows.length === 0) return Number.NaN;
  const total = rows.reduce((sum, row) => {
    const reached = row.ranked.slice(0, from).some((id) => row.evidence.includes(id));
    return sum + (reached ? 1 : recallAtK(row.ranked, row.evidence, 5));
  }, 0);
  return total / rows.length;
}

/**
 * What learning from the protocol's feedback could add at most, known the answers (an oracle): R@5
 * if every test question had in front every evidence memory a train question marked `USED`, and
 * kept the rest of its first ranking without the memories a train question marked `NOT_USEFUL`
 * (its own evidence excepted, so no right answer is ever demoted). Returned as the gain over the
 * first ranking. Learning that reads no answer can only approach it.
 */
export function oracleGain(rows: readonly Scored[], used: ReadonlySet<string>, notUseful: ReadonlySet<string>): number {
  if (rows.length === 0) return Number.NaN;
  const lifted = rows.map((row) => {
    const evidence = new Set(row.evidence);
    const kept = row.ranked.filter((id) => evidence.has(id) || !notUseful.has(id));
    return { ...row, ranked: [...new Set([...row.evidence.filter((id) => used.has(id)), ...kept])] };
  });
  return meanRecall(lifted).r5 - meanRecall(rows).r5;
}

/** Where the test half's evidence that a train question shares stands after learning: see learningReach. */
export interface LearningReach {
  /** Evidence memories of test questions that are also a train question's evidence (counted per question). */
  shared: number;
  inTop5: number;
  /** No train recall returned it, so nothing marked it `USED`: no learning from this protocol can lift it. */
  neverUsed: number;
  /** Marked `USED`, but no train question that marked it has a cue the test question matches. */
  noCue: number;
  /** A matching cue exists; the memory still ranks below 5. */
  belowTop5: number;
}

/**
 * Splits the test half's shared evidence missing from the top 5 after learning by why it is
 * missing. `cued(question, memoryId)` says whether a train question that marked the memory `USED`
 * left a cue the test question matches.
 */
export function learningReach<Row extends Scored>(
  rows: readonly Row[],
  trainEvidence: ReadonlySet<string>,
  used: ReadonlySet<string>,
  cued: (row: Row, memoryId: string) => boolean,
): LearningReach {
  const reach: LearningReach = { shared: 0, inTop5: 0, neverUsed: 0, noCue: 0, belowTop5: 0 };
  for (const row of rows) {
    const top5 = new Set(row.ranked.slice(0, 5));
    for (const id of new Set(row.evidence)) {
      if (!trainEvidence.has(id)) continue;
      reach.shared++;
      if (top5.has(id)) reach.inTop5++;
      else if (!used.has(id)) reach.neverUsed++;
      else if (!cued(row, id)) reach.noCue++;
      else reach.belowTop5++;
    }
  }
  return reach;
}

/** Latency summary in ms: nearest-rank p50 and p95 (bench/lib/stats.ts), and the mean. */
export function latency(samples: readonly number[]): { n: number; p50: number; p95: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : Number.NaN,
  };
}

/** Unit-length copy (a zero vector stays zero). */
export function normalize(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  if (norm > 0) for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) / norm;
  return out;
}

/**
 * The ids of the `k` memories whose vectors have the highest cosine similarity with `query`
 * (vectors already unit length), best first; equal similarities by id, as Engram orders ties.
 */
export function cosineTopK(
  query: Float32Array,
  ids: readonly string[],
  vectors: readonly Float32Array[],
  k: number,
): { id: string; similarity: number }[] {
  const best: { id: string; similarity: number }[] = [];
  for (let m = 0; m < ids.length; m++) {
    const vector = vectors[m] as Float32Array;
    let dot = 0;
    for (let i = 0; i < vector.length; i++) dot += (vector[i] as number) * (query[i] as number);
    const id = ids[m] as string;
    if (best.length === k) {
      const last = best[k - 1] as { id: string; similarity: number };
      if (dot < last.similarity || (dot === last.similarity && id > last.id)) continue;
    }
    let at = best.length;
    while (at > 0) {
      const before = best[at - 1] as { id: string; similarity: number };
      if (before.similarity > dot || (before.similarity === dot && before.id < id)) break;
      at--;
    }
    best.splice(at, 0, { id, similarity: dot });
    if (best.length > k) best.pop();
  }
  return best;
}
