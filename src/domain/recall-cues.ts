import type { AssociationQuestion } from './associations.js';
import { MAX_QUESTION_NAMES, questionNames } from './question-names.js';

/**
 * Recall cues: what USED feedback teaches about the question itself (docs/recall.md, "Learning from
 * the question").
 *
 * A cue records that a memory answered a question: the question's names (what it is about) and its
 * other terms (what it asks), as associationQuestion reads them. A later recall whose question names
 * the same things and asks in at least CUE_MATCH of the same words finds the memory through the
 * cue, however few of those words the memory itself holds: "What is Tomas growing on their
 * balcony?" taught that "Potted up lavender on my patio" answers it, and "What did Tomas plant on
 * the balcony?" then finds it too. The names are what keeps a cue to its subject: the same question
 * about another person or project shares every other word and no name. Matching is by the words a
 * question shares with another question, never with the memory, so it needs no model and no
 * vocabulary.
 *
 * A cue hangs on the learned association (RECALLED_WITH) that the same feedback created or
 * strengthened: the edge's weight is the cue's strength, its WeightEvents are the cue's history,
 * reverting the event that raised it to the learned weight silences the cue, and feedback on a
 * memory a cue brought adjusts that edge.
 */

/**
 * The least share of a question's terms (other than its names) a cue must hold to match: half.
 * Measured with a replay on bench/longmem before building (bench/README.md, "Learning from the
 * question"): a third gained slightly more and cost the questions whose evidence got no feedback up
 * to 0.014 R@5 on one run of four; a half kept that within 0.011 on all four.
 */
export const CUE_MATCH = 0.5;

/** Most terms a cue keeps besides its names: a question longer than this is a paragraph, and its first terms say enough. */
export const MAX_CUE_TERMS = 16;

/** Most lookup keys a question is looked up by (its names, or its terms when it names nothing). */
export const MAX_CUE_KEYS = MAX_QUESTION_NAMES;

/** A question as a cue: its names and its other terms, both lower-cased and sorted, and the keys it is found by. */
export interface CueWords {
  names: string[];
  terms: string[];
  keys: string[];
}

/**
 * The cue words of a question; null when it has no terms at all (nothing to match a later question
 * by). A question is looked up by its names, since a matching cue must hold every one of them; a
 * question without names by its terms.
 */
export function cueWords(question: AssociationQuestion): CueWords | null {
  const names = questionNames(question).sort();
  const terms = [...question.terms]
    .filter((term) => !question.names.has(term))
    .slice(0, MAX_CUE_TERMS)
    .sort();
  if (names.length === 0 && terms.length === 0) return null;
  const keys = (names.length > 0 ? names : terms).slice(0, MAX_CUE_KEYS);
  return { names, terms, keys };
}

/**
 * How well a stored cue matches a question, 0..1: 0 unless the cue holds every name of the
 * question and at least CUE_MATCH of its other terms; otherwise the share of those terms it holds
 * (1 for a question of names alone, when the cue has no other terms either).
 */
export function cueMatch(question: CueWords, cue: Pick<CueWords, 'names' | 'terms'>): number {
  const names = new Set(cue.names);
  if (!question.names.every((name) => names.has(name))) return 0;
  if (question.terms.length === 0) return cue.terms.length === 0 ? 1 : 0;
  const terms = new Set(cue.terms);
  const share = question.terms.filter((term) => terms.has(term)).length / question.terms.length;
  return share >= CUE_MATCH ? share : 0;
}
