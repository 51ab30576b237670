import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import { schema } from '../../src/graphql/index.js';
import type { GraphStore } from '../../src/store/port.js';
import { seedGraph, type GraphFixture, type SeededGraph } from '../fixtures/graphs.js';
import {
  OSCILLATION,
  STEADY,
  WOBBLE,
  applyDeltas,
  contradictionMix,
  convergenceGraph,
  evidenceChains,
  hypothesisEvidence,
  oscillatingEdge,
  supersessionChain,
} from '../fixtures/research-graphs.js';
import { countingStore, createTestApp, type GraphQLResponse, type TestApp } from '../helpers/app.js';

const AGENT_STEP = DEFAULT_WEIGHT_POLICY.tierDelta.AGENT;

let app: TestApp;
let counter: ReturnType<typeof countingStore>;

beforeEach(async () => {
  app = await createTestApp({
    wrapStore: (store: GraphStore) => {
      counter = countingStore(store);
      return counter.store;
    },
  });
});

afterEach(async () => {
  await app.close();
});

const seed = (fixture: GraphFixture, workspace = 'default'): Promise<SeededGraph> =>
  seedGraph(app.store, workspace, fixture);

/** Runs an operation that must succeed and returns its data. */
async function ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const response = await app.gql<T>(query, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data as T;
}

function expectCode(response: GraphQLResponse, code: string, message?: RegExp): void {
  expect(response.errors, JSON.stringify(response)).toHaveLength(1);
  expect(response.errors?.[0]?.extensions?.code).toBe(code);
  if (message) expect(response.errors?.[0]?.message).toMatch(message);
}

/** Store calls made by one operation, by port method. */
async function callsOf(query: string, variables?: Record<string, unknown>): Promise<Record<string, number>> {
  counter.reset();
  await ok(query, variables);
  return Object.fromEntries(counter.calls);
}

const EVIDENCE = `query($id: ID!, $minWeight: Float, $maxDepth: Int) {
  memory(id: $id) {
    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {
      score
      supporting { memory { key } relation weight via { type from { key } to { key } } }
      contradicting { memory { key } relation weight via { type from { key } to { key } } }
    }
  }
}`;

// -------------------------------------------------------------------------------------------------
describe('Memory.evidence', () => {
  it('lists 3 validating and 1 contradicting experiment with the documented score', async () => {
    await seed(hypothesisEvidence);
    const { memory } = await ok(EVIDENCE, { id: 'hyp' });
    expect(memory.evidence.supporting).toEqual([
      {
        memory: { key: 'hyp-e1' },
        relation: 'VALIDATES',
        weight: 0.9,
        via: [{ type: 'VALIDATES', from: { key: 'hyp-e1' }, to: { key: 'hyp' } }],
      },
      {
        memory: { key: 'hyp-e2' },
        relation: 'VALIDATES',
        weight: 0.8,
        via: [{ type: 'VALIDATES', from: { key: 'hyp-e2' }, to: { key: 'hyp' } }],
      },
      {
        memory: { key: 'hyp-e3' },
        relation: 'VALIDATES',
        weight: 0.6,
        via: [{ type: 'VALIDATES', from: { key: 'hyp-e3' }, to: { key: 'hyp' } }],
      },
    ]);
    expect(memory.evidence.contradicting).toEqual([
      {
        memory: { key: 'hyp-e4' },
        relation: 'CONTRADICTS',
        weight: 0.7,
        via: [{ type: 'CONTRADICTS', from: { key: 'hyp-e4' }, to: { key: 'hyp' } }],
      },
    ]);
    // (S - C) / (1 + S + C) with S = 0.9 + 0.8 + 0.6 and C = 0.7
    expect(memory.evidence.score).toBeCloseTo(1.6 / 4, 12);
  });

  it('follows chains through replications and formalizations, weighting each item by the product along its chain', async () => {
    await seed(evidenceChains);
    const { memory } = await ok(EVIDENCE, { id: 'chains-claim' });
    const items = (list: any[]) =>
      list.map((item) => [item.memory.key, item.relation, Number(item.weight.toFixed(9)), item.via.length]);
    expect(items(memory.evidence.supporting)).toEqual([
      ['chains-exp', 'VALIDATES', 0.9, 1],
      ['chains-rep', 'REPLICATES', 0.45, 2],
      ['chains-sim', 'VALIDATES', 0.4, 2],
      ['chains-deep', 'VALIDATES', 0.225, 3],
      ['chains-weak', 'VALIDATES', 0.2, 1],
    ]);
    expect(items(memory.evidence.contradicting)).toEqual([['chains-fail', 'FAILS_TO_REPRODUCE', 0.36, 2]]);
    // Reading order: from the evidence memory to the memory judged.
    expect(memory.evidence.supporting[2].via).toEqual([
      { type: 'VALIDATES', from: { key: 'chains-sim' }, to: { key: 'chains-model' } },
      { type: 'FORMALIZES', from: { key: 'chains-model' }, to: { key: 'chains-claim' } },
    ]);
    const s = 0.9 + 0.45 + 0.4 + 0.225 + 0.2;
    expect(memory.evidence.score).toBeCloseTo((s - 0.36) / (1 + s + 0.36), 9);
  });

  it('stops at maxDepth and ignores edges lighter than minWeight', async () => {
    await seed(evidenceChains);
    const shallow = await ok(EVIDENCE, { id: 'chains-claim', maxDepth: 1 });
    expect(shallow.memory.evidence.supporting.map((item: any) => item.memory.key)).toEqual([
      'chains-exp',
      'chains-weak',
    ]);
    expect(shallow.memory.evidence.contradicting).toEqual([]);
    const strong = await ok(EVIDENCE, { id: 'chains-claim', minWeight: 0.5 });
    expect(strong.memory.evidence.supporting.map((item: any) => item.memory.key)).toEqual([
      'chains-exp',
      'chains-rep',
      'chains-sim',
      'chains-deep',
    ]);
  });

  it('scores 0 for a memory without evidence', async () => {
    await seed(supersessionChain);
    const { memory } = await ok(EVIDENCE, { id: 'policy-topic' });
    expect(memory.evidence).toEqual({ score: 0, supporting: [], contradicting: [] });
  });

  it('rejects maxDepth outside 1..5 and minWeight outside 0..1', async () => {
    await seed(hypothesisEvidence);
    expectCode(await app.gql(EVIDENCE, { id: 'hyp', maxDepth: 6 }), 'BAD_USER_INPUT', /maxDepth/);
    expectCode(await app.gql(EVIDENCE, { id: 'hyp', minWeight: 1.5 }), 'BAD_USER_INPUT', /minWeight/);
  });

  it('costs one adjacency read per depth level however many memories ask', async () => {
    await seed(hypothesisEvidence);
    await seed(evidenceChains);
    const keys = ['hyp', 'hyp-e1', 'hyp-e2', 'chains-claim', 'chains-exp', 'chains-rep', 'chains-model'];
    const calls = await callsOf(
      `query($ids: [ID!]!) { memories(ids: $ids) { key evidence { score supporting { memory { title } via { id } } } } }`,
      {
        ids: keys,
      },
    );
    // Levels of different memories share batches (and the cache), so never more than maxDepth reads.
    expect(calls.getMemories).toBe(1);
    expect(calls.getAdjacent).toBeLessThanOrEqual(3);
    expect(Object.keys(calls).sort()).toEqual(['getAdjacent', 'getMemories']);
  });
});

// -------------------------------------------------------------------------------------------------
describe('Memory.supersedes, supersededBy and current', () => {
  const VERSIONS = `query($ids: [ID!]!) { memories(ids: $ids) { key supersedes { key } supersededBy { key } current { key } } }`;

  it('follows a 3-version SUPERSEDES chain to the newest version', async () => {
    await seed(supersessionChain);
    const { memories } = await ok(VERSIONS, { ids: ['policy-v1', 'policy-v2', 'policy-v3', 'policy-topic'] });
    expect(memories).toEqual([
      { key: 'policy-v1', supersedes: [], supersededBy: [{ key: 'policy-v2' }], current: { key: 'policy-v3' } },
      {
        key: 'policy-v2',
        supersedes: [{ key: 'policy-v1' }],
        supersededBy: [{ key: 'policy-v3' }],
        current: { key: 'policy-v3' },
      },
      { key: 'policy-v3', supersedes: [{ key: 'policy-v2' }], supersededBy: [], current: { key: 'policy-v3' } },
      { key: 'policy-topic', supersedes: [], supersededBy: [], current: { key: 'policy-topic' } },
    ]);
  });

  it('ignores a pruned SUPERSEDES edge', async () => {
    const g = await seed(supersessionChain);
    await ok(`mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.01) { newWeight } }`, {
      id: g.edge('v3', 'v2').id,
    });
    const { memories } = await ok(VERSIONS, { ids: ['policy-v1'] });
    expect(memories[0].current).toEqual({ key: 'policy-v2' });
  });

  it('stops on a SUPERSEDES cycle', async () => {
    await seed(supersessionChain);
    await ok(`mutation { link(input: { from: "policy-v1", to: "policy-v3", type: "SUPERSEDES" }) { id } }`);
    const { memories } = await ok(VERSIONS, { ids: ['policy-v1'] });
    expect(memories[0].current).toEqual({ key: 'policy-v3' });
  });

  it('costs one adjacency read per step of the chain, shared by every memory asking', async () => {
    await seed(supersessionChain);
    // v1 needs three steps: v1 -> v2 -> v3 -> nothing newer.
    expect(await callsOf(`{ memory(key: "policy-v1") { current { key } } }`)).toEqual({
      getMemories: 1,
      getAdjacent: 3,
    });
    // Asked together, the first step reads every memory's successors, and later steps hit that cache.
    const calls = await callsOf(`query($ids: [ID!]!) { memories(ids: $ids) { current { key } } }`, {
      ids: ['policy-v1', 'policy-v2', 'policy-v3', 'policy-topic', 'policy-dep'],
    });
    expect(calls).toEqual({ getMemories: 1, getAdjacent: 1 });
  });
});

// -------------------------------------------------------------------------------------------------
describe('path and traverse with currentOnly', () => {
  const TRAVERSE = `query($currentOnly: Boolean) { memory(key: "policy-topic") { traverse(currentOnly: $currentOnly, maxDepth: 3) { depth memory { key } } } }`;

  it('traverse skips superseded memories and does not walk through them', async () => {
    await seed(supersessionChain);
    const all = await ok(TRAVERSE, {});
    expect(all.memory.traverse.map((hit: any) => hit.memory.key).sort()).toEqual([
      'policy-dep',
      'policy-v1',
      'policy-v2',
      'policy-v3',
    ]);
    const current = await ok(TRAVERSE, { currentOnly: true });
    expect(current.memory.traverse).toEqual([{ depth: 1, memory: { key: 'policy-v3' } }]);
  });

  it('path avoids superseded memories along the way but allows the memories named', async () => {
    await seed(supersessionChain);
    const PATH = `query($to: ID!, $currentOnly: Boolean) {
      path(from: "policy-topic", to: $to, currentOnly: $currentOnly) { found hops steps { memory { key } } }
    }`;
    expect((await ok(PATH, { to: 'policy-dep' })).path).toMatchObject({ found: true, hops: 2 });
    expect((await ok(PATH, { to: 'policy-dep', currentOnly: true })).path).toEqual({
      found: false,
      hops: 0,
      steps: [],
    });
    expect((await ok(PATH, { to: 'policy-v1', currentOnly: true })).path).toMatchObject({ found: true, hops: 1 });
    const memoryPath = await ok(
      `{ memory(key: "policy-topic") { path(to: "policy-dep", currentOnly: true) { found } } }`,
    );
    expect(memoryPath.memory.path.found).toBe(false);
  });

  it('defaults to false, so walks are unchanged unless asked', async () => {
    await seed(supersessionChain);
    const calls = await callsOf(TRAVERSE, {});
    expect(calls.countAdjacent).toBeUndefined();
  });
});

// -------------------------------------------------------------------------------------------------
describe('Query.contradictions', () => {
  const CONTRADICTIONS = `query($limit: Int, $minWeight: Float, $kinds: [ContradictionKind!]) {
    contradictions(limit: $limit, minWeight: $minWeight, kinds: $kinds) {
      a { key } b { key } kind strength resolved edge { type weight } edges { type }
    }
  }`;
  const pairs = (list: any[]) => list.map((c) => `${c.a.key}>${c.b.key} ${c.kind}${c.resolved ? ' resolved' : ''}`);

  it('lists open contradictions first, strongest first, then resolved ones', async () => {
    await seed(contradictionMix);
    const { contradictions } = await ok(CONTRADICTIONS, {});
    expect(pairs(contradictions)).toEqual([
      'mix-claim-a>mix-claim-b DIRECT',
      'mix-replication>mix-result MIXED',
      'mix-review>mix-theory MIXED',
      'mix-weak>mix-claim-b DIRECT',
      'mix-old>mix-claim-c DIRECT resolved',
    ]);
    expect(contradictions[0]).toMatchObject({ strength: 0.9, edge: { type: 'CONTRADICTS', weight: 0.9 } });
  });

  it('reports a memory that both supports and contradicts a target as MIXED, with every edge', async () => {
    await seed(contradictionMix);
    const { contradictions } = await ok(CONTRADICTIONS, { kinds: ['MIXED'] });
    expect(contradictions).toEqual([
      {
        a: { key: 'mix-replication' },
        b: { key: 'mix-result' },
        kind: 'MIXED',
        strength: 0.6,
        resolved: false,
        edge: null,
        edges: [{ type: 'REPRODUCES' }, { type: 'FAILS_TO_REPRODUCE' }],
      },
      {
        a: { key: 'mix-review' },
        b: { key: 'mix-theory' },
        kind: 'MIXED',
        strength: 0.5,
        resolved: false,
        edge: { type: 'CONTRADICTS', weight: 0.5 },
        edges: [{ type: 'VALIDATES' }, { type: 'CONTRADICTS' }],
      },
    ]);
  });

  it('filters by minWeight and cuts to limit', async () => {
    await seed(contradictionMix);
    expect(pairs((await ok(CONTRADICTIONS, { minWeight: 0.55 })).contradictions)).toEqual([
      'mix-claim-a>mix-claim-b DIRECT',
      'mix-replication>mix-result MIXED',
      'mix-old>mix-claim-c DIRECT resolved',
    ]);
    expect(pairs((await ok(CONTRADICTIONS, { limit: 1 })).contradictions)).toEqual(['mix-claim-a>mix-claim-b DIRECT']);
  });

  it('marks a contradiction resolved once either side is superseded', async () => {
    await seed(contradictionMix);
    await ok(`mutation { n: createMemory(input: { key: "mix-claim-b2", title: "Claim B, revised" }) { id }
      link(input: { from: "mix-claim-b2", to: "mix-claim-b", type: "SUPERSEDES" }) { id } }`);
    const { contradictions } = await ok(CONTRADICTIONS, { kinds: ['DIRECT'] });
    expect(pairs(contradictions)).toEqual([
      'mix-old>mix-claim-c DIRECT resolved',
      'mix-claim-a>mix-claim-b DIRECT resolved',
      'mix-weak>mix-claim-b DIRECT resolved',
    ]);
  });

  it('rejects a limit outside 1..100', async () => {
    expectCode(await app.gql(CONTRADICTIONS, { limit: 0 }), 'BAD_USER_INPUT', /limit/);
  });

  it('costs one page read, one adjacency read and one degree read, plus one read of the contradicting memories', async () => {
    await seed(contradictionMix);
    expect(await callsOf(CONTRADICTIONS, {})).toEqual({
      listEdgesByType: 1,
      getAdjacent: 1,
      countAdjacent: 1,
      getMemories: 1,
    });
  });

  it('pages through many resolved contradictions to find the open ones', async () => {
    // 250 strong resolved contradictions (one page is 200 edges) and one weak open one.
    const memories = Array.from({ length: 252 }, (_, index) => ({
      name: `m${index}`,
      key: `bulk-${index}`,
      title: `Bulk ${index}`,
    }));
    const edges = [
      ...Array.from({ length: 250 }, (_, index) => ({
        from: `m${index}`,
        to: 'm250',
        type: 'CONTRADICTS',
        weight: 0.9,
      })),
      { from: 'm251', to: 'm0', type: 'CONTRADICTS', weight: 0.3 },
      { from: 'm251', to: 'm250', type: 'SUPERSEDES', weight: 0.9 },
    ];
    await seed({ name: 'bulk', memories, edges });
    const { contradictions } = await ok(CONTRADICTIONS, { limit: 2 });
    expect(pairs(contradictions)).toEqual(['bulk-251>bulk-0 DIRECT', 'bulk-0>bulk-250 DIRECT resolved']);
  });
});

// -------------------------------------------------------------------------------------------------
describe('Query.convergence', () => {
  const CONVERGENCE = `query($minSupport: Int, $limit: Int, $minWeight: Float) {
    convergence(minSupport: $minSupport, limit: $limit, minWeight: $minWeight) { memory { key } support weight validations { type from { key } } }
  }`;

  it('lists memories with at least two independent validations, best supported first', async () => {
    await seed(convergenceGraph);
    const { convergence } = await ok(CONVERGENCE, {});
    expect(convergence.map((entry: any) => [entry.memory.key, entry.support, entry.weight])).toEqual([
      ['conv-t1', 3, 1.8],
      ['conv-t2', 2, 1.6],
    ]);
    expect(convergence[0].validations).toEqual([
      { type: 'VALIDATES', from: { key: 'conv-s1' } },
      { type: 'REPRODUCES', from: { key: 'conv-s2' } },
      { type: 'REPLICATES', from: { key: 'conv-s1' } },
      { type: 'VALIDATES', from: { key: 'conv-s3' } },
    ]);
  });

  it('takes minSupport, minWeight and limit', async () => {
    await seed(convergenceGraph);
    expect((await ok(CONVERGENCE, { minSupport: 1 })).convergence.map((entry: any) => entry.memory.key)).toEqual([
      'conv-t1',
      'conv-t2',
      'conv-t3',
    ]);
    expect((await ok(CONVERGENCE, { minSupport: 3 })).convergence.map((entry: any) => entry.memory.key)).toEqual([
      'conv-t1',
    ]);
    expect(
      (await ok(CONVERGENCE, { minWeight: 0.5 })).convergence.map((entry: any) => [entry.memory.key, entry.support]),
    ).toEqual([
      ['conv-t2', 2],
      ['conv-t1', 2],
    ]);
    expect((await ok(CONVERGENCE, { limit: 1 })).convergence).toHaveLength(1);
  });

  it('rejects minSupport below 1', async () => {
    expectCode(await app.gql(CONVERGENCE, { minSupport: 0 }), 'BAD_USER_INPUT', /minSupport/);
  });

  it('costs one ranking read, one memory read and one adjacency read', async () => {
    await seed(convergenceGraph);
    expect(await callsOf(CONVERGENCE, { minSupport: 1 })).toEqual({
      rankTargetsBySources: 1,
      getMemories: 1,
      getAdjacent: 1,
    });
  });
});

// -------------------------------------------------------------------------------------------------
describe('Query.context', () => {
  const CONTEXT = `query($seeds: [ID!]!, $budget: Int, $types: [String!], $minWeight: Float) {
    context(seeds: $seeds, budget: $budget, types: $types, minWeight: $minWeight) {
      truncated
      memories { key }
      items { role score memory { key title } edges { id } }
      edges { type from { key } to { key } weight }
      contradictions { kind resolved a { key } b { key } edge { id } }
    }
  }`;
  const roles = (bundle: any) => bundle.items.map((item: any) => `${item.role} ${item.memory.key}`);

  it('bundles the seed, its newer versions and its neighbors, in that order', async () => {
    await seed(supersessionChain);
    const { context } = await ok(CONTEXT, { seeds: ['policy-v1'] });
    expect(roles(context)).toEqual([
      'SEED policy-v1',
      'NEWER_VERSION policy-v3',
      'NEWER_VERSION policy-v2',
      'NEIGHBOR policy-topic',
      'NEIGHBOR policy-dep',
    ]);
    expect(context.memories.map((memory: any) => memory.key)).toEqual(
      context.items.map((item: any) => item.memory.key),
    );
    expect(context.truncated).toBe(false);
    // The edges read while building: the seed's own edges and the SUPERSEDES chain (weight desc, then id).
    expect(context.edges.map((edge: any) => `${edge.from.key}-${edge.type}->${edge.to.key}`)).toEqual([
      'policy-v2-SUPERSEDES->policy-v1',
      'policy-v3-SUPERSEDES->policy-v2',
      'policy-topic-RELATED_TO->policy-v1',
      'policy-v1-USES_ASSUMPTION->policy-dep',
    ]);
  });

  it('brings in the other side of open contradictions touching a seed, not resolved ones', async () => {
    await seed(contradictionMix);
    const { context } = await ok(CONTEXT, { seeds: ['mix-claim-b', 'mix-claim-c'] });
    expect(roles(context)).toEqual([
      'SEED mix-claim-b',
      'SEED mix-claim-c',
      'CONTRADICTING mix-claim-a',
      'CONTRADICTING mix-weak',
      'NEIGHBOR mix-old',
    ]);
    expect(context.contradictions.map((c: any) => `${c.a.key}>${c.b.key}`)).toEqual([
      'mix-claim-a>mix-claim-b',
      'mix-weak>mix-claim-b',
    ]);
  });

  it('ranks neighbors by the summed weight of their edges to the seeds and cuts to the budget', async () => {
    await seed(convergenceGraph);
    const { context } = await ok(CONTEXT, { seeds: ['conv-t1', 'conv-t2'], budget: 3, types: ['validates'] });
    expect(roles(context)).toEqual(['SEED conv-t1', 'SEED conv-t2', 'NEIGHBOR conv-s1']);
    // s1 -VALIDATES-> t1 (0.9) and s1 -VALIDATES-> t2 (0.8); REPLICATES is not among the types asked.
    expect(context.items[2].score).toBeCloseTo(0.9 + 0.8, 12);
    expect(context.truncated).toBe(true);
    expect(context.edges.map((edge: any) => edge.from.key)).toEqual(['conv-s1', 'conv-s1']);
  });

  it('answers NOT_FOUND for a missing seed and BAD_USER_INPUT for no seeds or a bad budget', async () => {
    await seed(supersessionChain);
    expectCode(await app.gql(CONTEXT, { seeds: ['policy-v1', 'nope'] }), 'NOT_FOUND', /seeds: no memory "nope"/);
    expectCode(await app.gql(CONTEXT, { seeds: [] }), 'BAD_USER_INPUT', /seeds/);
    expectCode(await app.gql(CONTEXT, { seeds: ['policy-v1'], budget: 101 }), 'BAD_USER_INPUT', /budget/);
  });

  it('costs a fixed handful of batched store calls for 10 seeds', async () => {
    await seed(hypothesisEvidence);
    await seed(supersessionChain);
    await seed(contradictionMix);
    const seeds = [
      'hyp',
      'hyp-e1',
      'hyp-e4',
      'policy-v1',
      'policy-topic',
      'mix-claim-a',
      'mix-claim-b',
      'mix-old',
      'mix-replication',
      'mix-review',
    ];
    const calls = await callsOf(CONTEXT, { seeds, budget: 100 });
    // getMemories: the seeds. getAdjacent: neighbors, SUPERSEDES + judging edges, then one per further
    // level of the longest SUPERSEDES chain (policy-v1 <- v2 <- v3: two). countAdjacent: which
    // contradiction ends are superseded. Everything the response shows was primed by those reads.
    expect(calls).toEqual({ getMemories: 1, getAdjacent: 4, countAdjacent: 1 });
    const { context } = await ok(CONTEXT, { seeds, budget: 100 });
    expect(context.items.filter((item: any) => item.role === 'SEED')).toHaveLength(10);
    expect(roles(context)).toContain('NEWER_VERSION policy-v3');
    expect(roles(context)).toContain('NEWER_VERSION mix-new');
  });

  it('does not grow with the number of seeds', async () => {
    await seed(hypothesisEvidence);
    await seed(supersessionChain);
    await seed(contradictionMix);
    const few = await callsOf(CONTEXT, { seeds: ['policy-v1', 'mix-claim-b'] });
    const many = await callsOf(CONTEXT, {
      seeds: [
        'policy-v1',
        'mix-claim-b',
        'hyp',
        'hyp-e1',
        'hyp-e2',
        'hyp-e3',
        'hyp-e4',
        'mix-claim-a',
        'mix-review',
        'mix-theory',
        'mix-result',
        'policy-dep',
      ],
    });
    expect(many).toEqual(few);
  });
});

// -------------------------------------------------------------------------------------------------
describe('Query.oscillatingEdges', () => {
  const OSCILLATING = `query($minFlips: Int, $limit: Int, $window: Int) {
    oscillatingEdges(minFlips: $minFlips, limit: $limit, window: $window) { id from { key } to { key } history(limit: 10) { delta } }
  }`;

  it('finds the edge whose weight feedback pulled both ways repeatedly', async () => {
    const g = await seed(oscillatingEdge);
    await applyDeltas(app.store, 'default', g.edge('a', 'b').id, OSCILLATION);
    await applyDeltas(app.store, 'default', g.edge('b', 'c').id, WOBBLE);
    await applyDeltas(app.store, 'default', g.edge('c', 'd').id, STEADY);
    const { oscillatingEdges } = await ok(OSCILLATING, {});
    expect(oscillatingEdges.map((edge: any) => `${edge.from.key}>${edge.to.key}`)).toEqual(['osc-a>osc-b']);
    expect(oscillatingEdges[0].history.map((event: any) => Math.sign(event.delta))).toEqual([1, -1, 1, -1, 1]);
    const wobbly = await ok(OSCILLATING, { minFlips: 1 });
    expect(wobbly.oscillatingEdges.map((edge: any) => edge.id)).toEqual([g.edge('a', 'b').id, g.edge('b', 'c').id]);
  });

  it('counts flips made through the API, across tiers', async () => {
    await seed(oscillatingEdge);
    const nudge = (verb: 'weaken' | 'strengthen', source: string) =>
      ok(
        `mutation { ${verb}(from: "osc-c", to: "osc-d", type: "RELATED_TO", amount: 0.05, source: ${source}) { newWeight } }`,
      );
    await nudge('strengthen', 'AGENT');
    await nudge('weaken', 'CONSCIOUS');
    await nudge('strengthen', 'CONSCIOUS');
    await nudge('weaken', 'MANUAL');
    const { oscillatingEdges } = await ok(OSCILLATING, {});
    expect(oscillatingEdges.map((edge: any) => `${edge.from.key}>${edge.to.key}`)).toEqual(['osc-c>osc-d']);
  });

  it('looks only at the newest `window` events', async () => {
    const g = await seed(oscillatingEdge);
    await applyDeltas(app.store, 'default', g.edge('a', 'b').id, OSCILLATION);
    await applyDeltas(app.store, 'default', g.edge('c', 'd').id, STEADY);
    expect((await ok(OSCILLATING, { window: 3 })).oscillatingEdges).toEqual([]);
    expect((await ok(OSCILLATING, { window: 8 })).oscillatingEdges).toHaveLength(1);
  });

  it('costs one event read and one edge read', async () => {
    const g = await seed(oscillatingEdge);
    await applyDeltas(app.store, 'default', g.edge('a', 'b').id, OSCILLATION);
    expect(await callsOf(`{ oscillatingEdges { id weight } }`)).toEqual({ listWeightEvents: 1, getEdges: 1 });
  });

  it('rejects minFlips below 1 and a window above 10000', async () => {
    expectCode(await app.gql(OSCILLATING, { minFlips: 0 }), 'BAD_USER_INPUT', /minFlips/);
    expectCode(await app.gql(OSCILLATING, { window: 10_001 }), 'BAD_USER_INPUT', /window/);
  });
});

// -------------------------------------------------------------------------------------------------
describe('Mutation.reinforceCoRetrieval', () => {
  const REINFORCE = `mutation($ids: [ID!]!, $reason: String, $source: AdjustmentSource) {
    reinforceCoRetrieval(ids: $ids, reason: $reason, source: $source) {
      previousWeight newWeight edge { from { key } to { key } } event { source reason delta }
    }
  }`;

  it('strengthens every existing edge among the memories by the AGENT step, one WeightEvent each', async () => {
    const g = await seed(hypothesisEvidence);
    const { reinforceCoRetrieval } = await ok(REINFORCE, {
      ids: ['hyp', 'hyp-e1', 'hyp-e2', 'hyp-e4'],
      reason: 'answered the latency question',
    });
    expect(reinforceCoRetrieval).toHaveLength(3);
    for (const change of reinforceCoRetrieval) {
      expect(change.newWeight - change.previousWeight).toBeCloseTo(AGENT_STEP, 12);
      expect(change.event).toMatchObject({ source: 'AGENT', reason: 'answered the latency question' });
    }
    const weights = await app.store.getEdges('default', [g.edge('e1', 'h').id, g.edge('e3', 'h').id]);
    expect(weights.map((edge) => edge?.weight)).toEqual([0.9 + AGENT_STEP, 0.6]);
  });

  it('never creates edges: memories with no edge among them change nothing', async () => {
    await seed(hypothesisEvidence);
    const before = await app.store.listEdges('default', { afterId: null, limit: 100 });
    const { reinforceCoRetrieval } = await ok(REINFORCE, { ids: ['hyp-e1', 'hyp-e2', 'hyp-e3'] });
    expect(reinforceCoRetrieval).toEqual([]);
    expect(await app.store.listEdges('default', { afterId: null, limit: 100 })).toEqual(before);
    expect(
      await app.store.listWeightEvents('default', { edgeId: null, memoryId: null, source: 'AGENT', limit: 10 }),
    ).toEqual([]);
  });

  it('commits all changes in one applyWeightChanges transaction', async () => {
    await seed(contradictionMix);
    const ids = ['mix-review', 'mix-theory', 'mix-replication', 'mix-result', 'mix-claim-a', 'mix-claim-b'];
    const calls = await callsOf(`mutation($ids: [ID!]!) { reinforceCoRetrieval(ids: $ids) { newWeight } }`, { ids });
    expect(calls).toEqual({ getMemories: 1, edgesAmong: 1, applyWeightChanges: 1 });
    const events = await app.store.listWeightEvents('default', {
      edgeId: null,
      memoryId: null,
      source: 'AGENT',
      limit: 10,
    });
    expect(events).toHaveLength(5);
  });

  it('uses the step of the given source tier', async () => {
    await seed(hypothesisEvidence);
    const { reinforceCoRetrieval } = await ok(REINFORCE, { ids: ['hyp', 'hyp-e3'], source: 'CONSCIOUS' });
    expect(reinforceCoRetrieval[0].newWeight).toBeCloseTo(0.6 + DEFAULT_WEIGHT_POLICY.tierDelta.CONSCIOUS, 12);
  });

  it('answers NOT_FOUND for an unknown memory and writes nothing', async () => {
    await seed(hypothesisEvidence);
    expectCode(
      await app.gql(REINFORCE, { ids: ['hyp', 'hyp-e1', 'missing'] }),
      'NOT_FOUND',
      /ids: no memory "missing"/,
    );
    expect(
      await app.store.listWeightEvents('default', { edgeId: null, memoryId: null, source: 'AGENT', limit: 10 }),
    ).toEqual([]);
  });

  it('takes the ids of a context bundle as its input', async () => {
    await seed(supersessionChain);
    const { context } = await ok(`{ context(seeds: ["policy-topic"], budget: 3) { memories { id } } }`);
    const { reinforceCoRetrieval } = await ok(REINFORCE, { ids: context.memories.map((memory: any) => memory.id) });
    expect(reinforceCoRetrieval.map((change: any) => `${change.edge.from.key}>${change.edge.to.key}`).sort()).toEqual([
      'policy-topic>policy-v1',
      'policy-topic>policy-v3',
    ]);
  });
});

// -------------------------------------------------------------------------------------------------
describe('MCP operations (schema/operations)', () => {
  const OPERATIONS = ['memory-evidence', 'memory-contradictions', 'memory-context', 'memory-reinforce'];
  const read = (name: string) =>
    readFileSync(new URL(`../../schema/operations/${name}.graphql`, import.meta.url), 'utf8');

  /** The operation plus the shared fragments it spreads (fragments.graphql), as one document. */
  function documentOf(name: string): string {
    const fragments = new Map(
      read('fragments')
        .split(/(?=^fragment )/m)
        .filter((block) => block.startsWith('fragment '))
        .map((block) => [/^fragment (\w+)/.exec(block)?.[1] as string, block]),
    );
    const used = new Set<string>();
    const pending = [read(name)];
    while (pending.length > 0) {
      for (const [, spread] of (pending.pop() as string).matchAll(/\.\.\.(\w+)/g)) {
        if (spread && !used.has(spread) && fragments.has(spread)) {
          used.add(spread);
          pending.push(fragments.get(spread) as string);
        }
      }
    }
    return [read(name), ...[...used].map((fragment) => fragments.get(fragment))].join('\n');
  }

  it.each(OPERATIONS)('%s is valid against the schema', (name) => {
    expect(validate(schema, parse(documentOf(name))).map((error) => error.message)).toEqual([]);
  });

  it('runs each operation against a research graph', async () => {
    await seed(hypothesisEvidence);
    await seed(contradictionMix);
    const evidence = await ok(documentOf('memory-evidence'), { id: 'hyp' });
    expect(evidence.memory.evidence.supporting).toHaveLength(3);
    const contradictions = await ok(documentOf('memory-contradictions'), { limit: 2 });
    expect(contradictions.contradictions).toHaveLength(2);
    const context = await ok(documentOf('memory-context'), { seeds: ['hyp'], budget: 5 });
    expect(context.context.items[0]).toMatchObject({ role: 'SEED', memory: { key: 'hyp' } });
    const reinforce = await ok(documentOf('memory-reinforce'), {
      ids: context.context.items.map((item: any) => item.memory.id),
    });
    expect(reinforce.reinforceCoRetrieval).toHaveLength(4);
  });
});
