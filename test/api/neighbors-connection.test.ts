import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingStore, createTestApp, type TestApp } from '../helpers/app.js';

const PAGE = `query Page($id: ID!, $first: Int, $after: String, $direction: Direction, $types: [String!], $minWeight: Float, $includePruned: Boolean) {
  memory(id: $id) {
    neighborsConnection(first: $first, after: $after, direction: $direction, types: $types, minWeight: $minWeight, includePruned: $includePruned) {
      edges { cursor node { memory { id } edge { id weight type } direction } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const LIST = `query List($id: ID!) {
  memory(id: $id) { neighbors(limit: 100, includePruned: true) { memory { id } edge { id weight type } direction } }
}`;

interface Entry {
  memory: { id: string };
  edge: { id: string; weight: number; type: string };
  direction: string;
}

/** Six weights for fourteen edges, so most of them tie with another. */
const WEIGHTS = [0.9, 0.5, 0.5, 0.04, 0.7, 0.5, 0.5, 0.9, 0.2, 0.5, 0.7, 0.5, 0.04, 0.5];

describe('Memory.neighborsConnection', () => {
  let api: TestApp;
  let counted: ReturnType<typeof countingStore>;

  const link = async (from: string, to: string, type: string, weight: number): Promise<string> => {
    const result = await api.gql(
      `mutation($from: ID!, $to: ID!, $type: String!, $weight: Float) { link(input: { from: $from, to: $to, type: $type, weight: $weight }) { id } }`,
      { from, to, type, weight },
    );
    expect(result.errors).toBeUndefined();
    return result.data?.link.id as string;
  };

  beforeAll(async () => {
    api = await createTestApp({
      wrapStore: (store) => {
        counted = countingStore(store);
        return counted.store;
      },
    });
    for (const id of ['hub', 'elsewhere', ...WEIGHTS.map((_, at) => `n${at}`)])
      await api.gql('mutation($id: ID!, $title: String!) { createMemory(input: { id: $id, title: $title }) { id } }', {
        id,
        title: id,
      });
    await api.gql('mutation { createMemory(input: { id: "hub", title: "hub" }) { id } }', {}, { workspace: 'other' });
    // Even spokes point out of the hub, odd ones into it; two relation types.
    for (const [at, weight] of WEIGHTS.entries()) {
      const [from, to] = at % 2 === 0 ? ['hub', `n${at}`] : [`n${at}`, 'hub'];
      await link(from, to, at % 3 === 0 ? 'CITES' : 'RELATED_TO', weight);
    }
    await link('elsewhere', 'n0', 'CITES', 0.5);
  });

  afterAll(() => api.close());

  async function page(variables: Record<string, unknown>, workspace?: string) {
    return api.gql(PAGE, { id: 'hub', ...variables }, { workspace });
  }

  /** Every page from the start, calling `between` after each page that has a next one. */
  async function walk(variables: Record<string, unknown>, between?: (page: number) => Promise<void>) {
    const seen: Entry[] = [];
    let after: string | null = null;
    for (let at = 0; at < 50; at++) {
      const result = await page({ ...variables, after });
      expect(result.errors).toBeUndefined();
      const connection = result.data?.memory.neighborsConnection;
      expect(connection.edges.length).toBeLessThanOrEqual((variables.first as number | undefined) ?? 20);
      seen.push(...connection.edges.map((edge: { node: Entry }) => edge.node));
      if (!connection.pageInfo.hasNextPage) return seen;
      after = connection.pageInfo.endCursor;
      await between?.(at);
    }
    throw new Error('did not end');
  }

  const list = async (): Promise<Entry[]> => (await api.gql(LIST, { id: 'hub' })).data?.memory.neighbors;

  it("walks Memory.neighbors' own list, page by page, for every page size", async () => {
    const all = await list();
    const unpruned = all.filter((entry) => entry.edge.weight > 0.05);
    expect(unpruned).toHaveLength(12);
    for (const first of [1, 2, 5, 20]) expect(await walk({ first })).toEqual(unpruned);
    expect(await walk({ first: 4, includePruned: true })).toEqual(all);
  });

  it('applies the filters of Memory.neighbors', async () => {
    const all = await list();
    const cases: [Record<string, unknown>, (entry: Entry) => boolean][] = [
      [{ direction: 'OUTGOING' }, (entry) => entry.direction === 'OUTGOING' && entry.edge.weight > 0.05],
      [{ direction: 'INCOMING', includePruned: true }, (entry) => entry.direction === 'INCOMING'],
      [{ types: ['cites'] }, (entry) => entry.edge.type === 'CITES' && entry.edge.weight > 0.05],
      [{ minWeight: 0.5 }, (entry) => entry.edge.weight >= 0.5],
    ];
    for (const [filters, keep] of cases) expect(await walk({ first: 3, ...filters })).toEqual(all.filter(keep));
  });

  it('neither skips nor repeats a neighbour whose edge is unchanged across writes between pages', async () => {
    const before = (await list()).filter((entry) => entry.edge.weight > 0.05);
    const touched = new Set<string>();
    const seen = await walk({ first: 3 }, async (at) => {
      if (at > 2) return;
      // Ahead of and behind the cursor: a new edge at each end, one removed, one moved across it.
      const ahead = before[before.length - 1 - at] as Entry;
      const moved = before[before.length - 4 - at] as Entry;
      touched.add(ahead.edge.id).add(moved.edge.id);
      await api.gql('mutation($id: ID!) { unlink(input: { id: $id }) { removed } }', { id: ahead.edge.id });
      await api.gql('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.95) { newWeight } }', {
        id: moved.edge.id,
      });
      const spoke = `late${at}`;
      await api.gql('mutation($id: ID!) { createMemory(input: { id: $id, title: "late" }) { id } }', { id: spoke });
      touched.add(await link('hub', spoke, 'CITES', 0.99)).add(await link(spoke, 'hub', 'CITES', 0.1));
    });
    const ids = seen.map((entry) => entry.edge.id);
    expect(new Set(ids).size).toBe(ids.length);
    const unchanged = before.filter((entry) => !touched.has(entry.edge.id)).map((entry) => entry.edge.id);
    expect(unchanged.length).toBeGreaterThan(0);
    expect(ids.filter((id) => unchanged.includes(id))).toEqual(unchanged);
  });

  it('refuses first outside 1..100, and a cursor of another memory, filters or workspace, reading nothing', async () => {
    for (const first of [0, 101]) {
      const result = await page({ first });
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toMatch(/first: must be between 1 and 100/);
    }
    const cursor = (await page({ first: 1 })).data?.memory.neighborsConnection.pageInfo.endCursor;
    expect(typeof cursor).toBe('string');
    const foreign: [Record<string, unknown>, string | undefined][] = [
      [{ id: 'elsewhere' }, undefined],
      [{ direction: 'OUTGOING' }, undefined],
      [{ types: ['CITES'] }, undefined],
      [{ minWeight: 0.1 }, undefined],
      [{ includePruned: true }, undefined],
      [{}, 'other'],
    ];
    for (const [variables, workspace] of foreign) {
      counted.reset();
      const result = await page({ first: 1, after: cursor, ...variables }, workspace);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toMatch(/^after: this cursor belongs to another list/);
      expect(counted.calls.get('getAdjacentPage')).toBeUndefined();
    }
    // The same filters spelt differently share cursors.
    const typed = (await page({ first: 1, types: ['CITES', 'related_to'] })).data?.memory.neighborsConnection;
    const next = await page({ first: 1, types: ['RELATED_TO', 'cites'], after: typed.pageInfo.endCursor });
    expect(next.errors).toBeUndefined();
    const garbage = await page({ first: 1, after: 'not-a-cursor' });
    expect(garbage.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('reads the pages of many memories in one store call', async () => {
    counted.reset();
    const result = await api.gql(
      `{ memories(ids: ["n0", "n1", "n2", "n3"]) { neighborsConnection(first: 2) { edges { node { memory { id } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(counted.calls.get('getAdjacentPage')).toBe(1);
  });
});
