import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingStore, createTestApp, type TestApp } from '../helpers/app.js';

/**
 * weightEventsConnection, Edge.historyConnection and recallsConnection (API.md, "Pages"): each
 * walked to its end with writes between pages, on SQLite here and on Neo4j in the live run.
 */

const PAGE = 'edges { cursor node { id at } } pageInfo { hasNextPage endCursor }';
const EVENTS = `query Page($first: Int, $after: String, $edgeId: ID, $memoryId: ID, $source: AdjustmentSource) {
  page: weightEventsConnection(first: $first, after: $after, edgeId: $edgeId, memoryId: $memoryId, source: $source) { ${PAGE} }
}`;
const HISTORY = `query Page($edge: ID!, $first: Int, $after: String) {
  edge(id: $edge) { page: historyConnection(first: $first, after: $after) { ${PAGE} } }
}`;
const RECALLS = `query Page($first: Int, $after: String) {
  page: recallsConnection(first: $first, after: $after) { edges { cursor node { id query } } pageInfo { hasNextPage endCursor } }
}`;

interface Node {
  id: string;
}

describe('weightEventsConnection, Edge.historyConnection and recallsConnection', { timeout: 120_000 }, () => {
  let api: TestApp;
  let counter: ReturnType<typeof countingStore>;
  let ab: string;
  let ac: string;

  const ok = async (query: string, variables: Record<string, unknown> = {}, workspace?: string) => {
    const result = await api.gql(query, variables, { workspace });
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data as Record<string, any>;
  };
  const refused = async (query: string, variables: Record<string, unknown>, workspace?: string) => {
    const result = await api.gql(query, variables, { workspace });
    expect(result.errors?.[0]?.extensions?.code, JSON.stringify(result.errors)).toBe('BAD_USER_INPUT');
    return result.errors?.[0]?.message;
  };
  const pageOf = (data: Record<string, any>) => data.page ?? data.edge.page;
  const strengthen = (edgeId: string) => ok(`mutation { strengthen(edgeId: "${edgeId}", amount: 0.01) { newWeight } }`);
  /** USED feedback without via: one memory event and one per edge, all at one instant. */
  const feedback = () => ok('mutation { feedback(memoryId: "a", signal: USED) { newWeight } }');
  const recall = (query: string) => ok(`{ recall(query: "${query}") { id } }`);

  /** Every page to the end; `between` runs after each page but the last. */
  async function walk(
    query: string,
    variables: Record<string, unknown>,
    first: number,
    between?: (page: number) => Promise<unknown>,
  ): Promise<Node[]> {
    const seen: Node[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const connection = pageOf(await ok(query, { ...variables, first, after }));
      seen.push(...connection.edges.map((edge: { node: Node }) => edge.node));
      if (!connection.pageInfo.hasNextPage) return seen;
      after = connection.pageInfo.endCursor;
      await between?.(page);
    }
    throw new Error('the pages did not end');
  }

  /** What existed before the walk is seen exactly once each, in the list's order; nothing twice. */
  function expectWhole(before: readonly Node[], seen: readonly Node[]) {
    const ids = seen.map((node) => node.id);
    expect(new Set(ids).size).toBe(ids.length);
    const existing = new Set(before.map((node) => node.id));
    expect(ids.filter((id) => existing.has(id))).toEqual(before.map((node) => node.id));
  }

  const eventsNow = async (filter: string) =>
    (await ok(`{ weightEvents(${filter} limit: 100) { id at } }`)).weightEvents as Node[];

  beforeAll(async () => {
    api = await createTestApp({
      wrapStore: (store) => {
        counter = countingStore(store);
        return counter.store;
      },
    });
    for (const key of ['a', 'b', 'c'])
      await ok(`mutation { createMemory(input: { key: "${key}", title: "${key} latency note" }) { id } }`);
    ab = (await ok('mutation { link(input: { from: "a", to: "b", type: "CITES" }) { id } }')).link.id;
    ac = (await ok('mutation { link(input: { from: "a", to: "c", type: "CITES" }) { id } }')).link.id;
    for (let round = 0; round < 4; round++) {
      await strengthen(ab);
      await feedback();
    }
    // On Neo4j the first request also creates the schema.
  }, 120_000);

  afterAll(() => api.close());

  it('weightEventsConnection walks every event once, newest first, while events are written between pages', async () => {
    const before = await eventsNow('');
    expect(before.length).toBeGreaterThanOrEqual(16);
    // Each page boundary may fall inside a feedback's events, which share one instant.
    const seen = await walk(EVENTS, {}, 3, (page) => (page % 2 === 0 ? feedback() : strengthen(ac)));
    expectWhole(before, seen);
    const one = await walk(EVENTS, {}, 1);
    expect(one.map((node) => node.id)).toEqual((await eventsNow('')).map((node) => node.id));
  });

  it('pages the filtered lists, and a memory named by key shares cursors with its id', async () => {
    for (const [filter, variables] of [
      [`edgeId: "${ab}"`, { edgeId: ab }],
      ['memoryId: "a"', { memoryId: 'a' }],
      ['source: CONSCIOUS', { source: 'CONSCIOUS' }],
    ] as const) {
      const before = await eventsNow(filter);
      expect(before.length).toBeGreaterThan(2);
      expectWhole(before, await walk(EVENTS, variables, 2, () => feedback()));
    }
    const byKey = pageOf(await ok(EVENTS, { first: 1, memoryId: 'a' }));
    const id = (await ok('{ memory(key: "a") { id } }')).memory.id;
    const next = pageOf(await ok(EVENTS, { first: 1, memoryId: id, after: byKey.pageInfo.endCursor }));
    expect(next.edges).toHaveLength(1);
  });

  it('Edge.historyConnection walks one edge once, newest first, while that edge changes between pages', async () => {
    const before = (await ok(`{ edge(id: "${ab}") { history(limit: 100) { id at } } }`)).edge.history as Node[];
    const seen = await walk(HISTORY, { edge: ab }, 2, () => strengthen(ab));
    expectWhole(before, seen);
    const all = (await ok(`{ edge(id: "${ab}") { history(limit: 100) { id } } }`)).edge.history as Node[];
    expect((await walk(HISTORY, { edge: ab }, 100)).map((node) => node.id)).toEqual(all.map((node) => node.id));
  });

  it('reads the first history pages of many edges in one store call', async () => {
    counter.reset();
    const data = await ok(
      `{ edgesConnection(first: 10) { edges { node { historyConnection(first: 2) { ${PAGE} } } } } }`,
    );
    const pages = data.edgesConnection.edges.map((edge: any) => edge.node.historyConnection);
    expect(pages).toHaveLength(2);
    expect(pages.every((page: any) => page.edges.length === 2 && page.pageInfo.hasNextPage)).toBe(true);
    expect(counter.calls.get('getEdgeHistories')).toBe(1);
    expect(counter.calls.get('listWeightEvents')).toBeUndefined();
  });

  it('recallsConnection walks every stored recall once, newest first, while recalls are made between pages', async () => {
    for (let index = 0; index < 7; index++) await recall(`latency ${index}`);
    const before = (await ok('{ recalls(limit: 100) { id } }')).recalls as Node[];
    expect(before.length).toBeGreaterThanOrEqual(7);
    const seen = await walk(RECALLS, {}, 2, (page) => recall(`made while paging ${page}`));
    expectWhole(before, seen);
  });

  it('refuses first outside 1..100 on each field', async () => {
    for (const first of [0, 101]) {
      for (const [query, variables] of [
        [EVENTS, {}],
        [HISTORY, { edge: ab }],
        [RECALLS, {}],
      ] as const) {
        expect(await refused(query, { ...variables, first })).toMatch(/first: must be between 1 and 100/);
      }
    }
  });

  it('refuses a cursor from other filters, another edge, another field or another workspace', async () => {
    const cursorOf = async (query: string, variables: Record<string, unknown>) =>
      pageOf(await ok(query, { ...variables, first: 1 })).pageInfo.endCursor as string;
    const all = await cursorOf(EVENTS, {});
    const onAb = await cursorOf(EVENTS, { edgeId: ab });
    const historyAb = await cursorOf(HISTORY, { edge: ab });
    const recalls = await cursorOf(RECALLS, {});
    // Other filters of the same field.
    await refused(EVENTS, { first: 1, after: all, source: 'CONSCIOUS' });
    await refused(EVENTS, { first: 1, after: onAb });
    await refused(EVENTS, { first: 1, after: onAb, edgeId: ac });
    await refused(EVENTS, { first: 1, after: all, memoryId: 'a' });
    // Another edge.
    await refused(HISTORY, { edge: ac, first: 1, after: historyAb });
    // Another field, even one listing the same events.
    await refused(HISTORY, { edge: ab, first: 1, after: onAb });
    await refused(EVENTS, { first: 1, after: historyAb, edgeId: ab });
    await refused(EVENTS, { first: 1, after: recalls });
    await refused(RECALLS, { first: 1, after: all });
    // Another workspace.
    await refused(EVENTS, { first: 1, after: all }, 'elsewhere');
    await refused(RECALLS, { first: 1, after: recalls }, 'elsewhere');
    expect(await refused(EVENTS, { first: 1, after: 'not-a-cursor' })).toMatch(/^after: /);
  });
});
