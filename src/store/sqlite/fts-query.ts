import { searchTerms, tagPhrases } from '../shared/search-words.js';

/**
 * Turns free text into FTS5 queries that cannot be misread as query syntax: the words
 * search-words.ts keeps (letters and digits only), each quoted, the last one a prefix. Answers the
 * rank tiers, best first: every word in the title, then every word anywhere, then (for more than
 * one word) any word. A search fills its limit tier by tier, so a
 * memory matching all the words always ranks above one matching only some, and a title match ranks
 * high even where bm25 cannot tell: FTS5 floors the idf of a word found in half the documents or
 * more at almost zero, which in a 12-memory workspace makes column weights count for nothing.
 * Empty when nothing searchable is left.
 */
export function toFtsTiers(text: string): string[] {
  const terms = searchTerms(text, (word, isPrefix) => `"${word}"${isPrefix ? '*' : ''}`);
  if (terms.length === 0) return [];
  const allWords = terms.join(' ');
  const tiers = [`title : (${allWords})`, allWords];
  if (terms.length > 1) tiers.push(terms.join(' OR '));
  return tiers;
}

/**
 * An FTS5 query finding the candidates for a tag filter: each tag's words as a phrase in the tags
 * column. It over-matches (a phrase can span two tags), so callers still check the tags exactly.
 * Null when no tag has words.
 */
export function toFtsTagQuery(tags: readonly string[]): string | null {
  const phrases = tagPhrases(tags).map((words) => `"${words.join(' ')}"`);
  return phrases.length === 0 ? null : `tags : (${phrases.join(' OR ')})`;
}
