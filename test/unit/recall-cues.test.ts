import { describe, expect, it } from 'vitest';
import { associationQuestion } from '../../src/domain/associations.js';
import { CUE_MATCH, cueMatch, cueWords, MAX_CUE_KEYS, MAX_CUE_TERMS } from '../../src/domain/recall-cues.js';

/** Recall cues' words and matching (domain/recall-cues.ts): what a question files, and which later questions it answers. */

const words = (text: string) => cueWords(associationQuestion(text));

describe('cueWords', () => {
  it('files a question under its names, with its other terms beside them, sorted', () => {
    expect(words('What is Tomas growing on the balcony in Lisbon?')).toEqual({
      names: ['lisbon', 'tomas'],
      terms: ['balcony', 'growing'],
      keys: ['lisbon', 'tomas'],
    });
  });

  it('files a question that names nothing under its terms, and one without terms not at all', () => {
    expect(words('warmup spikes after deploy')).toEqual({
      names: [],
      terms: ['deploy', 'spikes', 'warmup'],
      keys: ['deploy', 'spikes', 'warmup'],
    });
    expect(words('what is it?')).toBeNull();
  });

  it('keeps a long question to MAX_CUE_TERMS terms and MAX_CUE_KEYS keys', () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${String.fromCharCode(97 + (index % 26))}${index}`);
    const filed = words(long.join(' '));
    expect(filed?.terms).toHaveLength(MAX_CUE_TERMS);
    expect(filed?.keys).toHaveLength(MAX_CUE_KEYS);
  });
});

describe('cueMatch', () => {
  const taught = words('What is Tomas growing on the balcony?') as NonNullable<ReturnType<typeof words>>;
  const match = (text: string) => cueMatch(words(text) as NonNullable<ReturnType<typeof words>>, taught);

  it('is the share of the question terms the cue holds, from CUE_MATCH up', () => {
    expect(CUE_MATCH).toBe(0.5);
    expect(match('What is Tomas growing on the balcony?')).toBe(1);
    expect(match('What did Tomas plant on the balcony?')).toBe(0.5);
    expect(match('What did Tomas plant on the sunny balcony?')).toBe(0);
  });

  it('needs every name of the question among the cue names', () => {
    expect(match('What is Greta growing on the balcony?')).toBe(0);
    expect(match('What is Tomas growing on the balcony in Lisbon?')).toBe(0);
    // A cue may name more than the question asks about.
    const lisbon = words('What is Tomas growing on the balcony in Lisbon?') as NonNullable<ReturnType<typeof words>>;
    expect(cueMatch(words('What is Tomas growing on the balcony?') as typeof lisbon, lisbon)).toBe(1);
  });

  it('matches a question of names alone only with a cue of names alone', () => {
    const bare = words('Where is Tomas?') as NonNullable<ReturnType<typeof words>>;
    expect(cueMatch(bare, { names: ['tomas'], terms: [] })).toBe(1);
    expect(cueMatch(bare, taught)).toBe(0);
  });
});
