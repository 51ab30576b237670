import { FIELD_WEIGHTS, searchTerms, searchTiers, tagPhrases } from '../../domain/search-words.js';

/**
 * Turns free text into FTS5 queries that cannot be misread as query syntax: the words
 * search-words.ts keeps (letters and digits only), each quoted, the last one a prefix, one query
 * per rank tier of search-words.ts, best first. Empty when nothing searchable is left.
 */
export function toFtsTiers(text: string): string[] {
  const terms = searchTerms(text, (word, isPrefix) => `"${word}"${isPrefix ? '*' : ''}`);
  const allWords = terms.join(' ');
  return searchTiers(terms.length).map((tier) =>
    tier === 'all-in-title' ? `title : (${allWords})` : tier === 'all-anywhere' ? allWords : terms.join(' OR '),
  );
}

/** FTS5's bm25() column weights, in the table's column order (title, content, tags). */
export const BM25_WEIGHTS = [FIELD_WEIGHTS.title, FIELD_WEIGHTS.content, FIELD_WEIGHTS.tags]
  .map((weight) => weight.toFixed(1))
  .join(', ');

/**
 * An FTS5 query finding the candidates for a tag filter: each tag's words as a phrase in the tags
 * column. It over-matches (a phrase can span two tags), so callers still check the tags exactly.
 * Null when no tag has words.
 */
export function toFtsTagQuery(tags: readonly string[]): string | null {
  const phrases = tagPhrases(tags).map((words) => `"${words.join(' ')}"`);
  return phrases.length === 0 ? null : `tags : (${phrases.join(' OR ')})`;
}
