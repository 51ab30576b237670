import { describe, expect, it } from 'vitest';
import { escapeLucene, toLuceneTiers } from '../../src/store/neo4j/search-query.js';
import { toFtsTiers } from '../../src/store/sqlite/search-query.js';

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

describe('toFtsTiers', () => {
  it('ranks all words in the title, then all words anywhere, then any word; the last word a prefix', () => {
    expect(toFtsTiers('warmup spikes')).toEqual([
      'title : ("warmup" "spikes"*)',
      '"warmup" "spikes"*',
      '"warmup" OR "spikes"*',
    ]);
  });

  it('has no any-word tier for one word (it would repeat the second)', () => {
    expect(toFtsTiers('postgres')).toEqual(['title : ("postgres"*)', '"postgres"*']);
  });

  it.each([
    ['a column filter', 'title:postgres', ['title', 'postgres']],
    ['operators', 'postgres AND OR NOT NEAR(', ['postgres', 'AND', 'OR', 'NOT', 'NEAR']],
    ['quotes and stars', '"re"dis* "', ['re', 'dis']],
  ])('quotes every word of %s, so none is read as syntax', (_label, text, words) => {
    const [title, all] = toFtsTiers(text);
    const quoted = words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
    expect(all).toBe(quoted);
    expect(title).toBe(`title : (${quoted})`);
  });

  it.each([['"'], ['!?.,;:'], ['   '], ['*']])('is empty for %j', (text) => {
    expect(toFtsTiers(text)).toEqual([]);
  });
});

describe('toLuceneTiers', () => {
  it('builds the same tiers as SQLite: title must have every word, then every word in some field, then any', () => {
    expect(toLuceneTiers('Warmup Spikes')).toEqual([
      'title:(+warmup +spikes*)',
      '+(title:(warmup)^4 content:(warmup) tagsText:(warmup)^2) +(title:(spikes*)^4 content:(spikes*) tagsText:(spikes*)^2)',
      'title:(warmup OR spikes*)^4 OR content:(warmup OR spikes*) OR tagsText:(warmup OR spikes*)^2',
    ]);
  });

  it('has two tiers for one word', () => {
    expect(toLuceneTiers('postgres')).toEqual([
      'title:(+postgres*)',
      '+(title:(postgres*)^4 content:(postgres*) tagsText:(postgres*)^2)',
    ]);
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
        toFtsTiers(text)[1]
          ?.match(/"([^"]+)"/g)
          ?.map((word) => word.slice(1, -1).toLowerCase()) ?? null;
      const lucene =
        toLuceneTiers(text)[0]
          ?.match(/^title:\(([^)]*)\)/)?.[1]
          ?.split(' ')
          .map((term) => term.replace(/^\+/, '').replace(/\*$/, '').replace(/\\/g, '')) ?? null;
      expect(lucene, text).toEqual(fts);
    }
  });

  it.each([
    ['a lone double quote', '"'],
    ['only punctuation', '!?.,;:'],
    ['only whitespace', '   '],
    ['a lone star', '*'],
  ])('is empty for %s', (_label, text) => {
    expect(toLuceneTiers(text)).toEqual([]);
  });

  it.each([
    ['an unbalanced quote', 'postgres "store'],
    ['operators between words', 'postgres AND OR NOT redis'],
    ['an open group', '(postgres OR'],
    ['a field filter', 'title:postgres'],
    ['boost and fuzzy syntax', 'postgres^10 redis~2'],
    ['a Cypher injection attempt', "x'}) DETACH DELETE n //"],
  ])('builds queries with only escaped terms for %s', (_label, text) => {
    const [title, all, any] = toLuceneTiers(text) as [string, string, string];
    const required = /^title:\((.*)\)$/.exec(title)?.[1] ?? '';
    for (const term of required.split(' ')) expect(term).toMatch(/^\+(\\?[\p{Ll}\p{Lo}\p{N}])+\*?$/u);
    for (const group of all.match(/\((?:title|content|tagsText):\(([^)]*)\)/g) ?? []) {
      expect(group).toMatch(/^\((title|content|tagsText):\((\\?[\p{Ll}\p{Lo}\p{N}])+\*?\)$/u);
    }
    const anyGroup = /^title:\((.*)\)\^4 OR /.exec(any)?.[1] ?? '';
    for (const term of anyGroup.split(' OR ')) expect(term).toMatch(/^(\\?[\p{Ll}\p{Lo}\p{N}])+\*?$/u);
  });

  it('keeps at most 32 words', () => {
    const text = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const required = /^title:\((.*)\)$/.exec(toLuceneTiers(text)[0] as string)?.[1] ?? '';
    expect(required.split(' ')).toHaveLength(32);
    expect(required.endsWith('+w31*')).toBe(true);
  });
});
