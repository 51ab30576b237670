import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { expectRejectedWithoutWrites, readDb, seed } from '../support.js';
import { CHANGE_FIELDS, useWeightApp } from './support.js';

const { api, change, edgeWeight } = useWeightApp();

describe('weaken', () => {
  it('lowers the weight by 0.3 by default, as a CONSCIOUS event', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    const { weaken } = await change(
      `mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", reason: "user corrected it") { ${CHANGE_FIELDS} } }`,
    );
    expect(weaken).toMatchObject({
      previousWeight: 0.5,
      newWeight: 0.2,
      pruned: false,
      edge: { id: edge.id, weight: 0.2, pruned: false },
      memory: null,
      event: {
        source: 'CONSCIOUS',
        old: 0.5,
        new: 0.2,
        delta: -0.3,
        reason: 'user corrected it',
        revertedBy: null,
        edge: { id: edge.id },
        memory: null,
      },
    });
    expect(await edgeWeight(edge.id)).toBe(0.2);
  });

  it('uses the given amount and source, accepting ids, keys and a lower-case type', async () => {
    const graph = await seed(api(), chain);
    const { weaken } = await change(
      'mutation($from: ID!) { weaken(from: $from, to: "chain-c", type: "caused_by", amount: 0.15, source: AGENT) { newWeight event { source delta } } }',
      {
        from: graph.id('b'),
      },
    );
    expect(weaken).toEqual({ newWeight: 0.45, event: { source: 'AGENT', delta: -0.15 } });
  });

  it('clamps at 0 and keeps the edge', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    await change('mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }');
    const { weaken } = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 1) { previousWeight newWeight pruned event { delta } } }',
    );
    expect(weaken).toEqual({ previousWeight: 0.2, newWeight: 0, pruned: true, event: { delta: -0.2 } });
    const again = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight event { delta } } }',
    );
    expect(again.weaken).toEqual({ newWeight: 0, event: { delta: 0 } });
    expect(readDb(api().dbPath).rows.edges).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: edge.id, weight: 0 })]),
    );
  });

  it('prunes the edge at or below 0.05: hidden from neighbors, degree, path and traverse, shown with includePruned', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('b', 'c');
    const { weaken } = await change(
      'mutation { weaken(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.55) { newWeight pruned } }',
    );
    expect(weaken).toEqual({ newWeight: 0.05, pruned: true });

    const { data } = await api().gql(`{
      b: memory(key: "chain-b") {
        neighbors { memory { key } }
        all: neighbors(includePruned: true) { memory { key } edge { id pruned } }
        degree
        traverse(maxDepth: 5) { memory { key } }
      }
      path(from: "chain-a", to: "chain-e", maxHops: 10) { found }
      edgesBetween(from: "chain-b", to: "chain-c") { id pruned }
    }`);
    expect(data?.b.neighbors).toEqual([{ memory: { key: 'chain-a' } }]);
    expect(data?.b.all).toEqual([
      { memory: { key: 'chain-a' }, edge: { id: graph.edge('a', 'b').id, pruned: false } },
      { memory: { key: 'chain-c' }, edge: { id: edge.id, pruned: true } },
    ]);
    expect(data?.b.degree).toBe(1);
    expect(data?.b.traverse).toEqual([{ memory: { key: 'chain-a' } }]);
    expect(data?.path).toEqual({ found: false });
    expect(data?.edgesBetween).toEqual([{ id: edge.id, pruned: true }]);
  });

  it('is revived by strengthen above 0.05', async () => {
    const graph = await seed(api(), chain);
    await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    const { strengthen } = await change(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.1) { newWeight pruned } }',
    );
    expect(strengthen).toEqual({ newWeight: 0.1, pruned: false });
    expect((await api().gql('{ path(from: "chain-a", to: "chain-e") { found } }')).data?.path.found).toBe(true);
  });

  it('fails with NOT_FOUND on a missing edge and never creates it', async () => {
    await seed(api(), chain);
    const error = await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "chain-a", to: "chain-c", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
    );
    expect(error.message).toMatch(/No CAUSED_BY edge from "chain-a" to "chain-c"/);
    expect((await api().gql('{ edgesBetween(from: "chain-a", to: "chain-c") { id } }')).data?.edgesBetween).toEqual([]);
  });

  it('fails with NOT_FOUND naming from or to when a memory is missing, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "ghost", to: "chain-b", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      'from: no memory "ghost" in this workspace',
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "chain-a", to: "ghost", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      'to: no memory "ghost" in this workspace',
    );
  });
});
