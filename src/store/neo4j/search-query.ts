import { FIELD_WEIGHTS, searchTerms, searchTiers } from '../../domain/search-words.js';

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

/** The index's fields with their boosts (search-words.ts's FIELD_WEIGHTS; a weight of 1 is Lucene's default). */
const FIELDS: readonly [field: string, boost: string][] = (
  [
    ['title', FIELD_WEIGHTS.title],
    ['content', FIELD_WEIGHTS.content],
    ['tagsText', FIELD_WEIGHTS.tags],
  ] as const
).map(([field, weight]) => [field, weight === 1 ? '' : `^${weight}`]);

/** One word in any field, with the field boosts. */
const anyField = (term: string): string => FIELDS.map(([field, boost]) => `${field}:(${term})${boost}`).join(' ');

/**
 * The Neo4j twin of the SQLite store's toFtsTiers: one Lucene query per rank tier of
 * search-words.ts, best first. The words are the ones search-words.ts keeps, lower-cased (prefix
 * terms are not analysed, and the index lower-cases what it stores) and escaped, the last one a
 * prefix. Empty when nothing searchable is left.
 */
export function toLuceneTiers(text: string): string[] {
  const terms = searchTerms(text, (word, isPrefix) => `${escapeLucene(word.toLowerCase())}${isPrefix ? '*' : ''}`);
  return searchTiers(terms.length).map((tier) => {
    if (tier === 'all-in-title') return `title:(${terms.map((term) => `+${term}`).join(' ')})`;
    if (tier === 'all-anywhere') return terms.map((term) => `+(${anyField(term)})`).join(' ');
    const group = `(${terms.join(' OR ')})`;
    return FIELDS.map(([field, boost]) => `${field}:${group}${boost}`).join(' OR ');
  });
}

/**
 * A query limited to one workspace: its name as a phrase of the index's `workspace` field is
 * required. The analyzer splits a name as it splits text, so two names may share a phrase
 * (`team-a`, `team a`); the statements still check the workspace exactly, this only keeps
 * Lucene from reading other workspaces' matches.
 */
export const inWorkspace = (ws: string, query: string): string =>
  `+workspace:"${ws.replace(/["\\]/g, '\\$&')}" +(${query})`;

/** Most matches one tier of a search reads, the best by Lucene's score (SEARCH_MEMORIES). */
export const RANKED_PER_TIER = 1000;
