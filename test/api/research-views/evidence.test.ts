import { describe, expect, it } from 'vitest';
import { evidenceChains, hypothesisEvidence, supersessionChain } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

const EVIDENCE = `query($id: ID!, $minWeight: Float, $maxDepth: Int) {
  memory(id: $id) {
    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {
      score
      supporting { memory { key } relation weight via { type from { key } to { key } } }
      contradicting { memory { key } relation weight via { type from { key } to { key } } }
    }
  }
}`;

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
    expectCode(await api().gql(EVIDENCE, { id: 'hyp', maxDepth: 6 }), 'BAD_USER_INPUT', /maxDepth/);
    expectCode(await api().gql(EVIDENCE, { id: 'hyp', minWeight: 1.5 }), 'BAD_USER_INPUT', /minWeight/);
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
