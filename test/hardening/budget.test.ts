import { setImmediate as yieldToIo } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { LeakyBuckets } from '../../src/http/use-cost-budget.js';
import { codes, hardenedApp, type HardenedApp } from './support.js';

describe('LeakyBuckets', () => {
  it('lets a burst through, refuses the overflow with the time until it fits, and drains at the rate', () => {
    let now = 0;
    const buckets = new LeakyBuckets(100, 1000, () => now);
    for (let i = 0; i < 10; i++) expect(buckets.take('a', 100)).toEqual({ ok: true });
    expect(buckets.take('a', 100)).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(buckets.take('a', 1)).toEqual({ ok: false, retryAfterMs: 10 });
    // Another key has its own bucket.
    expect(buckets.take('b', 1000)).toEqual({ ok: true });
    now += 500; // 50 points drained
    expect(buckets.take('a', 60)).toEqual({ ok: false, retryAfterMs: 100 });
    expect(buckets.take('a', 50)).toEqual({ ok: true });
    now += 10_000;
    expect(buckets.take('a', 1000)).toEqual({ ok: true });
  });

  it('forgets drained buckets once many are tracked', () => {
    let now = 0;
    const buckets = new LeakyBuckets(1000, 1000, () => now);
    for (let i = 0; i < 10_000; i++) buckets.take(`ws-${i}`, 1);
    now += 1000;
    buckets.take('one-more', 1);
    expect(buckets.size).toBeLessThan(10);
  });

  it('needs a burst of at least ENGRAM_MAX_COST', () => {
    expect(() => loadConfig({ ENGRAM_RATE_BURST: '100', ENGRAM_MAX_COST: '5000' })).toThrow(/ENGRAM_RATE_BURST must be at least ENGRAM_MAX_COST/);
    expect(() => loadConfig({ ENGRAM_RATE_BURST: '100', ENGRAM_MAX_COST: '5000', ENGRAM_RATE_POINTS_PER_SECOND: '0' })).not.toThrow();
  });
});

/** A hub with `spokes` neighbours, each linked to the next: neighbors-of-neighbors queries do real work. */
async function seedWheel(t: HardenedApp, workspace: string, spokes: number): Promise<void> {
  const now = new Date().toISOString();
  const memory = (id: string) => ({ id, key: null, title: `memory ${id}`, content: 'x'.repeat(200), kind: null, tags: [], weight: 0.5, metadata: null });
  await t.store.importBatch(
    workspace,
    {
      memories: [memory('hub'), ...Array.from({ length: spokes }, (_, i) => memory(`s${i}`))],
      edges: Array.from({ length: spokes }, (_, i) => [
        { id: `e-hub-${i}`, fromId: 'hub', toId: `s${i}`, type: 'RELATED_TO', weight: 0.5, metadata: null },
        { id: `e-ring-${i}`, fromId: `s${i}`, toId: `s${(i + 1) % spokes}`, type: 'RELATED_TO', weight: 0.6, metadata: null },
      ]).flat(),
    },
    now,
  );
}

const HEAVY = `query Heavy { memory(id: "hub") { neighbors(limit: 100) { memory { title content neighbors(limit: 100) { memory { title content } edge { weight } } } } } }`;
const LIGHT = `query Light { memory(id: "hub") { title neighbors(limit: 5) { memory { title } } } }`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * LIGHT as workspace "quiet", one at a time with a pause between (a quiet tenant stays inside its
 * own budget), for at least `rounds` requests and `ms` milliseconds.
 */
async function timeLight(t: HardenedApp, rounds: number, ms = 0): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + ms;
  for (let i = 0; i < rounds || performance.now() < until; i++) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    const started = performance.now();
    const response = await t.gql(LIGHT, {}, { 'x-engram-workspace': 'quiet' });
    times.push(performance.now() - started);
    expect(response.errors).toBeUndefined();
  }
  return times;
}

/** `clients` loops sending HEAVY as workspace "noisy" until `stop` is set; counts answers by code. */
function flood(t: HardenedApp, clients: number) {
  const counts = new Map<string, number>();
  let stop = false;
  const loops = Array.from({ length: clients }, async () => {
    while (!stop) {
      // In-process fetches of refused requests never wait for I/O: yield as a socket would.
      await yieldToIo();
      const response = await t.gql(HEAVY, {}, { 'x-engram-workspace': 'noisy' });
      const code = codes(response)[0] ?? 'ok';
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  });
  return {
    counts,
    async end() {
      stop = true;
      await Promise.all(loops);
    },
  };
}

describe('per-workspace cost budget', () => {
  let t: HardenedApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers an operation over the budget with RATE_LIMITED, 429, Retry-After and retryAfterMs', async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '10', ENGRAM_RATE_BURST: '5000' } });
    await seedWheel(t, 'noisy', 20);
    let limited: Awaited<ReturnType<HardenedApp['gql']>> | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const response = await t.gql(HEAVY, {}, { 'x-engram-workspace': 'noisy' });
      if (codes(response).includes('RATE_LIMITED')) limited = response;
      else expect(response.errors).toBeUndefined();
    }
    expect(limited?.status).toBe(429);
    const extensions = limited?.errors?.[0]?.extensions ?? {};
    expect(extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect(extensions.retryAfterMs).toBeGreaterThan(0);
    expect(Number(limited?.headers.get('retry-after'))).toBe(Math.ceil(extensions.retryAfterMs / 1000));
    expect(limited?.data ?? null).toBeNull();
    // Another workspace is not affected.
    expect((await t.gql(LIGHT, {}, { 'x-engram-workspace': 'quiet' })).errors?.[0]?.extensions?.code).not.toBe('RATE_LIMITED');
    const metrics = await (await t.fetch('/metrics')).text();
    expect(metrics).toMatch(/engram_rate_limited_total [1-9]/);
    expect(metrics).toMatch(/engram_graphql_errors_total\{code="RATE_LIMITED"\} [1-9]/);
  });

  it('charges the cost armor computed: a cheap query passes where a costly one is refused', async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '1', ENGRAM_RATE_BURST: '5000' } });
    await seedWheel(t, 'noisy', 5);
    let response;
    do response = await t.gql(HEAVY, {}, { 'x-engram-workspace': 'noisy' });
    while (!codes(response).includes('RATE_LIMITED'));
    const heavyCost = response.errors?.[0]?.extensions?.cost as number;
    expect(heavyCost).toBeGreaterThan(50);
    const cheap = await t.gql('{ __typename }', {}, { 'x-engram-workspace': 'noisy' });
    expect(cheap.errors).toBeUndefined();
  });

  /** Median LIGHT latency of workspace "quiet", alone and while "noisy" floods with 16 clients. */
  async function measure(env: Record<string, string>) {
    t = await hardenedApp({ env: { ENGRAM_MAX_COST: '1000', ENGRAM_RATE_BURST: '2000', ...env } });
    await seedWheel(t, 'noisy', 100);
    await seedWheel(t, 'quiet', 100);
    await timeLight(t, 10); // warm up caches and JIT
    const alone = median(await timeLight(t, 30));
    const noise = flood(t, 16);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const flooded = median(await timeLight(t, 30, 1500));
    await noise.end();
    await t.close();
    t = undefined;
    return { alone, flooded, factor: flooded / alone, counts: Object.fromEntries(noise.counts) };
  }

  it('keeps a quiet workspace fast while another floods (the factor is printed)', async () => {
    const budgeted = await measure({ ENGRAM_RATE_POINTS_PER_SECOND: '400' });
    console.log(
      `[fairness] quiet workspace median latency while 16 clients flood another workspace: alone ${budgeted.alone.toFixed(2)} ms, flooded ${budgeted.flooded.toFixed(2)} ms, factor x${budgeted.factor.toFixed(2)}; flood answers ${JSON.stringify(budgeted.counts)}`,
    );
    expect(budgeted.counts.RATE_LIMITED ?? 0).toBeGreaterThan(budgeted.counts.ok ?? 0);
    expect(budgeted.factor).toBeLessThan(4);
  });
});
