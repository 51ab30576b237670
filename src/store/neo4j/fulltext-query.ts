/** Characters with a meaning in Lucene's classic query syntax (as used by Neo4j full-text indexes). */
const LUCENE_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/** Words the query parser reads as operators when written in capitals. */
const LUCENE_OPERATORS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT']);

/**
 * Makes one term literal for Lucene's query parser: every special character is backslash-escaped,
 * and an operator word gets its first letter escaped, which makes it a plain term.
 */
export function escapeLucene(term: string): string {
  const escaped = term.replace(LUCENE_SPECIAL, '\\$&');
  return LUCENE_OPERATORS.has(escaped) ? `\\${escaped}` : escaped;
}

/** Field boosts mirroring the SQLite store's bm25 weights (title 4, content 1, tags 2). */
const FIELDS: readonly [field: string, boost: string][] = [
  ['title', '^4'],
  ['content', ''],
  ['tagsText', '^2'],
];

/**
 * The Neo4j twin of the SQLite store's toFtsQuery: only runs of letters and digits survive (at most
 * 32), each is lower-cased (prefix terms are not analysed, and the index lower-cases what it
 * stores) and escaped, the words are ORed so documents matching more of them rank first, and the
 * last word is a prefix for search-as-you-type. Returns null when nothing searchable is left.
 */
export function toLuceneQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu)?.slice(0, 32) ?? [];
  if (words.length === 0) return null;
  const terms = words.map(
    (word, index) => `${escapeLucene(word.toLowerCase())}${index === words.length - 1 ? '*' : ''}`,
  );
  const group = `(${terms.join(' OR ')})`;
  return FIELDS.map(([field, boost]) => `${field}:${group}${boost}`).join(' OR ');
}
