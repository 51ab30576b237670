import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../src/store/sqlite/fts-query.js';
import { escapeLucene, toLuceneQuery } from '../../src/store/neo4j/fulltext-query.js';

describe('escapeLucene', () => {
  it.each([
    ['+', '\\+'],
    ['-', '\\-'],
    ['&&', '\\&\\&'],
    ['||', '\\|\\|'],
    ['!', '\\!'],
    ['(x)', '\\(x\\)'],
    ['{x}', '\\{x\\}'],
    ['[x]', '\\[x\\]'],
    ['^2', '\\^2'],
    ['"quoted"', '\\"quoted\\"'],
    ['~1', '\\~1'],
    ['a*b?', 'a\\*b\\?'],
    ['title:x', 'title\\:x'],
    ['a\\b', 'a\\\\b'],
    ['a/b', 'a\\/b'],
  ])('escapes %s', (term, escaped) => {
    expect(escapeLucene(term)).toBe(escaped);
  });

  it('makes the operator words plain terms', () => {
    expect(escapeLucene('AND')).toBe('\\AND');
    expect(escapeLucene('OR')).toBe('\\OR');
    expect(escapeLucene('NOT')).toBe('\\NOT');
    expect(escapeLucene('ANDROID')).toBe('ANDROID');
  });

  it('leaves letters and digits alone', () => {
    expect(escapeLucene('postgres16')).toBe('postgres16');
    expect(escapeLucene('Zürich')).toBe('Zürich');
  });
});

describe('toLuceneQuery', () => {
  it('searches title (boost 4), content and tags (boost 2), the last word as a prefix', () => {
    expect(toLuceneQuery('postgres')).toBe('title:(postgres*)^4 OR content:(postgres*) OR tagsText:(postgres*)^2');
  });

  it('ORs the words, lower-cased, like the SQLite query', () => {
    expect(toLuceneQuery('Postgres Scales')).toBe(
      'title:(postgres OR scales*)^4 OR content:(postgres OR scales*) OR tagsText:(postgres OR scales*)^2',
    );
  });

  it('keeps the same words as the SQLite FTS query, in the same order', () => {
    for (const text of [
      'postgres AND OR NOT redis',
      "'); DROP TABLE memories; --",
      'title:postgres',
      'Zürich 2024 déjà-vu',
      'a b c',
    ]) {
      const fts =
        toFtsQuery(text)
          ?.match(/"([^"]+)"/g)
          ?.map((word) => word.slice(1, -1).toLowerCase()) ?? null;
      const lucene =
        toLuceneQuery(text)
          ?.match(/^title:\(([^)]*)\)/)?.[1]
          ?.split(' OR ')
          .map((term) => term.replace(/\*$/, '').replace(/\\/g, '')) ?? null;
      expect(lucene, text).toEqual(fts);
    }
  });

  it.each([
    ['a lone double quote', '"'],
    ['only punctuation', '!?.,;:'],
    ['only whitespace', '   '],
    ['a lone star', '*'],
  ])('returns null for %s', (_label, text) => {
    expect(toLuceneQuery(text)).toBeNull();
  });

  it.each([
    ['an unbalanced quote', 'postgres "store'],
    ['operators between words', 'postgres AND OR NOT redis'],
    ['an open group', '(postgres OR'],
    ['a field filter', 'title:postgres'],
    ['boost and fuzzy syntax', 'postgres^10 redis~2'],
    ['a Cypher injection attempt', "x'}) DETACH DELETE n //"],
  ])('builds a query with only escaped terms for %s', (_label, text) => {
    const query = toLuceneQuery(text) as string;
    const group = /^title:\((.*)\)\^4 OR /.exec(query)?.[1] ?? '';
    for (const term of group.split(' OR ')) expect(term).toMatch(/^(\\?[\p{Ll}\p{Lo}\p{N}])+\*?$/u);
  });

  it('keeps at most 32 words', () => {
    const text = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const group = /^title:\((.*)\)\^4/.exec(toLuceneQuery(text) as string)?.[1] ?? '';
    expect(group.split(' OR ')).toHaveLength(32);
    expect(group.endsWith('w31*')).toBe(true);
  });
});
