import { describe, expect, it } from 'vitest';
import { chain, cycle, diamond, star } from '../../fixtures/graphs.js';
import { byId, expectError, seed, useTestApp } from '../support.js';

const api = useTestApp();

describe('Memory.traverse', () => {
  interface Hit {
    memory: { key: string };
    depth: number;
    via: { id: string }[];
  }
  const traverse = async (key: string, args = '') => {
    const response = await api().gql(
      `{ memory(key: "${key}") { traverse${args ? `(${args})` : ''} { memory { key } depth via { id } } } }`,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data?.memory.traverse as Hit[];
  };
  const keys = (hits: Hit[]) => hits.map((hit) => hit.memory.key);

  it('walks 3 levels by default, in depth order, with the edges walked in order', async () => {
    const graph = await seed(api(), chain);
    const hits = await traverse('chain-a');
    expect(hits.map((hit) => [hit.memory.key, hit.depth])).toEqual([
      ['chain-b', 1],
      ['chain-c', 2],
      ['chain-d', 3],
    ]);
    expect(hits[2]?.via.map((edge) => edge.id)).toEqual([
      graph.edge('a', 'b').id,
      graph.edge('b', 'c').id,
      graph.edge('c', 'd').id,
    ]);
  });

  it('stops at maxDepth and at limit', async () => {
    await seed(api(), chain);
    expect(keys(await traverse('chain-a', 'maxDepth: 1'))).toEqual(['chain-b']);
    expect(keys(await traverse('chain-a', 'maxDepth: 5'))).toEqual(['chain-b', 'chain-c', 'chain-d', 'chain-e']);
    expect(keys(await traverse('chain-a', 'maxDepth: 5, limit: 2'))).toEqual(['chain-b', 'chain-c']);
  });

  it('orders hits of one depth by the weight of the last edge, strongest first', async () => {
    const graph = await seed(api(), star);
    const hits = await traverse('star-hub', 'maxDepth: 1');
    const [first, second] = byId([graph.id('s2'), graph.id('s3')]);
    const keyOf = (id: string | undefined) => (id === graph.id('s2') ? 'star-s2' : 'star-s3');
    // s2 and s3 tie at 0.7; pruned s5 and s7 are not reached.
    expect(keys(hits)).toEqual(['star-s1', keyOf(first), keyOf(second), 'star-s6', 'star-s4']);
    expect(keys(await traverse('star-hub', 'limit: 2'))).toEqual(['star-s1', keyOf(first)]);
  });

  it('reaches each memory once, at its smallest depth, through the strongest edge of the previous level', async () => {
    const graph = await seed(api(), diamond);
    const hits = await traverse('diamond-top');
    expect(hits.map((hit) => [hit.memory.key, hit.depth])).toEqual([
      ['diamond-left', 1],
      ['diamond-right', 1],
      ['diamond-bottom', 2],
    ]);
    // right -> bottom (0.8) beats left -> bottom (0.6).
    expect(hits[2]?.via.map((edge) => edge.id)).toEqual([
      graph.edge('top', 'right').id,
      graph.edge('right', 'bottom').id,
    ]);
  });

  it('follows the given direction and types', async () => {
    await seed(api(), chain);
    expect(keys(await traverse('chain-a', 'direction: INCOMING'))).toEqual([]);
    expect(keys(await traverse('chain-e', 'direction: INCOMING'))).toEqual(['chain-d', 'chain-c', 'chain-b']);
    expect(keys(await traverse('chain-c', 'direction: BOTH, maxDepth: 1'))).toEqual(['chain-d', 'chain-b']);
    expect(keys(await traverse('chain-a', 'types: ["RELATED_TO"]'))).toEqual([]);
    expect(keys(await traverse('chain-a', 'types: ["caused_by"], maxDepth: 2'))).toEqual(['chain-b', 'chain-c']);
  });

  it('reports each memory of a cycle once', async () => {
    await seed(api(), cycle);
    const hits = await traverse('cycle-a', 'maxDepth: 5');
    expect(hits.map((hit) => hit.depth)).toEqual([1, 1]);
    expect(keys(hits).sort()).toEqual(['cycle-b', 'cycle-c']);
  });

  it('skips pruned edges', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.01) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    expect(keys(await traverse('chain-a', 'maxDepth: 5'))).toEqual(['chain-b']);
  });

  it('rejects maxDepth outside 1..5 and limit outside 1..100 with BAD_USER_INPUT naming the argument', async () => {
    await seed(api(), chain);
    const ask = (args: string) => api().gql(`{ memory(key: "chain-a") { traverse(${args}) { depth } } }`);
    expectError(await ask('maxDepth: 0'), 'BAD_USER_INPUT', 'maxDepth: must be between 1 and 5');
    expectError(await ask('maxDepth: 6'), 'BAD_USER_INPUT', 'maxDepth: must be between 1 and 5');
    expectError(await ask('limit: 101'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
  });
});
