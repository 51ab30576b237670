import type { AssociationQuestion } from './associations.js';

/**
 * A question's names are what it is about: "Until when is Iris's login service owner away?" asks
 * about Iris, and a memory of another project that says "away until" answers nothing. Full-text
 * relevance cannot see that: "Iris" is one word among several, and two other words outweigh it.
 * Recall therefore puts the word matches that hold every name of the question before those that
 * do not (docs/recall.md, "The question's names"). The names are those associations read
 * (associationQuestion): words capitalised other than at a sentence's start.
 */

/**
 * At most this many of a question's names are looked for in each match: each costs a scan of
 * the match's text, and a question that names more things than this is a list, not a question.
 */
export const MAX_QUESTION_NAMES = 8;

/** The names of a question, lower-cased, in the order written, at most MAX_QUESTION_NAMES. */
export function questionNames(question: AssociationQuestion): string[] {
  return [...question.names].slice(0, MAX_QUESTION_NAMES);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `text` (lower-cased) holds `name` as a whole word, as the search indexes split words. */
export function holdsWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] as string);
    const after = text[at + name.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** A memory's title, content and tags, lower-cased, as holdsWord reads them. */
export const lowerCasedText = (memory: { title: string; content: string | null; tags: readonly string[] }): string =>
  [memory.title, memory.content ?? '', ...memory.tags].join('\n').toLowerCase();

/** Whether a memory's title, content or tags hold every one of `names` as a word. */
export function holdsEveryName(
  memory: { title: string; content: string | null; tags: readonly string[] },
  names: readonly string[],
): boolean {
  if (names.length === 0) return true;
  const text = lowerCasedText(memory);
  return names.every((name) => holdsWord(text, name));
}

/**
 * The matches that hold every name first, each part in its own order (the search's, best first).
 * Without names the order is unchanged.
 */
export function namesFirst<T extends { title: string; content: string | null; tags: readonly string[] }>(
  matches: readonly T[],
  names: readonly string[],
): T[] {
  if (names.length === 0) return [...matches];
  const holding: T[] = [];
  const rest: T[] = [];
  for (const match of matches) (holdsEveryName(match, names) ? holding : rest).push(match);
  return [...holding, ...rest];
}
