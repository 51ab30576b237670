/**
 * Which words of a search both stores look for, decided once so SQLite and Neo4j find the same
 * memories for the same text. Only runs of letters and digits are words: quotes, operators, column
 * filters and every other character are dropped, so no part of the text can be read as query
 * syntax. Each store then writes the words in its own index's syntax (fts-query.ts for FTS5,
 * fulltext-query.ts for Lucene).
 */

/** At most this many words of a text are searched; the rest are ignored, which bounds a query's terms. */
export const MAX_SEARCH_WORDS = 32;

/** The words of a text, in order, at most MAX_SEARCH_WORDS. */
export function searchWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_SEARCH_WORDS) ?? [];
}

/**
 * The search terms of a text, each written by `term`; the last word is a prefix, so
 * search-as-you-type finds the word being typed. Empty when nothing searchable is left.
 */
export function searchTerms(text: string, term: (word: string, isPrefix: boolean) => string): string[] {
  const words = searchWords(text);
  return words.map((word, index) => term(word, index === words.length - 1));
}

/**
 * The words of each tag, for finding a tag filter's candidates as one phrase per tag. A tag with no
 * letter or digit has no words and is left out: it cannot be found through the index.
 */
export function tagPhrases(tags: readonly string[]): string[][] {
  return tags.map(searchWords).filter((words) => words.length > 0);
}
