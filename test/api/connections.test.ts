import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const MEMORIES = `query Page($first: Int, $after: String) {
  memoriesConnection(first: $first, after: $after) { edges { cursor node { id key } } pageInfo { hasNextPage endCursor } }
}`;
const EDGES = `query Page($first: Int, $after: String) {
  edgesConnection(first: $first, after: $after) { edges { node { id type from { key } } } pageInfo { hasNextPage endCursor } }
}`;

describe('memoriesConnection and edgesConnection (keyset pages by id)', () => {
  let api: TestApp;
  const keys = Array.from({ length: 7 }, (_, at) => `m${at}`);

  beforeAll(async () => {
    api = await createTestApp();
    for (const key of keys)
      await api.gql(`mutation { createMemory(input: { key: "${key}", title: "${key}" }) { id } }`);
    for (let at = 1; at < keys.length; at++)
      await api.gql(`mutation { link(input: { from: "m0", to: "${keys[at]}", type: "CITES" }) { id } }`);
  });

  afterAll(() => api.close());

  async function walk(query: string, field: string, first: number, between?: (page: number) => Promise<void>) {
    const seen: any[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const result: { data?: any; errors?: unknown } = await api.gql(query, { first, after });
      expect(result.errors).toBeUndefined();
      const connection: any = result.data?.[field];
      seen.push(...connection.edges.map((edge: any) => edge.node));
      if (!connection.pageInfo.hasNextPage) return seen;
      after = connection.pageInfo.endCursor;
      await between?.(page);
    }
    throw new Error('did not end');
  }

  it('walks every memory once, in creation order, and every edge', async () => {
    expect((await walk(MEMORIES, 'memoriesConnection', 3)).map((m) => m.key)).toEqual(keys);
    const edges = await walk(EDGES, 'edgesConnection', 4);
    expect(edges).toHaveLength(6);
    expect(new Set(edges.map((e) => e.id)).size).toBe(6);
  });

  it('neither skips nor repeats a memory that existed on both sides of writes between pages', async () => {
    const created: string[] = [];
    const seen = await walk(MEMORIES, 'memoriesConnection', 2, async (page) => {
      const key = `new${page}`;
      created.push(key);
      await api.gql(`mutation { createMemory(input: { key: "${key}", title: "${key}" }) { id } }`);
      if (page === 0) await api.gql('mutation { deleteMemory(id: "m6") { deleted } }');
    });
    const seenKeys = seen.map((m) => m.key);
    expect(seenKeys.filter((key) => keys.includes(key))).toEqual(keys.slice(0, 6));
    expect(new Set(seenKeys).size).toBe(seenKeys.length);
    // Memories made while paging come at the end, in order.
    expect(seenKeys.slice(6)).toEqual(created);
  });

  it('refuses a cursor of another workspace or another list, and first outside 1..100', async () => {
    const page = await api.gql(MEMORIES, { first: 1 });
    const cursor = page.data?.memoriesConnection.pageInfo.endCursor;
    const elsewhere = await api.gql(MEMORIES, { first: 1, after: cursor }, { workspace: 'other' });
    expect(elsewhere.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(elsewhere.errors?.[0]?.message).toMatch(/^after: /);
    const otherList = await api.gql(EDGES, { first: 1, after: cursor });
    expect(otherList.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const garbage = await api.gql(MEMORIES, { first: 1, after: 'not-a-cursor' });
    expect(garbage.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    for (const first of [0, 101]) {
      const result = await api.gql(MEMORIES, { first });
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toMatch(/first: must be between 1 and 100/);
    }
  });
});
