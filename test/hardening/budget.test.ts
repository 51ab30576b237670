import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse, print } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { schema } from '../../src/graphql/index.js';
import { queryCost } from '../../src/limits/query-cost.js';
import { LeakyBuckets } from '../../src/plugins/use-cost-budget.js';
import { countingStore } from '../helpers/app.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

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

  it('lets spent work overflow the brim, then refuses until the bucket drains below it', () => {
    let now = 0;
    const buckets = new LeakyBuckets(100, 1000, () => now);
    expect(buckets.take('a', 1)).toEqual({ ok: true });
    buckets.spend('a', 1499);
    expect(buckets.remaining('a')).toBe(0);
    expect(buckets.take('a', 1)).toEqual({ ok: false, retryAfterMs: 5010 });
    now += 5010;
    expect(buckets.take('a', 1)).toEqual({ ok: true });
  });

  it('is off unless an operator sets a rate', () => {
    expect(loadConfig({}).rateLimit.pointsPerSecond).toBe(0);
    expect(loadConfig({ ENGRAM_RATE_POINTS_PER_SECOND: '50', ENGRAM_RATE_BURST: '100' }).rateLimit).toEqual({
      pointsPerSecond: 50,
      burst: 100,
    });
  });
});

/** A hub with `spokes` neighbours, each linked to the next: neighbors-of-neighbors queries do real work. */
async function seedWheel(t: HardenedApp, workspace: string, spokes: number): Promise<void> {
  const now = new Date().toISOString();
  const memory = (id: string) => ({
    id,
    key: null,
    title: `memory ${id}`,
    content: 'x'.repeat(200),
    kind: null,
    tags: [],
    weight: 0.5,
    metadata: null,
  });
  await t.store.importBatch(
    workspace,
    {
      memories: [memory('hub'), ...Array.from({ length: spokes }, (_, i) => memory(`s${i}`))],
      edges: Array.from({ length: spokes }, (_, i) => [
        { id: `e-hub-${i}`, fromId: 'hub', toId: `s${i}`, type: 'RELATED_TO', weight: 0.5, metadata: null },
        {
          id: `e-ring-${i}`,
          fromId: `s${i}`,
          toId: `s${(i + 1) % spokes}`,
          type: 'RELATED_TO',
          weight: 0.6,
          metadata: null,
        },
      ]).flat(),
    },
    now,
  );
}

/** Neighbors of neighbors: 15 × 15 rows, cost 546 (under ENGRAM_MAX_COST, so the budget decides). */
const HEAVY = `query Heavy { memory(id: "hub") { neighbors(limit: 15) { memory { title content neighbors(limit: 15) { memory { title content } edge { weight } } } } } }`;
const LIGHT = `query Light { memory(id: "hub") { title neighbors(limit: 5) { memory { title } } } }`;

/**
 * LIGHT as workspace "quiet", one at a time with a pause between (a quiet tenant stays inside its
 * own budget), `rounds` times; counts the answers by code.
 */
async function askQuietly(t: HardenedApp, rounds: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < rounds; i++) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    const response = await t.gql(LIGHT, {}, { 'x-engram-workspace': 'quiet' });
    const code = codes(response)[0] ?? 'ok';
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return counts;
}

/** `clients` loops sending HEAVY as workspace "noisy" until `end()`; counts answers by code. */
function flood(t: HardenedApp, clients: number) {
  const counts = new Map<string, number>();
  let stop = false;
  const done = { work: 0, heaviest: 0 };
  const loops = Array.from({ length: clients }, async () => {
    while (!stop) {
      // In-process fetches of refused requests never wait for I/O: yield as a socket would.
      await yieldToIo();
      const response = await t.gql(HEAVY, {}, { 'x-engram-workspace': 'noisy' });
      const code = codes(response)[0] ?? 'ok';
      counts.set(code, (counts.get(code) ?? 0) + 1);
      const actual = (response.extensions?.cost as { actual?: number } | undefined)?.actual ?? 0;
      done.work += actual;
      done.heaviest = Math.max(done.heaviest, actual);
    }
  });
  return {
    counts,
    get work() {
      return done.work;
    },
    get heaviest() {
      return done.heaviest;
    },
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
    expect((await t.gql(LIGHT, {}, { 'x-engram-workspace': 'quiet' })).errors?.[0]?.extensions?.code).not.toBe(
      'RATE_LIMITED',
    );
    const metrics = await (await t.fetch('/metrics')).text();
    expect(metrics).toMatch(/engram_rate_limited_total [1-9]/);
    expect(metrics).toMatch(/engram_graphql_errors_total\{code="RATE_LIMITED"\} [1-9]/);
  });

  it('charges what an operation did: a missing memory about 1 point, a hub read its rows', async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '1', ENGRAM_RATE_BURST: '60' } });
    await seedWheel(t, 'noisy', 100);
    const missing = await t.gql('{ memory(id: "nobody") { id } }', {}, { 'x-engram-workspace': 'noisy' });
    expect(missing.errors).toBeUndefined();
    const cheap = missing.extensions?.cost as { requested: number; actual: number; quota: Record<string, unknown> };
    expect(cheap.actual).toBeLessThanOrEqual(2);
    expect(cheap.quota).toMatchObject({ pointsPerSecond: 1, burst: 60 });
    expect(cheap.quota.remaining).toBeGreaterThanOrEqual(60 - cheap.actual - 1);
    const hub = await t.gql(
      '{ memory(id: "hub") { neighbors(limit: 100) { memory { id } } } }',
      {},
      {
        'x-engram-workspace': 'noisy',
      },
    );
    expect(hub.errors).toBeUndefined();
    const walk = hub.extensions?.cost as { actual: number; quota: { remaining: number } };
    // 100 edges with their memories, and the hub itself.
    expect(walk.actual).toBeGreaterThanOrEqual(100);
    expect(walk.actual).toBeLessThanOrEqual(220);
    expect(walk.quota.remaining).toBe(0);
    // The bucket is in debt: even the cheapest operation waits until it drained below the brim.
    const refused = await t.gql('{ memory(id: "nobody") { id } }', {}, { 'x-engram-workspace': 'noisy' });
    expect(codes(refused)).toEqual(['RATE_LIMITED']);
    expect(refused.errors?.[0]?.extensions?.retryAfterMs).toBeGreaterThan(30_000);
    // Another workspace has its own bucket.
    const other = await t.gql('{ memory(id: "nobody") { id } }', {}, { 'x-engram-workspace': 'other' });
    expect(other.errors).toBeUndefined();
  });

  it('refuses a flooding workspace beyond its budget while every request of a quiet one succeeds', async () => {
    const rate = 400;
    const burst = 2000;
    t = await hardenedApp({
      env: { ENGRAM_MAX_COST: '1000', ENGRAM_RATE_BURST: String(burst), ENGRAM_RATE_POINTS_PER_SECOND: String(rate) },
    });
    await seedWheel(t, 'noisy', 20);
    await seedWheel(t, 'quiet', 20);
    const began = performance.now();
    const noise = flood(t, 16);
    const quiet = await askQuietly(t, 25);
    await noise.end();
    const seconds = (performance.now() - began) / 1000;

    expect(Object.fromEntries(quiet)).toEqual({ ok: 25 });
    expect([...noise.counts.keys()].sort()).toEqual(['RATE_LIMITED', 'ok']);
    const admitted = noise.counts.get('ok') ?? 0;
    const refused = noise.counts.get('RATE_LIMITED') ?? 0;
    // The bucket admits work up to its burst plus what drained meanwhile, and may overshoot by what
    // the operations admitted at the same moment did (each is admitted with room for one point): a
    // flood that got more work through than that was not budgeted, however fast the machine.
    expect(noise.heaviest).toBeGreaterThan(40);
    expect(noise.work).toBeLessThanOrEqual(burst + rate * seconds + 16 * noise.heaviest);
    expect(refused).toBeGreaterThan(admitted);
  });
});

describe('query cost: list fan-out and expensive fields are counted before anything runs', () => {
  let t: HardenedApp | undefined;
  let calls: Map<string, number>;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  /** An app whose store counts its calls; the budget is off unless `env` turns it on. */
  async function app(env: Record<string, string> = {}) {
    t = await hardenedApp({
      env: { ENGRAM_RATE_POINTS_PER_SECOND: '0', ...env },
      wrapStore: (store) => {
        const counting = countingStore(store);
        calls = counting.calls;
        return counting.store;
      },
    });
    await seedWheel(t, 'default', 20);
    calls.clear();
    return t;
  }
  const storeCalls = () => [...calls.values()].reduce((sum, n) => sum + n, 0);
  const { maxCost } = loadConfig({}).limits;

  it('refuses 15 aliases of memory { evidence(maxDepth: 1) { score } } with LIMIT_EXCEEDED, without a store call', async () => {
    await app();
    const one = await t!.gql('{ memory(id: "hub") { evidence(maxDepth: 1) { score } } }');
    expect(one.errors).toBeUndefined();
    calls.clear();
    const aliases = Array.from(
      { length: 15 },
      (_, i) => `e${i}: memory(id: "hub") { evidence(maxDepth: 1) { score } }`,
    ).join(' ');
    const response = await t!.gql(`{ ${aliases} }`);
    expect(codes(response)).toEqual(['LIMIT_EXCEEDED']);
    expect(response.data ?? null).toBeNull();
    expect(response.errors?.[0]?.message).toMatch(/ENGRAM_MAX_COST/);
    expect(response.errors?.[0]?.extensions).toMatchObject({ retryable: false, maxCost });
    expect(response.errors?.[0]?.extensions?.cost).toBeGreaterThan(maxCost);
    expect(storeCalls()).toBe(0);
  });

  it('refuses 100 memories × neighbors(limit: 100) × neighbors(limit: 100) up front; the same shape with small lists runs', async () => {
    await app();
    const shape = (ids: string[], limit: number) =>
      `{ memories(ids: ${JSON.stringify(ids)}) { neighbors(limit: ${limit}) { memory { neighbors(limit: ${limit}) { memory { title } } } } } }`;
    const hundred = Array.from({ length: 100 }, (_, i) => `s${i % 20}`);
    const wide = await t!.gql(shape(hundred, 100));
    expect(codes(wide)).toEqual(['LIMIT_EXCEEDED']);
    expect(wide.errors?.[0]?.extensions?.cost).toBeGreaterThan(100 * 100 * 100);
    expect(storeCalls()).toBe(0);
    const small = await t!.gql(shape(['hub', 's1'], 5));
    expect(small.errors).toBeUndefined();
    expect(storeCalls()).toBeGreaterThan(0);
  });

  it('prices the same document by its variables, and charges the workspace bucket what each run did', async () => {
    await app({ ENGRAM_RATE_POINTS_PER_SECOND: '1', ENGRAM_RATE_BURST: '5000' });
    const query =
      'query Fan($n: Int!) { memory(id: "hub") { neighbors(limit: $n) { memory { neighbors(limit: $n) { memory { id } } } } } }';
    const untilLimited = async (workspace: string, n: number) => {
      await seedWheel(t!, workspace, 20);
      let cost = { requested: 0, actual: 0 };
      for (let ok = 0; ; ok++) {
        const response = await t!.gql(query, { n }, { 'x-engram-workspace': workspace });
        if (codes(response).includes('RATE_LIMITED')) return { ok, ...cost };
        expect(response.errors).toBeUndefined();
        cost = response.extensions?.cost as typeof cost;
      }
    };
    const small = await untilLimited('small', 4);
    const large = await untilLimited('large', 20);
    // 20 × 20 against 4 × 4: the estimate grows with the product of the limits; the work done with
    // what the graph holds (20 spokes of 3 edges each: 20 + 20 × 3 rows against 4 + 4 × 3) ...
    expect(large.requested).toBeGreaterThan(5 * small.requested);
    expect(large.actual).toBeGreaterThan(3 * small.actual);
    // ... and the bucket admits while it has room for a point, each run pouring in what it did
    // (a point or two drain while the test runs).
    for (const run of [small, large]) {
      expect(run.ok).toBeGreaterThanOrEqual(Math.floor(4999 / run.actual) + 1);
      expect(run.ok).toBeLessThanOrEqual(Math.floor(4999 / run.actual) + 2);
    }
    expect(large.ok).toBeLessThan(small.ok / 3);
  });

  it('keeps every named operation (at the largest arguments the API accepts) and every README example under the default ENGRAM_MAX_COST', () => {
    const dir = new URL('../../schema/operations/', import.meta.url);
    const fragments = readFileSync(new URL('fragments.graphql', dir), 'utf8');
    const largest: Record<string, unknown> = {
      limit: 100,
      first: 100,
      neighborLimit: 100,
      historyLimit: 100,
      budget: 100,
      maxDepth: 5,
      maxHops: 10,
      minSupport: 1,
      window: 10_000,
    };
    const lists = (name: string) => Array.from({ length: 100 }, (_, i) => `${name}-${i}`);
    // Values for the other required variables; the price does not depend on them.
    const required: Record<string, unknown> = {
      FeedbackSignal: 'USED',
      CreateMemoryInput: { title: 'x' },
      UpdateMemoryInput: {},
      LinkInput: { from: 'a', to: 'b', type: 'X' },
      UnlinkInput: { id: 'e' },
      Float: 0.5,
    };
    const largestVariables = (operation: OperationDefinitionNode | undefined) => {
      const variables: Record<string, unknown> = {};
      for (const definition of operation?.variableDefinitions ?? []) {
        const name = definition.variable.name.value;
        const type = print(definition.type);
        if (name in largest) variables[name] = largest[name];
        else if (['ids', 'seeds', 'via'].includes(name)) variables[name] = lists(name);
        else if (type.endsWith('!')) variables[name] = required[type.slice(0, -1)] ?? 'x';
      }
      return variables;
    };
    const costs: Record<string, number> = {};
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.graphql') && name !== 'fragments.graphql')) {
      const document = parse(`${readFileSync(new URL(file, dir), 'utf8')}\n${fragments}`);
      const operation = document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      costs[operation?.name?.value ?? file] = queryCost({ schema, document, variables: largestVariables(operation) });
    }
    expect(Object.keys(costs).length).toBeGreaterThanOrEqual(20);
    // The examples live in the README and in docs/ (one topic per file): check them all.
    const root = new URL('../../', import.meta.url);
    const docs = readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md'));
    const readme = ['README.md', ...docs.map((name) => `docs/${name}`)]
      .map((file) => readFileSync(new URL(file, root), 'utf8'))
      .join('\n');
    let examples = 0;
    for (const [, block] of readme.matchAll(/```graphql\n([\s\S]*?)```/g)) {
      let document: DocumentNode;
      try {
        document = parse(block as string);
      } catch {
        continue; // schema excerpts (SDL with "...") are not operations
      }
      if (
        !document.definitions.every((d) => d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION)
      )
        continue;
      examples++;
      for (const operation of document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      )) {
        costs[`README example ${examples}${operation.name ? ` (${operation.name.value})` : ''}`] = queryCost({
          schema,
          document,
          operationName: operation.name?.value ?? null,
          variables: largestVariables(operation),
        });
      }
    }
    expect(examples).toBeGreaterThanOrEqual(5);
    for (const [name, cost] of Object.entries(costs)) expect(cost, name).toBeLessThanOrEqual(maxCost);
  });

  it('refuses fragments that expand to more than 10,000 fields, quickly and without a store call', async () => {
    await app();
    // Each level spreads the one below three times: 3^9 selections from a document of ~100 tokens.
    const levels = Array.from({ length: 9 }, (_, i) =>
      i === 0
        ? 'fragment F0 on Memory { id }'
        : `fragment F${i} on Memory { current { ...F${i - 1} } supersedes { ...F${i - 1} } supersededBy { ...F${i - 1} } }`,
    );
    const began = performance.now();
    const response = await t!.gql(`{ memory(id: "hub") { ...F8 } }\n${levels.join('\n')}`);
    expect(codes(response)).toEqual(['LIMIT_EXCEEDED']);
    expect(performance.now() - began).toBeLessThan(2000);
    expect(storeCalls()).toBe(0);
  });

  it('costs nothing for introspection (it has its own switch) and counts fragments as their fields', async () => {
    await app();
    expect(
      queryCost({
        schema,
        document: parse('{ __schema { types { name fields { name args { name } type { name ofType { name } } } } } }'),
      }),
    ).toBe(0);
    const inline = queryCost({
      schema,
      document: parse(
        '{ memory(id: "hub") { neighbors(limit: 30) { memory { neighbors(limit: 30) { memory { id } } } } } }',
      ),
    });
    const spread = queryCost({
      schema,
      document: parse(
        'query { memory(id: "hub") { ...Around } } fragment Around on Memory { neighbors(limit: 30) { memory { ...Next } } } fragment Next on Memory { neighbors(limit: 30) { memory { id } } }',
      ),
    });
    expect(spread).toBe(inline);
    expect((await t!.gql('{ __schema { types { name } } }')).errors).toBeUndefined();
  });
});
