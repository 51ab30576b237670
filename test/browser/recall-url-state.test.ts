import { describe, expect, it } from 'vitest';
import { formatLocation, parseLocation } from '../../web/src/url-state.js';

/** The recall part of the explorer's address fragment, without a browser. */
describe('explorer address fragment: recall', () => {
  it('writes the words percent-encoded and the seed by key, after the memory and the path', () => {
    expect(formatLocation({ memory: null, path: null, recall: { query: 'warmup spikes', seed: null } })).toBe(
      '#recall=warmup%20spikes',
    );
    expect(formatLocation({ memory: 'need-acid', path: null, recall: { query: 'ledger', seed: 'need-acid' } })).toBe(
      '#memory=need-acid&recall=ledger&seed=need-acid',
    );
    expect(formatLocation({ memory: null, path: null, recall: { query: '', seed: 'need-acid' } })).toBe(
      '#recall=&seed=need-acid',
    );
  });

  it('reads back every recall it writes', () => {
    const locations = [
      { memory: null, path: null, recall: { query: 'a & b, c=d #e', seed: null } },
      { memory: 'x', path: { from: 'a', to: 'b', maxHops: 3 }, recall: { query: 'ACID', seed: 'ns/key:1' } },
      { memory: null, path: null, recall: { query: '', seed: 'need-acid' } },
    ];
    for (const location of locations) expect(parseLocation(formatLocation(location))).toEqual(location);
  });

  it('has no recall without words or a seed, and none when the fragment does not name one', () => {
    expect(parseLocation('#recall=').recall).toBeUndefined();
    expect(parseLocation('#recall=%20%20').recall).toBeUndefined();
    expect(parseLocation('#memory=k').recall).toBeUndefined();
    expect(parseLocation('#recall=%E0%A4%A').recall).toBeUndefined();
    expect(parseLocation('#seed=need-acid').recall).toEqual({ query: '', seed: 'need-acid' });
  });
});
