import { describe, expect, it } from 'vitest';
import { LruByBytes } from '../../src/store/sqlite/lru-by-bytes.js';

/** A cache on a clock the test moves. */
function cache(limits: { maxBytes: number; idleMs: number }) {
  let now = 0;
  const lru = new LruByBytes<string>(limits, () => now);
  return { lru, advance: (ms: number) => (now += ms) };
}

describe('LruByBytes', () => {
  it('drops the least recently used values once their bytes pass the cap, counting each by its size', () => {
    const { lru } = cache({ maxBytes: 100, idleMs: 60_000 });
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    lru.get('a');
    lru.set('c', 'C', 40);
    expect(lru.peek('b')).toBeUndefined();
    expect([lru.peek('a'), lru.peek('c')]).toEqual(['A', 'C']);
    expect(lru.bytes).toBe(80);
    expect(lru.size).toBe(2);
  });

  it('keeps many small values where a count of edges would not have dropped any, within the same bytes', () => {
    const { lru } = cache({ maxBytes: 10 * 3_400, idleMs: 60_000 });
    for (let n = 0; n < 10_000; n++) lru.set(`ws-${n}`, 'index', 3_400);
    expect(lru.size).toBe(10);
    expect(lru.bytes).toBe(34_000);
    expect(lru.peek('ws-9999')).toBe('index');
  });

  it('refuses a value larger than the cap alone, and keeps the others', () => {
    const { lru } = cache({ maxBytes: 100, idleMs: 60_000 });
    lru.set('a', 'A', 60);
    expect(lru.set('huge', 'H', 101)).toBe(false);
    expect(lru.peek('huge')).toBeUndefined();
    expect(lru.peek('a')).toBe('A');
  });

  it('replaces a value under the same key with its new size', () => {
    const { lru } = cache({ maxBytes: 100, idleMs: 60_000 });
    lru.set('a', 'A', 10);
    lru.set('a', 'A2', 70);
    expect(lru.bytes).toBe(70);
    expect(lru.delete('a')).toBe('A2');
    expect(lru.bytes).toBe(0);
  });

  it('drops values unused for idleMs on the next use of the cache, and keeps those used since', () => {
    const { lru, advance } = cache({ maxBytes: 1_000, idleMs: 10_000 });
    lru.set('idle', 'I', 10);
    lru.set('busy', 'B', 10);
    advance(6_000);
    lru.get('busy');
    advance(6_000);
    expect(lru.get('busy')).toBe('B');
    expect(lru.peek('idle')).toBeUndefined();
    expect(lru.bytes).toBe(10);
  });
});
