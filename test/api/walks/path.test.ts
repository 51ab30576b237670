import { describe, expect, it } from 'vitest';
import { chain, diamond, disconnected } from '../../fixtures/graphs.js';
import { expectError, seed } from '../support.js';
import { PATH_FIELDS, type PathAnswer, stepKeys, usePathApp } from './support.js';

const { api, path, extendChain } = usePathApp();

describe('path', () => {
  it('finds the path with its hops, steps in order, and no edge after the last step', async () => {
    const graph = await seed(api(), chain);
    const answer = await path('from: "chain-a", to: "chain-e"');
    expect(answer.found).toBe(true);
    expect(answer.hops).toBe(4);
    expect(answer.message).toBeNull();
    expect(stepKeys(answer)).toEqual(['chain-a', 'chain-b', 'chain-c', 'chain-d', 'chain-e']);
    expect(answer.steps.map((step) => step.edgeToNext?.id ?? null)).toEqual([
      graph.edge('a', 'b').id,
      graph.edge('b', 'c').id,
      graph.edge('c', 'd').id,
      graph.edge('d', 'e').id,
      null,
    ]);
  });

  it('answers hops 0 and one step when from and to are the same memory', async () => {
    const graph = await seed(api(), chain);
    const answer = await path(`from: "${graph.id('c')}", to: "chain-c"`);
    expect(answer).toEqual({
      found: true,
      hops: 0,
      message: null,
      steps: [{ memory: { key: 'chain-c' }, edgeToNext: null }],
    });
  });

  it('answers not found with the contract message and no steps when no path is short enough', async () => {
    await seed(api(), chain);
    expect(await path('from: "chain-a", to: "chain-e", maxHops: 3')).toEqual({
      found: false,
      hops: 0,
      message: 'No path from chain-a to chain-e within 3 hops',
      steps: [],
    });
    expect((await path('from: "chain-a", to: "chain-e", maxHops: 4')).found).toBe(true);
  });

  it('looks at most 4 hops deep by default, and up to 10 when asked', async () => {
    await seed(api(), chain);
    await extendChain();
    const byDefault = await path('from: "chain-a", to: "chain-f"');
    expect(byDefault.found).toBe(false);
    expect(byDefault.message).toBe('No path from chain-a to chain-f within 4 hops');
    const deeper = await path('from: "chain-a", to: "chain-f", maxHops: 10');
    expect(deeper.hops).toBe(5);
  });

  it('answers not found between two components', async () => {
    await seed(api(), disconnected);
    const answer = await path('from: "disconnected-p", to: "disconnected-y", maxHops: 10');
    expect(answer.found).toBe(false);
    expect(answer.message).toBe('No path from disconnected-p to disconnected-y within 10 hops');
    expect((await path('from: "disconnected-z", to: "disconnected-p"')).found).toBe(false);
  });

  it('follows edges in the given direction only, and ignores direction with BOTH', async () => {
    await seed(api(), chain);
    expect((await path('from: "chain-a", to: "chain-e", direction: OUTGOING')).hops).toBe(4);
    expect((await path('from: "chain-a", to: "chain-e", direction: INCOMING')).found).toBe(false);
    expect((await path('from: "chain-e", to: "chain-a", direction: INCOMING')).hops).toBe(4);
    expect((await path('from: "chain-e", to: "chain-a", direction: OUTGOING')).found).toBe(false);
    const both = await path('from: "chain-e", to: "chain-a", direction: BOTH');
    expect(stepKeys(both)).toEqual(['chain-e', 'chain-d', 'chain-c', 'chain-b', 'chain-a']);
  });

  it('walks only edges of the given types, normalising their case', async () => {
    await seed(api(), chain);
    expect((await path('from: "chain-a", to: "chain-c", types: ["RELATED_TO"]')).found).toBe(false);
    expect((await path('from: "chain-a", to: "chain-c", types: ["caused_by"]')).hops).toBe(2);
  });

  it('skips pruned edges, and finds the path again once the edge is strengthened', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.05) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    expect((await path('from: "chain-a", to: "chain-e"')).found).toBe(false);
    await api().gql(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.2) { pruned } }',
    );
    expect((await path('from: "chain-a", to: "chain-e"')).hops).toBe(4);
  });

  it('picks the same path among equally short ones every time', async () => {
    const graph = await seed(api(), diamond);
    const answers: PathAnswer[] = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push(await path('from: "diamond-top", to: "diamond-bottom"'));
    answers.push(await path(`from: "${graph.id('top')}", to: "${graph.id('bottom')}"`));
    const first = answers[0] as PathAnswer;
    expect(first.hops).toBe(2);
    expect(stepKeys(first)[0]).toBe('diamond-top');
    expect(['diamond-left', 'diamond-right']).toContain(stepKeys(first)[1]);
    for (const answer of answers) expect(answer).toEqual(first);
  });
});

describe('Memory.path', () => {
  it('answers like Query.path from the parent memory', async () => {
    await seed(api(), diamond);
    const { data } = await api().gql(
      `{ memory(key: "diamond-top") { path(to: "diamond-bottom") { ${PATH_FIELDS} } } }`,
    );
    expect(data?.memory.path).toEqual(await path('from: "diamond-top", to: "diamond-bottom"'));
    const reversed = await api().gql(
      `{ memory(key: "diamond-top") { path(to: "diamond-bottom", direction: INCOMING) { found message } } }`,
    );
    expect(reversed.data?.memory.path).toEqual({
      found: false,
      message: 'No path from diamond-top to diamond-bottom within 4 hops',
    });
  });

  it('honours maxHops and types', async () => {
    await seed(api(), chain);
    const { data } = await api().gql(`{ memory(key: "chain-a") {
      short: path(to: "chain-d", maxHops: 2) { found }
      long: path(to: "chain-d", maxHops: 3) { hops }
      typed: path(to: "chain-d", types: ["CITES"]) { found }
    } }`);
    expect(data?.memory).toEqual({ short: { found: false }, long: { hops: 3 }, typed: { found: false } });
  });

  it('answers hops 0 for a path to the memory itself', async () => {
    await seed(api(), chain);
    const { data } = await api().gql(
      '{ memory(key: "chain-b") { path(to: "chain-b") { found hops steps { memory { key } edgeToNext { id } } } } }',
    );
    expect(data?.memory.path).toEqual({
      found: true,
      hops: 0,
      steps: [{ memory: { key: 'chain-b' }, edgeToNext: null }],
    });
  });

  it('fails with NOT_FOUND naming to when the target is missing', async () => {
    await seed(api(), chain);
    expectError(
      await api().gql('{ memory(key: "chain-a") { path(to: "ghost") { found } } }'),
      'NOT_FOUND',
      'to: no memory "ghost" in this workspace',
    );
  });
});
