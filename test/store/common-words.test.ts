import { describe, expect, it } from 'vitest';
import { commonWords } from '../../src/store/sqlite/search-query.js';

/** A holder count that records what it was asked, with a fixed set of common terms. */
function counter(common: readonly string[]) {
  const asked: string[] = [];
  return {
    asked,
    isCommon: (term: string) => {
      asked.push(term);
      return common.includes(term);
    },
  };
}

describe('commonWords: a search counts only the holders its answer needs', () => {
  it('stops at the first common word, counting whole words before the prefix term', () => {
    const count = counter(['"export"']);
    const words = commonWords(['"export"', '"request"', '"exp"*'], count.isCommon);
    expect(words.anyCommon()).toBe(true);
    expect(count.asked).toEqual(['"export"']);
  });

  it('counts the prefix term last, and only when no whole word is common', () => {
    const count = counter(['"exp"*']);
    const words = commonWords(['"exp"*', '"request"'], count.isCommon);
    expect(words.anyCommon()).toBe(true);
    expect(count.asked).toEqual(['"request"', '"exp"*']);
  });

  it('lists the rare terms in the text order, counting each term once', () => {
    const count = counter(['"the"']);
    const words = commonWords(['"leo"', '"the"', '"game"*'], count.isCommon);
    expect(words.anyCommon()).toBe(true);
    expect(words.rare()).toEqual(['"leo"', '"game"*']);
    expect(words.anyCommon()).toBe(true);
    expect([...count.asked].sort()).toEqual(['"game"*', '"leo"', '"the"']);
  });

  it('reports no common word when every count is below the threshold', () => {
    const count = counter([]);
    const words = commonWords(['"leo"', '"game"*'], count.isCommon);
    expect(words.anyCommon()).toBe(false);
    expect(words.rare()).toEqual(['"leo"', '"game"*']);
    expect(count.asked).toHaveLength(2);
  });
});
