import { describe, expect, it } from 'vitest';
import { chain, disconnected } from '../fixtures/graphs.js';
import { expectRejectedWithoutWrites, seed, useTestApp } from './support.js';

const api = useTestApp();

const edgeWeight = async (id: string): Promise<number> =>
  (await api().gql('query($id: ID!) { edge(id: $id) { weight } }', { id })).data?.edge.weight;

describe('feedback via', () => {
  it('refuses an edge that does not touch the memory, and changes nothing', async () => {
    const graph = await seed(api(), disconnected);
    const stray = graph.edge('x', 'y');
    const error = await expectRejectedWithoutWrites(
      api(),
      {
        query: 'mutation($via: [ID!]) { feedback(memoryId: "disconnected-p", signal: USED, via: $via) { newWeight } }',
        variables: { via: [graph.edge('p', 'q').id, stray.id] },
      },
      'BAD_USER_INPUT',
      /does not touch/,
    );
    expect(error.extensions?.argument).toBe('via');
    expect(error.message).toContain(stray.id);
    expect(await edgeWeight(stray.id)).toBe(0.5);
  });

  it('accepts edges in either direction of the memory', async () => {
    const graph = await seed(api(), chain);
    const response = await api().gql(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: NOT_RELEVANT, via: $via) { edge { id } } }',
      { via: [graph.edge('a', 'b').id, graph.edge('b', 'c').id] },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data?.feedback).toHaveLength(2);
  });
});

describe('link reason', () => {
  it("keeps the reason of a new edge as a MANUAL event in the edge's history, weight unchanged", async () => {
    await seed(api(), disconnected);
    const linked = await api().gql(
      'mutation { link(input: { from: "disconnected-p", to: "disconnected-z", type: "CITES", weight: 0.7, reason: "z quotes p" }) { id weight } }',
    );
    expect(linked.errors).toBeUndefined();
    const edge = linked.data?.link;
    expect(edge.weight).toBe(0.7);
    const history = await api().gql('query($id: ID) { weightEvents(edgeId: $id) { source old new reason } }', {
      id: edge.id,
    });
    expect(history.data?.weightEvents).toEqual([{ source: 'MANUAL', old: 0.7, new: 0.7, reason: 'z quotes p' }]);
  });

  it('writes no event for a new edge without a reason', async () => {
    await seed(api(), disconnected);
    const linked = await api().gql(
      'mutation { link(input: { from: "disconnected-p", to: "disconnected-z", type: "CITES" }) { id } }',
    );
    const history = await api().gql('query($id: ID) { weightEvents(edgeId: $id) { id } }', {
      id: linked.data?.link.id,
    });
    expect(history.data?.weightEvents).toEqual([]);
  });
});

describe('contradictions', () => {
  it('lists a lone FAILS_TO_REPRODUCE as a DIRECT contradiction with that edge', async () => {
    await seed(api(), disconnected);
    const linked = await api().gql(
      'mutation { link(input: { from: "disconnected-x", to: "disconnected-z", type: "FAILS_TO_REPRODUCE", weight: 0.6 }) { id } }',
    );
    const response = await api().gql('{ contradictions { a { key } b { key } kind strength edge { id type } } }');
    expect(response.errors).toBeUndefined();
    expect(response.data?.contradictions).toEqual([
      {
        a: { key: 'disconnected-x' },
        b: { key: 'disconnected-z' },
        kind: 'DIRECT',
        strength: 0.6,
        edge: { id: linked.data?.link.id, type: 'FAILS_TO_REPRODUCE' },
      },
    ]);
  });
});

describe('weaken and strengthen by edge id', () => {
  it('weakens and strengthens the edge named by edgeId', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    const weakened = await api().gql('mutation($id: ID) { weaken(edgeId: $id, amount: 0.2) { newWeight } }', {
      id: edge.id,
    });
    expect(weakened.data?.weaken.newWeight).toBeCloseTo(0.3);
    const strengthened = await api().gql(
      'mutation($id: ID) { strengthen(edgeId: $id, amount: 0.1) { newWeight edge { id } } }',
      { id: edge.id },
    );
    expect(strengthened.data?.strengthen).toEqual({ newWeight: 0.4, edge: { id: edge.id } });
  });

  it('refuses edgeId together with the triple, and neither, without writing', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('a', 'b').id;
    await expectRejectedWithoutWrites(
      api(),
      {
        query:
          'mutation($id: ID) { weaken(edgeId: $id, from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }',
        variables: { id },
      },
      'BAD_USER_INPUT',
      /either edgeId/,
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { strengthen(from: "chain-a", type: "CAUSED_BY") { newWeight } }' },
      'BAD_USER_INPUT',
      /either edgeId/,
    );
  });

  it('answers NOT_FOUND for an unknown edge id', async () => {
    await seed(api(), chain);
    const error = await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(edgeId: "no-such-edge") { newWeight } }' },
      'NOT_FOUND',
      /no-such-edge/,
    );
    expect(error.extensions?.argument).toBe('edgeId');
  });
});
