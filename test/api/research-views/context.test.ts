import { describe, expect, it } from 'vitest';
import {
  contradictionMix,
  convergenceGraph,
  hypothesisEvidence,
  supersessionChain,
} from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

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
    expectCode(await api().gql(CONTEXT, { seeds: ['policy-v1', 'nope'] }), 'NOT_FOUND', /seeds: no memory "nope"/);
    expectCode(await api().gql(CONTEXT, { seeds: [] }), 'BAD_USER_INPUT', /seeds/);
    expectCode(await api().gql(CONTEXT, { seeds: ['policy-v1'], budget: 101 }), 'BAD_USER_INPUT', /budget/);
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
