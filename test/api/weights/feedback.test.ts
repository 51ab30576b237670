import { describe, expect, it } from 'vitest';
import { chain, star } from '../../fixtures/graphs.js';
import { expectRejectedWithoutWrites, seed } from '../support.js';
import { CHANGE_FIELDS, useWeightApp } from './support.js';

const { api, change, edgeWeight, memoryWeight } = useWeightApp();

describe('feedback', () => {
  it('USED without via strengthens the memory and all its unpruned edges by the tier step', async () => {
    const graph = await seed(api(), star);
    const { feedback } = await change(
      `mutation { feedback(memoryId: "star-hub", signal: USED, reason: "answered the question") { ${CHANGE_FIELDS} } }`,
      undefined,
      6,
    );
    const changes = feedback as {
      memory: { id: string } | null;
      edge: { id: string } | null;
      previousWeight: number;
      newWeight: number;
      event: { reason: string; source: string };
    }[];
    expect(changes).toHaveLength(6);
    expect(changes.filter((entry) => entry.memory !== null)).toEqual([
      expect.objectContaining({
        memory: { id: graph.id('hub'), weight: 0.51 },
        edge: null,
        previousWeight: 0.5,
        newWeight: 0.51,
      }),
    ]);
    const edgeIds = changes.flatMap((entry) => (entry.edge ? [entry.edge.id] : []));
    expect(edgeIds.sort()).toEqual(
      [
        graph.edge('hub', 's1'),
        graph.edge('hub', 's2'),
        graph.edge('hub', 's3'),
        graph.edge('hub', 's4'),
        graph.edge('s6', 'hub'),
      ]
        .map((edge) => edge.id)
        .sort(),
    );
    for (const entry of changes) {
      expect(entry.newWeight).toBeCloseTo(entry.previousWeight + 0.01, 12);
      expect(entry.event).toMatchObject({ reason: 'answered the question', source: 'CONSCIOUS' });
    }
    expect(await edgeWeight(graph.edge('hub', 's5').id)).toBe(0.03);
  });

  it('USED with via strengthens the memory and only the named edges', async () => {
    const graph = await seed(api(), chain);
    const via = [graph.edge('a', 'b').id];
    const { feedback } = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: USED, via: $via) { edge { id } memory { key } newWeight } }',
      { via },
      2,
    );
    expect(feedback).toEqual([
      { edge: null, memory: { key: 'chain-b' }, newWeight: 0.51 },
      { edge: { id: graph.edge('a', 'b').id }, memory: null, newWeight: 0.51 },
    ]);
    expect(await edgeWeight(graph.edge('b', 'c').id)).toBe(0.6);
  });

  it('NOT_RELEVANT without via weakens every edge touching the memory, not the memory', async () => {
    const graph = await seed(api(), chain);
    const { feedback } = await change(
      'mutation { feedback(memoryId: "chain-b", signal: NOT_RELEVANT) { edge { id weight } memory { id } } }',
      undefined,
      2,
    );
    expect(feedback).toHaveLength(2);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.49);
    expect(await edgeWeight(graph.edge('b', 'c').id)).toBe(0.59);
    expect(await memoryWeight('chain-b')).toBe(0.5);
  });

  it('NOT_RELEVANT with via weakens only the named edges', async () => {
    const graph = await seed(api(), chain);
    const { feedback } = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: NOT_RELEVANT, via: $via, source: AGENT) { newWeight event { source delta } } }',
      {
        via: [graph.edge('b', 'c').id],
      },
    );
    expect(feedback).toEqual([{ newWeight: 0.59999, event: { source: 'AGENT', delta: -0.00001 } }]);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.5);
  });

  it('NOT_USEFUL weakens only the memory, with or without via', async () => {
    const graph = await seed(api(), chain);
    const without = await change(
      'mutation { feedback(memoryId: "chain-b", signal: NOT_USEFUL) { memory { key weight } edge { id } event { delta } } }',
    );
    expect(without.feedback).toEqual([
      { memory: { key: 'chain-b', weight: 0.49 }, edge: null, event: { delta: -0.01 } },
    ]);
    const withVia = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: NOT_USEFUL, via: $via) { newWeight } }',
      { via: [graph.edge('a', 'b').id] },
    );
    expect(withVia.feedback).toEqual([{ newWeight: 0.48 }]);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.5);
  });

  it('fails with NOT_FOUND naming via when an edge of via is missing, and writes nothing', async () => {
    const graph = await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      {
        query: 'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: USED, via: $via) { newWeight } }',
        variables: { via: [graph.edge('a', 'b').id, 'ghost-edge'] },
      },
      'NOT_FOUND',
      'via: no edge "ghost-edge" in this workspace',
    );
  });

  it('fails with NOT_FOUND naming memoryId for a missing memory, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { feedback(memoryId: "ghost", signal: USED) { newWeight } }' },
      'NOT_FOUND',
      'memoryId: no memory "ghost" in this workspace',
    );
  });
});
