/** Characters with a meaning in Lucene's classic query syntax (as used by Neo4j full-text indexes). */
const LUCENE_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/** Words the query parser reads as operators when written in capitals. */
const LUCENE_OPERATORS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT']);

/** At most this many words of a query are searched, as on the SQLite store. */
const MAX_WORDS = 32;

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

/** Runs of letters and digits, lower-cased: prefix terms are not analysed, and the index lower-cases what it stores. */
function wordsOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_WORDS) ?? []).map((word) => word.toLowerCase());
}

/** One word in any field, with the field boosts. */
const anyField = (term: string): string => FIELDS.map(([field, boost]) => `${field}:(${term})${boost}`).join(' ');

/**
 * The Neo4j twin of the SQLite store's toFtsTiers, the same tiers best first: every word in the
 * title, every word in some field, then (for more than one word) any word. Each word is escaped,
 * the last one is a prefix for search-as-you-type. Empty when nothing searchable is left.
 */
export function toLuceneTiers(text: string): string[] {
  const words = wordsOf(text);
  if (words.length === 0) return [];
  const terms = words.map((word, index) => `${escapeLucene(word)}${index === words.length - 1 ? '*' : ''}`);
  const tiers = [
    `title:(${terms.map((term) => `+${term}`).join(' ')})`,
    terms.map((term) => `+(${anyField(term)})`).join(' '),
  ];
  if (terms.length > 1) {
    const group = `(${terms.join(' OR ')})`;
    tiers.push(FIELDS.map(([field, boost]) => `${field}:${group}${boost}`).join(' OR '));
  }
  return tiers;
}

/**
 * The Neo4j twin of toFtsTagQuery: each tag's words as a phrase in tagsText, candidates only
 * (callers check the tags exactly). Null when no tag has a letter or digit.
 */
export function toLuceneTagQuery(tags: readonly string[]): string | null {
  const phrases = tags
    .map(wordsOf)
    .filter((words) => words.length > 0)
    .map((words) => `"${words.join(' ')}"`);
  return phrases.length === 0 ? null : `tagsText:(${phrases.join(' OR ')})`;
}
