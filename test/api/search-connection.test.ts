import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_SCAN } from '../../src/store/shared/listing.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { plainMemory } from '../helpers/records.js';

const PAGE = `query Page($query: String!, $kinds: [String!], $first: Int, $after: String) {
  searchMemoriesConnection(query: $query, kinds: $kinds, first: $first, after: $after) {
    edges { cursor node { key } } pageInfo { hasNextPage endCursor }
  }
}`;
const LIST = `query List($query: String!, $kinds: [String!], $limit: Int) {
  searchMemories(query: $query, kinds: $kinds, limit: $limit) { key }
}`;

interface Filters {
  query: string;
  kinds?: string[];
}

describe('searchMemoriesConnection', () => {
  let api: TestApp;

  const create = async (key: string, title: string, content: string, kind = 'note') => {
    const result = await api.gql('mutation($input: CreateMemoryInput!) { createMemory(input: $input) { id } }', {
      input: { key, title, content, kind },
    });
    expect(result.errors).toBeUndefined();
  };

  /** Every key of the search, page by page; `between` runs after each page but the last. */
  async function walk(filters: Filters, first: number, between?: (page: number) => Promise<void>) {
    const keys: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const result: { data?: any; errors?: unknown } = await api.gql(PAGE, { ...filters, first, after });
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      const connection = result.data.searchMemoriesConnection;
      expect(connection.edges.length).toBeLessThanOrEqual(first);
      keys.push(...connection.edges.map((edge: any) => edge.node.key));
      if (!connection.pageInfo.hasNextPage) return keys;
      after = connection.pageInfo.endCursor;
      await between?.(page);
    }
    throw new Error('did not end');
  }

  const listed = async (filters: Filters) =>
    ((await api.gql(LIST, { ...filters, limit: 100 })).data!.searchMemories as { key: string }[]).map((m) => m.key);

  beforeAll(async () => {
    api = await createTestApp();
    // Varied lengths and repeats, so relevance differs between matches and moves when words are added.
    for (let at = 0; at < 40; at++)
      await create(`c${at}`, `cache note ${at}`, `${'warm '.repeat(at % 5)}cache ${'filler '.repeat(at % 7)}`);
    for (let at = 0; at < 25; at++) await create(`k${at}`, `decision ${at}`, 'unrelated', 'decision');
  });

  afterAll(() => api.close());

  it('walks a text search in searchMemories order, and a listing newest first', async () => {
    const filters = { query: 'warm cache' };
    expect(await walk(filters, 7)).toEqual(await listed(filters));
    const kinds = { query: '', kinds: ['decision'] };
    const decisions = await walk(kinds, 4);
    expect(decisions).toEqual(await listed(kinds));
    expect(decisions).toEqual(Array.from({ length: 25 }, (_, at) => `k${24 - at}`));
  });

  it('neither skips nor repeats a match that existed on both sides of writes between pages', async () => {
    const filters = { query: 'warm cache' };
    const before = await listed(filters);
    const deleted: string[] = [];
    const seen = await walk(filters, 6, async (page) => {
      // New matches that would rank first, and words that move every other match's relevance.
      await create(`new${page}`, 'warm cache warm cache', 'warm cache cache warm');
      await create(`noise${page}`, 'cache', 'cache cache cache cache');
      const unseen = before[before.length - 1 - page];
      if (unseen) {
        deleted.push(unseen);
        expect((await api.gql(`mutation { deleteMemory(id: "${unseen}") { deleted } }`)).errors).toBeUndefined();
      }
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before.filter((key) => !deleted.includes(key)));
    // The writes did move the ranking: a fresh search answers differently.
    expect(await listed(filters)).not.toEqual(seen);
  });

  it('pages a listing by keyset: memories created between pages come first in the order and are not repeated', async () => {
    const kinds = { query: '', kinds: ['decision'] };
    const before = await listed(kinds);
    const seen = await walk(kinds, 5, async (page) => {
      await create(`later${page}`, 'later decision', 'x', 'decision');
      if (page === 1) await api.gql(`mutation { deleteMemory(id: "${before.at(-1)}") { deleted } }`);
    });
    expect(seen).toEqual(before.slice(0, -1));
  });

  it('refuses a cursor of other filters, another workspace or another list, and first outside 1..100', async () => {
    const page = await api.gql(PAGE, { query: 'cache', first: 2 });
    const cursor = page.data?.searchMemoriesConnection.pageInfo.endCursor;
    expect(cursor).toEqual(expect.any(String));
    const cases = [
      await api.gql(PAGE, { query: 'warm', first: 2, after: cursor }),
      await api.gql(PAGE, { query: 'cache', kinds: ['note'], first: 2, after: cursor }),
      await api.gql(PAGE, { query: 'cache', first: 2, after: cursor }, { workspace: 'other' }),
      await api.gql('query($after: String) { memoriesConnection(after: $after) { edges { cursor } } }', {
        after: cursor,
      }),
    ];
    for (const refused of cases) {
      expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(refused.errors?.[0]?.message).toMatch(/^after: /);
    }
    for (const first of [0, 101]) {
      const result = await api.gql(PAGE, { query: 'cache', first });
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const empty = await api.gql(PAGE, { query: '', first: 2 });
    expect(empty.errors?.[0]?.message).toMatch(/^query: must not be empty/);
  });

  it("continues after any item's cursor, not only the page's last one", async () => {
    const filters = { query: 'warm cache' };
    const whole = await listed(filters);
    const page = await api.gql(PAGE, { ...filters, first: 100 });
    expect(page.data?.searchMemoriesConnection.pageInfo.hasNextPage).toBe(false);
    const middle = page.data?.searchMemoriesConnection.edges[4].cursor;
    const rest = await api.gql(PAGE, { ...filters, first: 100, after: middle });
    expect(rest.data?.searchMemoriesConnection.edges.map((edge: any) => edge.node.key)).toEqual(whole.slice(5));
  });

  it('after the only match, an empty page', async () => {
    await create('solo', 'zygomorphic flowers', 'one of a kind');
    const page = await api.gql(PAGE, { query: 'zygomorphic', first: 50 });
    const connection = page.data?.searchMemoriesConnection;
    expect(connection.edges).toHaveLength(1);
    expect(connection.pageInfo.hasNextPage).toBe(false);
    const next = await api.gql(PAGE, { query: 'zygomorphic', first: 50, after: connection.pageInfo.endCursor });
    expect(next.errors).toBeUndefined();
    expect(next.data?.searchMemoriesConnection.edges).toEqual([]);
  });
});

describe('searchMemoriesConnection past the listing scan bound', () => {
  let api: TestApp;
  afterAll(() => api?.close());

  it('pages on from where a walk stopped, each page bounded, and reaches every match', async () => {
    api = await createTestApp();
    // LISTING_SCAN + 300 notes tagged "ops" in one import (one createdAt, newest first by id);
    // three decisions among them, all older than the tag's newest LISTING_SCAN entries.
    const count = LISTING_SCAN + 300;
    const decisions = new Set([0, 1, 2]);
    const memories = Array.from({ length: count }, (_, n) => ({
      ...plainMemory(`m-${String(n).padStart(4, '0')}`),
      key: `m${n}`,
      kind: decisions.has(n) ? 'decision' : 'note',
      tags: ['ops'],
    }));
    await api.store.importBatch(api.config.defaultWorkspace, { memories, edges: [] }, new Date().toISOString());
    const TAGGED = `query($after: String) {
      searchMemoriesConnection(query: "", tags: ["ops"], kinds: ["decision"], first: 2, after: $after) {
        edges { node { key } } pageInfo { hasNextPage endCursor }
      }
    }`;
    const pages: string[][] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const result: { data?: any; errors?: unknown } = await api.gql(TAGGED, { after });
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      const connection = result.data.searchMemoriesConnection;
      pages.push(connection.edges.map((edge: any) => edge.node.key));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    // The first page read the tag's newest LISTING_SCAN entries and found no decision among them: empty, with a next page.
    expect(pages).toEqual([[], ['m2', 'm1'], ['m0']]);
    // The plain list answers the first page's read: nothing in its window.
    const list = await api.gql('{ searchMemories(query: "", tags: ["ops"], kinds: ["decision"], limit: 5) { key } }');
    expect(list.data?.searchMemories).toEqual([]);
  });
});
