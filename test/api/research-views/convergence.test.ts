import { describe, expect, it } from 'vitest';
import { convergenceGraph } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

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
    expectCode(await api().gql(CONVERGENCE, { minSupport: 0 }), 'BAD_USER_INPUT', /minSupport/);
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
