import { describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../../src/domain/ids.js';
import type { NewMemory } from '../../../src/domain/types.js';
import type { SeededGraph } from '../../fixtures/graphs.js';
import { star } from '../../fixtures/graphs.js';
import { byId, DEFAULT_WS, expectError, seed, useTestApp } from '../support.js';

const api = useTestApp();

describe('Memory.neighbors', () => {
  const neighbors = async (args = '') => {
    const response = await api().gql(
      `{ memory(key: "star-hub") { neighbors${args ? `(${args})` : ''} { memory { key } edge { id weight } direction } } }`,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data?.memory.neighbors as {
      memory: { key: string };
      edge: { id: string; weight: number };
      direction: string;
    }[];
  };
  const keys = (list: Awaited<ReturnType<typeof neighbors>>) => list.map((entry) => entry.memory.key);

  /** s2 and s3 both hang on 0.7 edges: the smaller edge id comes first. */
  const tie = (graph: SeededGraph) =>
    byId([graph.edge('hub', 's2').id, graph.edge('hub', 's3').id]).map((id) =>
      id === graph.edge('hub', 's2').id ? 'star-s2' : 'star-s3',
    );

  it('orders by edge weight desc, then edge id, leaving pruned edges out', async () => {
    const graph = await seed(api(), star);
    const list = await neighbors();
    expect(keys(list)).toEqual(['star-s1', ...tie(graph), 'star-s6', 'star-s4']);
    expect(list.map((entry) => entry.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6, 0.3]);
    expect(list.map((entry) => entry.direction)).toEqual(['OUTGOING', 'OUTGOING', 'OUTGOING', 'INCOMING', 'OUTGOING']);
  });

  it('keeps the strongest edges under limit', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('limit: 1'))).toEqual(['star-s1']);
    expect(keys(await neighbors('limit: 2'))).toEqual(['star-s1', tie(graph)[0]]);
  });

  it('returns at most 20 by default', async () => {
    const memory = (key: string): NewMemory => ({
      id: newId(),
      key,
      title: key,
      content: null,
      kind: null,
      tags: [],
      weight: 0.5,
      metadata: null,
    });
    const hub = memory('star-hub');
    const spokes = Array.from({ length: 22 }, (_, index) => memory(`n${index}`));
    const edges = spokes.map((spoke, index) => ({
      id: newId(),
      fromId: hub.id,
      toId: spoke.id,
      type: 'CITES',
      weight: 0.1 + index * 0.01,
      metadata: null,
    }));
    await api().store.importBatch(DEFAULT_WS, { memories: [hub, ...spokes], edges }, nowIso());
    const list = await neighbors();
    expect(list).toHaveLength(20);
    expect(list[0]?.memory.key).toBe('n21');
    expect(list.at(-1)?.memory.key).toBe('n2');
  });

  it('follows the given direction', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('direction: OUTGOING'))).toEqual(['star-s1', ...tie(graph), 'star-s4']);
    const incoming = await neighbors('direction: INCOMING');
    expect(keys(incoming)).toEqual(['star-s6']);
    expect(incoming[0]?.direction).toBe('INCOMING');
  });

  it('keeps only the given types, normalising their case', async () => {
    await seed(api(), star);
    expect(keys(await neighbors('types: ["cites"]'))).toEqual(['star-s1', 'star-s2']);
    expect(keys(await neighbors('types: ["SUPERSEDES", "related_to"]'))).toEqual(['star-s6', 'star-s4']);
  });

  it('keeps only edges of at least minWeight', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('minWeight: 0.7'))).toEqual(['star-s1', ...tie(graph)]);
    expect(keys(await neighbors('minWeight: 0.95'))).toEqual([]);
  });

  it('includes pruned edges when asked, weakest last', async () => {
    const graph = await seed(api(), star);
    const list = await neighbors('includePruned: true');
    expect(keys(list)).toEqual(['star-s1', ...tie(graph), 'star-s6', 'star-s4', 'star-s7', 'star-s5']);
    expect(keys(await neighbors('includePruned: true, direction: INCOMING'))).toEqual(['star-s6', 'star-s7']);
  });

  it('rejects minWeight outside 0..1 and limit outside 1..100 with BAD_USER_INPUT naming the argument', async () => {
    await seed(api(), star);
    const ask = (args: string) => api().gql(`{ memory(key: "star-hub") { neighbors(${args}) { edge { id } } } }`);
    expectError(await ask('minWeight: 1.5'), 'BAD_USER_INPUT', 'minWeight: must be between 0 and 1');
    expectError(await ask('limit: 0'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
    expectError(await ask('limit: 101'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
  });
});

describe('Memory.degree', () => {
  it('counts the unpruned edges in the given direction and of the given types', async () => {
    await seed(api(), star);
    const { data, errors } = await api().gql(`{
      hub: memory(key: "star-hub") {
        both: degree
        out: degree(direction: OUTGOING)
        in: degree(direction: INCOMING)
        cites: degree(types: ["cites"])
      }
      s5: memory(key: "star-s5") { degree }
      s1: memory(key: "star-s1") { degree }
    }`);
    expect(errors).toBeUndefined();
    expect(data).toEqual({ hub: { both: 5, out: 4, in: 1, cites: 2 }, s5: { degree: 0 }, s1: { degree: 2 } });
  });
});
