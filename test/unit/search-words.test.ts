import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORDS, searchTerms, searchWords } from '../../src/domain/search-words.js';

describe('searchWords', () => {
  it.each([
    ['query syntax', 'title:postgres AND "re"dis* NEAR(', ['title', 'postgres', 'AND', 're', 'dis', 'NEAR']],
    ['an injection attempt', "x'}) DETACH DELETE n //", ['x', 'DETACH', 'DELETE', 'n']],
    [
      'letters and digits of any script, case kept',
      'Zürich 2024 déjà-vu 東京',
      ['Zürich', '2024', 'déjà', 'vu', '東京'],
    ],
    ['Lucene specials', 'postgres^10 redis~2 a/b c\\d', ['postgres', '10', 'redis', '2', 'a', 'b', 'c', 'd']],
  ])('keeps only the runs of letters and digits of %s, in order', (_label, text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it.each([[''], ['   '], ['"'], ['!?.,;:'], ['*'], ['-- ++ ||']])('has no words in %j', (text) => {
    expect(searchWords(text)).toEqual([]);
  });

  it(`keeps the first ${MAX_SEARCH_WORDS} words`, () => {
    const text = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const words = searchWords(text);
    expect(MAX_SEARCH_WORDS).toBe(32);
    expect(words).toHaveLength(32);
    expect(words.at(0)).toBe('w0');
    expect(words.at(-1)).toBe('w31');
  });
});

describe('searchTerms', () => {
  const mark = (word: string, isPrefix: boolean) => (isPrefix ? `${word}*` : word);

  it('writes each word with the store’s quoting; only the last is a prefix', () => {
    expect(searchTerms('warmup "spikes" again', mark)).toEqual(['warmup', 'spikes', 'again*']);
  });

  it('makes a single word a prefix', () => {
    expect(searchTerms('postg', mark)).toEqual(['postg*']);
  });

  it('makes the last kept word the prefix when the text has more than the limit', () => {
    const text = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const terms = searchTerms(text, mark);
    expect(terms).toHaveLength(MAX_SEARCH_WORDS);
    expect(terms.filter((term) => term.endsWith('*'))).toEqual(['w31*']);
  });

  it('leaves out single letters (a possessive s, a contraction t) when longer words are left', () => {
    expect(searchTerms("What is Leo's cousin's baby", mark)).toEqual(['What', 'is', 'Leo', 'cousin', 'baby*']);
    expect(searchTerms("don't s", mark)).toEqual(['don*']);
    expect(searchTerms('Python 3 a', mark)).toEqual(['Python', '3*']);
  });

  it('keeps single letters when nothing else is left', () => {
    expect(searchTerms('C', mark)).toEqual(['C*']);
    expect(searchTerms('a b', mark)).toEqual(['a', 'b*']);
  });

  it('is empty when no word is left', () => {
    expect(searchTerms('?! "', mark)).toEqual([]);
  });
});
