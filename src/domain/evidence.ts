/**
 * How the research views read the relation vocabulary. Directions follow the vocabulary: evidence
 * points at what it judges (experiment -VALIDATES-> hypothesis) and a newer memory points at the
 * older one it replaces (new -SUPERSEDES-> old).
 */

/** The source is evidence FOR the target. */
export const SUPPORTING_TYPES = ['VALIDATES', 'REPLICATES', 'REPRODUCES'] as const;

/** The source is evidence AGAINST the target. */
export const CONTRADICTING_TYPES = ['CONTRADICTS', 'FAILS_TO_REPRODUCE'] as const;

/**
 * Evidence for the source counts, through these, for the target: an experiment validating a
 * formal model of a hypothesis (model -FORMALIZES-> hypothesis) supports the hypothesis.
 */
const CHAINING_TYPES = ['EXTENDS', 'FORMALIZES'] as const;

export const SUPERSEDES = 'SUPERSEDES';
export const CONTRADICTS = 'CONTRADICTS';

/** Every type an evidence walk follows, in one fixed order (it is part of a loader key). */
export const EVIDENCE_WALK_TYPES: readonly string[] = [...SUPPORTING_TYPES, ...CONTRADICTING_TYPES, ...CHAINING_TYPES];

/** Supporting and contradicting types together: what decides whether a pair of memories disagrees. */
export const JUDGING_TYPES: readonly string[] = [...SUPPORTING_TYPES, ...CONTRADICTING_TYPES];

const SUPPORTING: ReadonlySet<string> = new Set(SUPPORTING_TYPES);
const CONTRADICTING: ReadonlySet<string> = new Set(CONTRADICTING_TYPES);

export const isSupporting = (type: string): boolean => SUPPORTING.has(type);
export const isContradicting = (type: string): boolean => CONTRADICTING.has(type);

/**
 * The support score of a memory: (S - C) / (1 + S + C), where S and C are the summed weights of the
 * supporting and contradicting evidence items, and an item's weight is the product of the edge
 * weights along its chain. Between -1 and 1; 0 without evidence or when both sides balance. The 1
 * in the denominator keeps a single weak item from looking conclusive: one item of weight 1 scores
 * 0.5, three score 0.75.
 */
export function supportScore(supporting: readonly number[], contradicting: readonly number[]): number {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const s = sum(supporting);
  const c = sum(contradicting);
  return Math.round(((s - c) / (1 + s + c)) * 1e12) / 1e12;
}
