import { describe, expect, it } from 'vitest';
import { GRAPH_SHARE } from '../../../src/services/recall/activation.js';
import { namesGraph } from '../../fixtures/names-graph.js';
import { expectError, seed, useTestApp } from '../support.js';
import { keysOf, recallGraph, recallOf, resultOf } from './support.js';

const api = useTestApp();

describe('recall: spreading activation from the lexical hit', () => {
  it('ranks the memory two strong hops away above a weakly linked one, with the arithmetic of docs/recall.md', async () => {
    const graph = await seed(api(), recallGraph);
    const recall = await recallOf(api(), 'query: "warmup spikes"');
    expect(keysOf(recall)).toEqual([
      'recall-hit',
      'recall-mid',
      'recall-left',
      'recall-right',
      'recall-joined',
      'recall-target',
      'recall-distractor',
    ]);
    const hit = resultOf(recall, 'recall-hit');
    expect(hit).toMatchObject({ score: 1, lexical: 1, vector: null, graph: null, seed: true, path: [] });
    const target = resultOf(recall, 'recall-target');
    expect(target.seed).toBe(false);
    expect(target.lexical).toBeNull();
    // The hit's four edges weigh 2.1 and mid's two 1.7: each splits what it passes on.
    const targetGraph = (((0.9 * 0.5) / 2.1) * 0.8 * 0.5) / 1.7;
    expect(target.graph).toBeCloseTo(targetGraph, 12);
    expect(target.score).toBeCloseTo(GRAPH_SHARE * targetGraph, 12);
    expect(target.path.map((edge) => edge.id)).toEqual([graph.edge('hit', 'mid').id, graph.edge('mid', 'target').id]);
    expect(resultOf(recall, 'recall-distractor').graph).toBeCloseTo((0.2 * 0.5) / 2.1, 12);
  });

  it('sums activation over two paths; the path shown is the one that carried more', async () => {
    const graph = await seed(api(), recallGraph);
    const joined = resultOf(await recallOf(api(), 'query: "warmup spikes"'), 'recall-joined');
    // left's edges weigh 1.1 and split; right's weigh 0.9 and do not.
    expect(joined.graph).toBeCloseTo((((0.6 * 0.5) / 2.1) * 0.5 * 0.5) / 1.1 + ((0.4 * 0.5) / 2.1) * 0.5 * 0.5, 12);
    expect(joined.path.map((edge) => edge.id)).toEqual([graph.edge('hit', 'left').id, graph.edge('left', 'joined').id]);
  });

  it('stops at maxDepth, keeps limit, and spreads only along the given types and weights', async () => {
    await seed(api(), recallGraph);
    expect(keysOf(await recallOf(api(), 'query: "warmup spikes", maxDepth: 1'))).toEqual([
      'recall-hit',
      'recall-mid',
      'recall-left',
      'recall-right',
      'recall-distractor',
    ]);
    expect(keysOf(await recallOf(api(), 'query: "warmup spikes", limit: 2'))).toEqual(['recall-hit', 'recall-mid']);
    expect(keysOf(await recallOf(api(), 'query: "warmup spikes", types: ["caused_by"]'))).toEqual([
      'recall-hit',
      'recall-mid',
      'recall-target',
    ]);
    expect(keysOf(await recallOf(api(), 'query: "warmup spikes", minWeight: 0.5'))).toEqual([
      'recall-hit',
      'recall-mid',
      'recall-left',
      'recall-target',
      'recall-joined',
    ]);
  });

  it('starts from memories named in seeds (by id or key) with activation 1', async () => {
    const graph = await seed(api(), recallGraph);
    const recall = await recallOf(api(), `seeds: ["recall-mid", "${graph.id('joined')}"], maxDepth: 1`);
    expect(resultOf(recall, 'recall-mid')).toMatchObject({ score: 1, lexical: null, seed: true, path: [] });
    // mid's edges (to the hit 0.9, to target 0.8) weigh 1.7.
    expect(resultOf(recall, 'recall-target').graph).toBeCloseTo((0.8 * 0.5) / 1.7, 12);
    expect(recall.query).toBeNull();
  });

  it('a stronger edge moves a memory up: weights change the ranking', async () => {
    const graph = await seed(api(), recallGraph);
    const before = keysOf(await recallOf(api(), 'query: "warmup spikes"'));
    expect(before.indexOf('recall-distractor')).toBeGreaterThan(before.indexOf('recall-target'));
    const set = await api().gql(
      `mutation { setEdgeWeight(id: "${graph.edge('hit', 'distractor').id}", weight: 1) { newWeight } }`,
    );
    expect(set.errors).toBeUndefined();
    const after = keysOf(await recallOf(api(), 'query: "warmup spikes"'));
    expect(after.slice(0, 2)).toEqual(['recall-hit', 'recall-distractor']);
  });
});

describe("recall: the question's names", () => {
  it('seeds first the word matches holding the name, where searchMemories ranks by the words', async () => {
    await seed(api(), namesGraph);
    const searched = await api().gql('{ searchMemories(query: "Until when is Iris away?") { key } }');
    const found = (searched.data?.searchMemories ?? []) as { key: string }[];
    expect(found.map((memory) => memory.key)).toEqual(['names-away', 'names-iris']);
    const recall = await recallOf(api(), 'query: "Until when is Iris away?"');
    expect(recall.results.map((result) => [result.memory.key, result.lexical])).toEqual([
      ['names-iris', 1],
      ['names-away', 0.5],
    ]);
    expect(keysOf(await recallOf(api(), 'query: "Until when is Iris away?", limit: 1'))).toEqual(['names-iris']);
  });
});

describe('recall: decay', () => {
  const strong = useTestApp({ env: { ENGRAM_RECALL_DECAY: '0.2' } });

  it('a lower decay favours near memories: the weak one-hop distractor passes the two-hop target', async () => {
    await seed(strong(), recallGraph);
    const recall = await recallOf(strong(), 'query: "warmup spikes"');
    expect(resultOf(recall, 'recall-target').graph).toBeCloseTo((((0.9 * 0.2) / 2.1) * 0.8 * 0.2) / 1.7, 12);
    expect(resultOf(recall, 'recall-distractor').graph).toBeCloseTo((0.2 * 0.2) / 2.1, 12);
    const keys = keysOf(recall);
    expect(keys.indexOf('recall-distractor')).toBeLessThan(keys.indexOf('recall-target'));
  });
});

describe('recall: arguments', () => {
  it('needs a query or seeds', async () => {
    expectError(await api().gql('{ recall { id } }'), 'BAD_USER_INPUT', /query/);
    expectError(await api().gql('{ recall(seeds: []) { id } }'), 'BAD_USER_INPUT', /query/);
  });

  it.each([
    ['limit: 0', /limit/],
    ['limit: 101', /limit/],
    ['maxDepth: 0', /maxDepth/],
    ['maxDepth: 6', /maxDepth/],
    ['minWeight: 1.5', /minWeight/],
    ['types: ["1bad"]', /types/],
    ['query: "   "', /query/],
  ])('refuses %s before any store work', async (args, message) => {
    expectError(
      await api().gql(`{ recall(query: "x", ${args}) { id } }`.replace('query: "x", query', 'query')),
      'BAD_USER_INPUT',
      message,
    );
  });

  it('NOT_FOUND for a seed that is not in the workspace', async () => {
    expectError(await api().gql('{ recall(seeds: ["nope"]) { id } }'), 'NOT_FOUND', /nope/);
  });

  it.each([
    ['an empty embedding', []],
    ['an embedding of more than 4096 numbers', new Array(4097).fill(0.1)],
  ])('refuses %s with the rule and message of createMemory(input.embedding:)', async (_label, embedding) => {
    const recall = await api().gql(
      'query ($embedding: [Float!]) { recall(query: "x", embedding: $embedding) { id } }',
      {
        embedding,
      },
    );
    const create = await api().gql('mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }', {
      input: { title: 'x', embedding },
    });
    const createMessage = expectError(create, 'BAD_USER_INPUT', /^input\.embedding: /).message;
    expectError(recall, 'BAD_USER_INPUT', createMessage.replace(/^input\./, ''));
  });

  it('an embedding without vectors configured is BAD_USER_INPUT', async () => {
    expectError(await api().gql('{ recall(query: "x", embedding: [0.1, 0.2]) { id } }'), 'BAD_USER_INPUT', /embedding/);
  });
});
