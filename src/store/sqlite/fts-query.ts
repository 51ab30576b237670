/** At most this many words of a query are searched; the rest are ignored. */
const MAX_WORDS = 32;

/** Runs of letters and digits: everything else (quotes, operators, column filters) is dropped. */
function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_WORDS) ?? [];
}

/**
 * Turns free text into FTS5 queries that cannot be misread as query syntax: only letters and
 * digits survive and each word is quoted; the last word is a prefix so search-as-you-type finds
 * partial words. Answers the rank tiers, best first: every word in the title, then every word
 * anywhere, then (for more than one word) any word. A search fills its limit tier by tier, so a
 * memory matching all the words always ranks above one matching only some, and a title match ranks
 * high even where bm25 cannot tell: FTS5 floors the idf of a word found in half the documents or
 * more at almost zero, which in a 12-memory workspace makes column weights count for nothing.
 * Empty when nothing searchable is left.
 */
export function toFtsTiers(text: string): string[] {
  const words = wordsOf(text);
  if (words.length === 0) return [];
  const terms = words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`);
  const allWords = terms.join(' ');
  const tiers = [`title : (${allWords})`, allWords];
  if (terms.length > 1) tiers.push(terms.join(' OR '));
  return tiers;
}

/**
 * An FTS5 query finding the candidates for a tag filter: each tag's words as a phrase in the tags
 * column. It over-matches (a phrase can span two tags), so callers still check the tags exactly;
 * a tag with no letter or digit has no words and cannot be found this way. Null when no tag has words.
 */
export function toFtsTagQuery(tags: readonly string[]): string | null {
  const phrases = tags
    .map(wordsOf)
    .filter((words) => words.length > 0)
    .map((words) => `"${words.join(' ')}"`);
  return phrases.length === 0 ? null : `tags : (${phrases.join(' OR ')})`;
}
