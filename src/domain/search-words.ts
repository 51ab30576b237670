/**
 * Which words of a search both stores look for, decided once so SQLite and Neo4j find the same
 * memories for the same text. Only runs of letters and digits are words: quotes, operators, column
 * filters and every other character are dropped, so no part of the text can be read as query
 * syntax. Each store then writes the words in its own index's syntax (search-query.ts in each store: FTS5 syntax for SQLite,
 * Lucene syntax for Neo4j).
 */

/** How much a word match weighs in each field, on both stores: FTS5's bm25 column weights, Lucene's boosts. */
export const FIELD_WEIGHTS = { title: 4, content: 1, tags: 2 } as const;

/**
 * The rank tiers a search fills its limit from, best first: every word in the title, every word in
 * some field, then (for more than one word) any word. A memory matching all the words always ranks
 * above one matching only some, and a title match ranks high even where relevance numbers cannot
 * tell (FTS5 floors the idf of a word found in half the documents or more at almost zero, which in
 * a 12-memory workspace makes field weights count for nothing).
 */
export type SearchTier = 'all-in-title' | 'all-anywhere' | 'any';

/** The tiers for a text of `words` search words; none for none. */
export function searchTiers(words: number): SearchTier[] {
  if (words === 0) return [];
  return words > 1 ? ['all-in-title', 'all-anywhere', 'any'] : ['all-in-title', 'all-anywhere'];
}

/** At most this many words of a text are searched; the rest are ignored, which bounds a query's terms. */
export const MAX_SEARCH_WORDS = 32;

/** The words of a text, in order, at most MAX_SEARCH_WORDS. */
export function searchWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_SEARCH_WORDS) ?? [];
}

/**
 * The words without the single letters, unless nothing else is left. Both indexes split "Leo's"
 * into "leo" and "s" (and "don't" into "don" and "t"): searched for, the lone "s" matched every
 * possessive and ranked "Greta: Met Kenji's baby" for "Leo's cousin's baby" (bench/longmem:
 * dialogue R@5 0.484 -> 0.494 at seed 42, multi-hop 0.326 -> 0.382). A text of single letters
 * only ("C", "a b") is still searched as typed. Digits stay: "3" in "Python 3" is meant.
 */
function withoutLoneLetters(words: string[]): string[] {
  const kept = words.filter((word) => !/^\p{L}$/u.test(word));
  return kept.length > 0 ? kept : words;
}

/**
 * The search terms of a text, each written by `term`; the last word is a prefix, so
 * search-as-you-type finds the word being typed. Empty when nothing searchable is left.
 */
export function searchTerms(text: string, term: (word: string, isPrefix: boolean) => string): string[] {
  const words = withoutLoneLetters(searchWords(text));
  return words.map((word, index) => term(word, index === words.length - 1));
}
