import { describe, expect, it } from 'vitest';
import { contradictionMix } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

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
    expectCode(await api().gql(CONTRADICTIONS, { limit: 0 }), 'BAD_USER_INPUT', /limit/);
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
