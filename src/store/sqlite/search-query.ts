import { FIELD_WEIGHTS, type SearchTier, searchTerms, searchTiers } from '../../domain/search-words.js';

/**
 * Turns free text into FTS5 queries that cannot be misread as query syntax: the words
 * search-words.ts keeps (letters and digits only), each quoted, the last one a prefix, one query
 * per rank tier of search-words.ts, best first. Empty when nothing searchable is left.
 */
export function toFtsTiers(text: string): string[] {
  const terms = toFtsTerms(text);
  return searchTiers(terms.length).map((tier) => ftsTier(tier, terms));
}

/**
 * The words of a text as FTS5 terms, each quoted, the last one a prefix unless `needsPrefix` says
 * the whole word finds the same memories.
 */
export const toFtsTerms = (text: string, needsPrefix: (word: string) => boolean = () => true): string[] =>
  searchTerms(text, (word, isPrefix) => `"${word}"${isPrefix && needsPrefix(word) ? '*' : ''}`);

/** One rank tier's FTS5 query over terms of toFtsTerms. */
export function ftsTier(tier: SearchTier, terms: readonly string[]): string {
  if (tier === 'all-in-title') return `title : (${terms.join(' ')})`;
  return tier === 'all-anywhere' ? terms.join(' ') : terms.join(' OR ');
}

/**
 * A workspace's token in the full-text index's `scope` column: its name's UTF-8 bytes in hex, as
 * the schema's `'w' || hex(workspace)` writes it. Letters and digits only, so the tokenizer keeps
 * it whole, and no two workspaces share it.
 */
export const ftsScope = (ws: string): string => `w${Buffer.from(ws, 'utf8').toString('hex')}`;

/**
 * A full-text query limited to one workspace's memories, inside the index. The token is matched
 * in any column (a column filter makes FTS5 decode every position): a text that holds another
 * workspace's token is matched too, and the statements' own workspace check drops it.
 */
export const inScope = (ws: string, match: string): string => `"${ftsScope(ws)}" AND (${match})`;

/**
 * A word held by more memories of the database than this is common: a tier with it is not ranked
 * by bm25(), which scores every match (about a microsecond each) and counts every holder of every
 * word of the query (about 0.07 µs each), but listed most recently stored first, reading at most
 * this many matches. A word held by 100,000 memories cost a search about 90 ms of the synchronous
 * connection (bench/search-bench.ts).
 */
export const COMMON_WORD_HOLDERS = 5000;

/** FTS5's bm25() column weights, in the table's column order (title, content, tags, scope). */
export const BM25_WEIGHTS = [FIELD_WEIGHTS.title, FIELD_WEIGHTS.content, FIELD_WEIGHTS.tags, 0]
  .map((weight) => weight.toFixed(1))
  .join(', ');

/** Which of a search's terms are common (COMMON_WORD_HOLDERS), each counted only when an answer needs it. */
export interface CommonWords {
  /** Whether some term is common: counts until the first common one. */
  anyCommon(): boolean;
  /** The terms that are not common, in the text's order: counts them all. */
  rare(): string[];
  /** The terms bm25() gives weight to (neither common nor weightless), in the text's order: counts them all. */
  weighed(): string[];
}

/**
 * Counting a word's holders reads up to COMMON_WORD_HOLDERS postings (about 0.8 ms), and a prefix
 * term's count first merges the postings of every word it starts (2.4 ms for a word of 25,000
 * memories), so whole words are counted first and counting stops at the first common word: the
 * first two tiers only ask whether there is one, and most searches fill their limit there.
 */
export function commonWords(
  terms: readonly string[],
  isCommon: (term: string) => boolean,
  weighsNothing: (term: string) => boolean = () => false,
): CommonWords {
  const counted = new Map<string, boolean>();
  const common = (term: string): boolean => {
    let answer = counted.get(term);
    if (answer === undefined) {
      answer = isCommon(term);
      counted.set(term, answer);
    }
    return answer;
  };
  const cheapestFirst = [...terms.filter((term) => !term.endsWith('*')), ...terms.filter((term) => term.endsWith('*'))];
  return {
    anyCommon: () => cheapestFirst.some(common),
    rare: () => terms.filter((term) => !common(term)),
    weighed: () => terms.filter((term) => !common(term) && !weighsNothing(term)),
  };
}
