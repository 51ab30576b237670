import { describe, expect, it } from 'vitest';
import { applyDeltas, OSCILLATION, oscillatingEdge, STEADY, WOBBLE } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

describe('Query.oscillatingEdges', () => {
  const OSCILLATING = `query($minFlips: Int, $limit: Int, $window: Int) {
    oscillatingEdges(minFlips: $minFlips, limit: $limit, window: $window) { id from { key } to { key } history(limit: 10) { delta } }
  }`;

  it('finds the edge whose weight feedback pulled both ways repeatedly', async () => {
    const g = await seed(oscillatingEdge);
    await applyDeltas(api().store, 'default', g.edge('a', 'b').id, OSCILLATION);
    await applyDeltas(api().store, 'default', g.edge('b', 'c').id, WOBBLE);
    await applyDeltas(api().store, 'default', g.edge('c', 'd').id, STEADY);
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
    await applyDeltas(api().store, 'default', g.edge('a', 'b').id, OSCILLATION);
    await applyDeltas(api().store, 'default', g.edge('c', 'd').id, STEADY);
    expect((await ok(OSCILLATING, { window: 3 })).oscillatingEdges).toEqual([]);
    expect((await ok(OSCILLATING, { window: 8 })).oscillatingEdges).toHaveLength(1);
  });

  it('costs one event read and one edge read', async () => {
    const g = await seed(oscillatingEdge);
    await applyDeltas(api().store, 'default', g.edge('a', 'b').id, OSCILLATION);
    expect(await callsOf(`{ oscillatingEdges { id weight } }`)).toEqual({ listWeightEvents: 1, getEdges: 1 });
  });

  it('rejects minFlips below 1 and a window above 10000', async () => {
    expectCode(await api().gql(OSCILLATING, { minFlips: 0 }), 'BAD_USER_INPUT', /minFlips/);
    expectCode(await api().gql(OSCILLATING, { window: 10_001 }), 'BAD_USER_INPUT', /window/);
  });
});
