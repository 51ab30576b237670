import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHT_POLICY } from '../../../src/domain/weights.js';
import { contradictionMix, hypothesisEvidence, supersessionChain } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const AGENT_STEP = DEFAULT_WEIGHT_POLICY.tierDelta.AGENT;

const { api, seed, ok, callsOf } = useResearchApp();

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
    const weights = await api().store.getEdges('default', [g.edge('e1', 'h').id, g.edge('e3', 'h').id]);
    expect(weights.map((edge) => edge?.weight)).toEqual([0.9 + AGENT_STEP, 0.6]);
  });

  it('never creates edges: memories with no edge among them change nothing', async () => {
    await seed(hypothesisEvidence);
    const before = await api().store.listEdges('default', { afterId: null, limit: 100 });
    const { reinforceCoRetrieval } = await ok(REINFORCE, { ids: ['hyp-e1', 'hyp-e2', 'hyp-e3'] });
    expect(reinforceCoRetrieval).toEqual([]);
    expect(await api().store.listEdges('default', { afterId: null, limit: 100 })).toEqual(before);
    expect(
      await api().store.listWeightEvents('default', { edgeId: null, memoryId: null, source: 'AGENT', limit: 10 }),
    ).toEqual([]);
  });

  it('commits all changes in one applyWeightChanges transaction', async () => {
    await seed(contradictionMix);
    const ids = ['mix-review', 'mix-theory', 'mix-replication', 'mix-result', 'mix-claim-a', 'mix-claim-b'];
    const calls = await callsOf(`mutation($ids: [ID!]!) { reinforceCoRetrieval(ids: $ids) { newWeight } }`, { ids });
    expect(calls).toEqual({ getMemories: 1, edgesAmong: 1, applyWeightChanges: 1 });
    const events = await api().store.listWeightEvents('default', {
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
      await api().gql(REINFORCE, { ids: ['hyp', 'hyp-e1', 'missing'] }),
      'NOT_FOUND',
      /ids: no memory "missing"/,
    );
    expect(
      await api().store.listWeightEvents('default', { edgeId: null, memoryId: null, source: 'AGENT', limit: 10 }),
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
