import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdjacencyQuery, GraphStore } from '../../src/store/port.js';
import { countingStore, createTestApp, type GraphQLResponse, type TestApp } from '../helpers/app.js';
import { plainMemory } from '../helpers/records.js';

/**
 * The per-request work budget (ENGRAM_WORK_BUDGET), the per-call row cap (ENGRAM_ROWS_PER_CALL),
 * the bounded research views and the edge cap of feedback and reinforcement (ENGRAM_FEEDBACK_MAX_EDGES),
 * through the real app over a real SQLite file.
 */
let app: TestApp | undefined;
let counter: ReturnType<typeof countingStore>;
/** The query of every getAdjacent call, to check that none reads a memory's whole edge list. */
const adjacencyQueries: AdjacencyQuery[] = [];

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  app = await createTestApp({
    env,
    wrapStore: (store: GraphStore) => {
      counter = countingStore(store);
      const recorded = new Proxy(counter.store, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (property !== 'getAdjacent') return value;
          return (ws: string, ids: string[], query: AdjacencyQuery) => {
            adjacencyQueries.push(query);
            return target.getAdjacent(ws, ids, query);
          };
        },
      });
      return recorded;
    },
  });
  return app;
}

/** A hub with `size` memories validating it (weights spread, strongest v0) and `size` it relates to. */
async function seedHub(t: TestApp, size: number, workspace = 'default'): Promise<void> {
  const now = new Date().toISOString();
  const ids = Array.from({ length: size }, (_, i) => i);
  await t.store.importBatch(
    workspace,
    { memories: [plainMemory('hub'), ...ids.flatMap((i) => [plainMemory(`v${i}`), plainMemory(`r${i}`)])], edges: [] },
    now,
  );
  await t.store.importBatch(
    workspace,
    {
      memories: [],
      edges: ids.flatMap((i) => [
        { id: `ev${i}`, fromId: `v${i}`, toId: 'hub', type: 'VALIDATES', weight: 0.9 - (i % 80) / 100, metadata: null },
        {
          id: `er${i}`,
          fromId: 'hub',
          toId: `r${i}`,
          type: 'RELATED_TO',
          weight: 0.9 - (i % 80) / 100,
          metadata: null,
        },
      ]),
    },
    now,
  );
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const rawCount = (t: TestApp, sql: string) => {
  const db = new Database(t.dbPath, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('the per-request work budget', () => {
  it('stops a request that reads more rows than ENGRAM_WORK_BUDGET with LIMIT_EXCEEDED', async () => {
    const t = await start({ ENGRAM_WORK_BUDGET: '60' });
    await seedHub(t, 40);
    const small = await t.gql('{ memory(id: "hub") { neighbors(limit: 20) { memory { id } } } }');
    expect(small.errors).toBeUndefined();
    expect(small.data?.memory.neighbors).toHaveLength(20);

    const ids = Array.from({ length: 10 }, (_, i) => `v${i}`);
    const big = await t.gql(
      'query ($ids: [ID!]!) { memories(ids: $ids) { id } hub: memory(id: "hub") { neighbors(limit: 100) { memory { id } } } }',
      { ids },
    );
    expect(codeOf(big)).toBe('LIMIT_EXCEEDED');
    expect(big.errors?.[0]?.extensions).toMatchObject({ reason: 'WORK_BUDGET', workBudget: 60, retryable: false });
    expect(big.errors?.[0]?.message).toMatch(/more than 60 rows of store work \(ENGRAM_WORK_BUDGET\)/);
  });

  it('charges recall for the candidates its association read listed, so a wide one stops at the budget', async () => {
    const t = await start({ ENGRAM_WORK_BUDGET: '20', ENGRAM_ASSOCIATIONS: 'true' });
    const holders = Array.from({ length: 19 }, (_, i) => ({ ...plainMemory(`c${i}`), terms: ['cyrus', `own${i}`] }));
    await t.store.importBatch(
      'default',
      { memories: [{ ...plainMemory('team lead'), terms: ['cyrus', 'lead', 'team'] }, ...holders], edges: [] },
      new Date().toISOString(),
    );
    // One search hit, then 3 terms and 19 candidates read: over 20 before the answer is put together.
    const wide = await t.gql('{ recall(query: "team lead", limit: 20) { results { memory { id } } } }');
    expect(codeOf(wide)).toBe('LIMIT_EXCEEDED');
    const narrow = await t.gql(
      '{ recall(query: "team lead", limit: 20, types: ["RELATED_TO"]) { results { memory { id } } } }',
    );
    expect(narrow.errors).toBeUndefined();
  });

  it('refuses a batch of weight changes larger than the budget before writing anything', async () => {
    const t = await start({ ENGRAM_WORK_BUDGET: '30', ENGRAM_FEEDBACK_MAX_EDGES: '1000' });
    await seedHub(t, 20);
    const before = rawCount(t, 'SELECT COUNT(*) AS n FROM weight_events');
    const response = await t.gql('mutation { feedback(memoryId: "hub", signal: USED) { newWeight } }');
    expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    expect(counter.calls.get('applyWeightChanges') ?? 0).toBe(0);
    expect(rawCount(t, 'SELECT COUNT(*) AS n FROM weight_events')).toBe(before);
  });

  it('reads a big batch in parts of at most ENGRAM_ROWS_PER_CALL rows, with the same answer', async () => {
    const whole = await start();
    await seedHub(whole, 30);
    const ids = ['hub', ...Array.from({ length: 30 }, (_, i) => `v${i}`)];
    const query = 'query ($ids: [ID!]!) { memories(ids: $ids) { id neighbors(limit: 50) { edge { id } } } }';
    const expected = (await whole.gql(query, { ids })).data;
    counter.reset();
    await whole.gql(query, { ids });
    expect(counter.calls.get('getAdjacent')).toBe(1);
    await whole.close();

    const parted = await start({ ENGRAM_ROWS_PER_CALL: '25' });
    await seedHub(parted, 30);
    counter.reset();
    const answer = await parted.gql(query, { ids });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual(expected);
    // The hub alone has 60 edges (read by itself), the 30 spokes one each: at least 3 parts.
    expect(counter.calls.get('getAdjacent')).toBeGreaterThanOrEqual(3);
  });
});

describe('bounded research views on a hub', () => {
  it('evidence returns at most limit items a side, says truncated, and scores all the evidence read', async () => {
    const t = await start();
    await seedHub(t, 250);
    const response = await t.gql(
      '{ memory(id: "hub") { evidence(maxDepth: 1, limit: 10) { score truncated supporting { memory { id } weight } } } }',
    );
    expect(response.errors).toBeUndefined();
    const evidence = response.data?.memory.evidence;
    expect(evidence.supporting).toHaveLength(10);
    expect(evidence.truncated).toBe(true);
    expect(evidence.supporting[0].weight).toBeCloseTo(0.9, 10);
    // 200 items were read (EVIDENCE_PER_MEMORY), the strongest first: the score counts them all, not the 10 shown.
    const small = await t.gql('{ memory(id: "hub") { evidence(maxDepth: 1, limit: 100) { score } } }');
    expect(small.data?.memory.evidence.score).toBe(evidence.score);
    expect(evidence.score).toBeGreaterThan(0.95);
    expect(counter.calls.get('getAdjacent')).toBeLessThanOrEqual(2);
  });

  it('evidence of a memory with few items is complete and not truncated', async () => {
    const t = await start();
    await seedHub(t, 3);
    const response = await t.gql('{ memory(id: "hub") { evidence { truncated supporting { memory { id } } } } }');
    expect(response.data?.memory.evidence).toMatchObject({ truncated: false });
    expect(response.data?.memory.evidence.supporting).toHaveLength(3);
  });

  it('context reads a bounded number of edges per seed', async () => {
    const t = await start();
    await seedHub(t, 400);
    adjacencyQueries.length = 0;
    const response = await t.gql('{ context(seeds: ["hub"], budget: 5) { items { memory { id } role } truncated } }');
    expect(response.errors).toBeUndefined();
    expect(adjacencyQueries.length).toBeGreaterThan(0);
    for (const query of adjacencyQueries)
      expect(query.limitPerMemory ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(15);
    expect(response.data?.context.items).toHaveLength(5);
    expect(response.data?.context.truncated).toBe(true);
  });
});

describe('feedback and reinforcement touch a bounded number of edges', () => {
  it('refuses feedback without via on a memory with more than ENGRAM_FEEDBACK_MAX_EDGES edges, and writes nothing', async () => {
    const t = await start({ ENGRAM_FEEDBACK_MAX_EDGES: '25' });
    await seedHub(t, 20);
    const before = rawCount(t, 'SELECT COUNT(*) AS n FROM weight_events');
    const response = await t.gql('mutation { feedback(memoryId: "hub", signal: NOT_RELEVANT) { newWeight } }');
    expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    expect(response.errors?.[0]?.message).toMatch(
      /feedback without via on "hub" \(40 edges\) touches more than 25 edges \(ENGRAM_FEEDBACK_MAX_EDGES\); pass via/,
    );
    expect(response.errors?.[0]?.extensions).toMatchObject({ reason: 'TOO_MANY_EDGES', maxEdges: 25 });
    expect(counter.calls.get('getAdjacent') ?? 0).toBe(0);
    expect(rawCount(t, 'SELECT COUNT(*) AS n FROM weight_events')).toBe(before);

    const withVia = await t.gql(
      'mutation { feedback(memoryId: "hub", signal: USED, via: ["ev0", "er0"]) { newWeight } }',
    );
    expect(withVia.errors).toBeUndefined();
    expect(withVia.data?.feedback).toHaveLength(3);
  });

  it('feedback without via on a memory within the cap changes every edge, as before', async () => {
    const t = await start({ ENGRAM_FEEDBACK_MAX_EDGES: '40' });
    await seedHub(t, 20);
    const response = await t.gql('mutation { feedback(memoryId: "hub", signal: USED) { newWeight } }');
    expect(response.errors).toBeUndefined();
    expect(response.data?.feedback).toHaveLength(41);
  });

  it('reinforceCoRetrieval reads only the edges among the memories, and refuses more than the cap', async () => {
    const t = await start({ ENGRAM_FEEDBACK_MAX_EDGES: '2' });
    await seedHub(t, 500);
    counter.reset();
    const two = await t.gql('mutation { reinforceCoRetrieval(ids: ["hub", "v1", "r1"]) { newWeight } }');
    expect(two.errors).toBeUndefined();
    expect(two.data?.reinforceCoRetrieval).toHaveLength(2);
    expect(counter.calls.get('getAdjacent') ?? 0).toBe(0);
    const three = await t.gql('mutation { reinforceCoRetrieval(ids: ["hub", "v1", "r1", "v2"]) { newWeight } }');
    expect(codeOf(three)).toBe('LIMIT_EXCEEDED');
  });
});

describe('deleting a hub', () => {
  it('removes every edge in chunks, serving other requests between them, and leaves no dangling edge', async () => {
    const t = await start();
    await seedHub(t, 1_300);
    let turns = 0;
    let deleting = true;
    const ticker = (async () => {
      while (deleting) {
        await new Promise((resume) => setImmediate(resume));
        turns++;
      }
    })();
    const response = await t.gql('mutation { deleteMemory(id: "hub") { deleted edgesRemoved } }');
    deleting = false;
    await ticker;
    expect(response.errors).toBeUndefined();
    expect(response.data?.deleteMemory).toEqual({ deleted: true, edgesRemoved: 2_600 });
    // Ten chunks of 250 before the last transaction: the event loop turned between them.
    expect(turns).toBeGreaterThanOrEqual(10);
    expect(rawCount(t, `SELECT COUNT(*) AS n FROM edges WHERE from_id = 'hub' OR to_id = 'hub'`)).toBe(0);
    expect(rawCount(t, `SELECT COUNT(*) AS n FROM memories WHERE id = 'hub'`)).toBe(0);
    expect(rawCount(t, 'SELECT COUNT(*) AS n FROM memories')).toBe(2_600);
  });
});
