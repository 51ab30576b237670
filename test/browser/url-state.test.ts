import { describe, expect, it } from 'vitest';
import { EMPTY_LOCATION, formatLocation, parseLocation } from '../../web/src/url-state.js';

/** The explorer's address fragment, without a browser: what a shared link says and what it restores. */
describe('explorer address fragment', () => {
  it('writes the opened memory and the path ends readably, hops only when not the default', () => {
    expect(formatLocation({ memory: 'need-acid', path: null })).toBe('#memory=need-acid');
    expect(
      formatLocation({ memory: 'audit-trail', path: { from: 'postgres-choice', to: 'audit-trail', maxHops: 4 } }),
    ).toBe('#memory=audit-trail&path=postgres-choice,audit-trail');
    expect(formatLocation({ memory: null, path: { from: 'a', to: 'b', maxHops: 2 } })).toBe('#path=a,b&hops=2');
    expect(formatLocation(EMPTY_LOCATION)).toBe('');
    // Ids and keys use letters, digits and _ . : / -, which a fragment carries as they are.
    expect(formatLocation({ memory: 'ns/key:1.2_x-y', path: null })).toBe('#memory=ns/key:1.2_x-y');
  });

  it('reads back every location it writes', () => {
    const locations = [
      EMPTY_LOCATION,
      { memory: '0193a3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', path: null },
      { memory: null, path: { from: 'a', to: 'b', maxHops: 10 } },
      { memory: 'x', path: { from: 'ns/a:1', to: 'b.2', maxHops: 1 } },
      // Anything outside the handle alphabet is percent-encoded, commas and ampersands included.
      { memory: 'a,b&c=d #e', path: { from: 'é,1', to: '&', maxHops: 4 } },
    ];
    for (const location of locations) expect(parseLocation(formatLocation(location))).toEqual(location);
  });

  it('ignores what it does not understand instead of failing', () => {
    expect(parseLocation('')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#section-2')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#memory=')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#memory=%E0%A4%A')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#path=only-one')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#path=a,b,c')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#path=a,')).toEqual(EMPTY_LOCATION);
    expect(parseLocation('#memory=k&other=1&path=a,b&hops=99')).toEqual({
      memory: 'k',
      path: { from: 'a', to: 'b', maxHops: 4 },
    });
    expect(parseLocation('#path=a,b&hops=2.5').path?.maxHops).toBe(4);
  });
});
