import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '../../src/store/port.js';
import { plainMemory } from '../helpers/records.js';
import { type HardenedApp, hardenedApp } from './support.js';

/** Every call of `method` waits `ms` first (a slow store); call start times are recorded. */
function slow(methods: keyof GraphStore | (keyof GraphStore)[], ms: number, starts: number[]) {
  const slowed: PropertyKey[] = Array.isArray(methods) ? methods : [methods];
  return (store: GraphStore): GraphStore =>
    new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (!slowed.includes(property) || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          starts.push(performance.now());
          await sleep(ms);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}

async function seedChain(t: HardenedApp, length: number): Promise<void> {
  await t.store.importBatch(
    'default',
    {
      memories: Array.from({ length }, (_, i) => plainMemory(`c${i}`)),
      edges: Array.from({ length: length - 1 }, (_, i) => ({
        id: `e${i}`,
        fromId: `c${i}`,
        toId: `c${i + 1}`,
        type: 'CAUSED_BY',
        weight: 0.5,
        metadata: null,
      })),
    },
    new Date().toISOString(),
  );
}

describe('request deadline (ENGRAM_REQUEST_TIMEOUT_MS)', () => {
  let t: HardenedApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('stops a walk between levels and starts no store work after the deadline', async () => {
    const starts: number[] = [];
    // Margins of 100 ms and more on both sides, so a loaded machine (test files run in parallel)
    // cannot blur the deadline (400 ms) with the end of the walk (5 levels x 150 ms).
    t = await hardenedApp({
      env: { ENGRAM_REQUEST_TIMEOUT_MS: '400' },
      wrapStore: slow('expandFrontier', 150, starts),
    });
    await seedChain(t, 12);
    const began = performance.now();
    const response = await t.gql(
      '{ memory(id: "c0") { traverse(maxDepth: 5, direction: OUTGOING) { depth memory { id } } } }',
    );
    const tookMs = performance.now() - began;
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
      reason: 'DEADLINE_EXCEEDED',
      timeoutMs: 400,
    });
    expect(response.status).toBeLessThan(500);
    // The answer comes at the deadline, not when the walk would have ended (5 levels x 150 ms).
    expect(tookMs).toBeLessThan(650);
    const callsAtAnswer = starts.length;
    expect(callsAtAnswer).toBeLessThanOrEqual(3);
    expect(starts.every((at) => at - began < 410)).toBe(true);
    await sleep(400);
    // Nothing went on in the background.
    expect(starts.length).toBe(callsAtAnswer);
  });

  it('stops a path search the same way (level by level, or a one-call search in the store)', async () => {
    const starts: number[] = [];
    t = await hardenedApp({
      env: { ENGRAM_REQUEST_TIMEOUT_MS: '100' },
      wrapStore: slow(['expandFrontier', 'shortestPath'], 150, starts),
    });
    await seedChain(t, 12);
    const response = await t.gql(`{ path(from: "c0", to: "c10", maxHops: 10) { found hops } }`);
    expect(response.data ?? null, JSON.stringify(response)).toBeNull();
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE', reason: 'DEADLINE_EXCEEDED' });
    const calls = starts.length;
    await sleep(300);
    expect(starts.length).toBe(calls);
    expect(calls).toBeLessThanOrEqual(1);
  });

  it('applies to every store call, not only walks', async () => {
    const starts: number[] = [];
    t = await hardenedApp({ env: { ENGRAM_REQUEST_TIMEOUT_MS: '100' }, wrapStore: slow('getMemories', 600, starts) });
    const began = performance.now();
    const response = await t.gql('{ memory(id: "x") { id } }');
    // At the deadline (100 ms), not when the store call ends (600 ms).
    expect(performance.now() - began).toBeLessThan(450);
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE', reason: 'DEADLINE_EXCEEDED' });
  });

  it('leaves requests inside the deadline alone', async () => {
    t = await hardenedApp({ env: { ENGRAM_REQUEST_TIMEOUT_MS: '2000' }, wrapStore: slow('expandFrontier', 5, []) });
    await seedChain(t, 12);
    const response = await t.gql('{ memory(id: "c0") { traverse(maxDepth: 5, direction: OUTGOING) { depth } } }');
    expect(response.errors).toBeUndefined();
    expect(response.data?.memory.traverse).toHaveLength(5);
  });
});
