import { type AssociationQuestion, associationQuestion } from './associations.js';
import { holdsWord, lowerCasedText } from './question-names.js';

/**
 * Vector bridges: the association recall makes, when vectors are on, from the question's best word
 * match to the memory that continues it (docs/recall.md, "Bridges chosen by the question's vector").
 *
 * A question that needs two memories ("When will the owner of the Nimbus ETL job be back?") finds
 * the first by its words ("Pavel owns the Nimbus ETL job"); the second ("Pavel is on leave until
 * October") shares with it only a name, which forty other notes hold, and with the question only
 * what the question is about. Word associations cannot tell that note from Pavel's other notes
 * (a name that common is past their ceiling); the question's vector can, as it is the one signal
 * that knows "be back" goes with "on leave until". So the bridge is the memory nearest to the
 * question's vector among those that hold a name of the first memory that the question does not
 * say, and also one of the question's names: a memory about the same subject, through the one
 * name the question could not search for.
 */

/** A memory as the bridge reads it. */
export interface BridgeMemory {
  id: string;
  title: string;
  content: string | null;
  tags: readonly string[];
}

/** The bridge found: the memory, its similarity to the question (0..1), and the names it shares with the source. */
export interface VectorBridge {
  from: string;
  to: string;
  similarity: number;
  names: string[];
}

/**
 * The names a memory writes: words capitalised other than at a sentence's start, lower-cased, as
 * associationQuestion reads a question (the title ends no sentence, so the content's first word counts).
 */
export function memoryNames(memory: Pick<BridgeMemory, 'title' | 'content'>): ReadonlySet<string> {
  return associationQuestion(`${memory.title}\n${memory.content ?? ''}`).names;
}

/**
 * The bridge from `source` for `question`, among `nearest` (the question's vector matches, most
 * similar first): the first that is not the source, holds one of the source's names that is not a
 * word of the question, and holds one of the question's names. Null when the question names
 * nothing (it says no subject to stay within), the source writes no other name, or no match holds both.
 */
export function vectorBridge(
  source: BridgeMemory,
  question: AssociationQuestion,
  nearest: readonly { memory: BridgeMemory; similarity: number }[],
): VectorBridge | null {
  if (question.names.size === 0) return null;
  const names = [...memoryNames(source)].filter((name) => !question.terms.has(name));
  if (names.length === 0) return null;
  const subject = [...question.names];
  for (const { memory, similarity } of nearest) {
    if (memory.id === source.id) continue;
    const text = lowerCasedText(memory);
    const shared = names.filter((name) => holdsWord(text, name));
    if (shared.length > 0 && subject.some((name) => holdsWord(text, name)))
      return { from: source.id, to: memory.id, similarity, names: shared };
  }
  return null;
}
