import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { expectRejectedWithoutWrites, seed } from '../support.js';
import { CHANGE_FIELDS, useWeightApp } from './support.js';

const { api, change } = useWeightApp();

describe('strengthen', () => {
  it('raises the weight by the CONSCIOUS step 0.01 by default', async () => {
    await seed(api(), chain);
    const { strengthen } = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { previousWeight newWeight event { source delta } } }',
    );
    expect(strengthen).toEqual({ previousWeight: 0.5, newWeight: 0.51, event: { source: 'CONSCIOUS', delta: 0.01 } });
  });

  it('uses the AGENT step 0.00001 and the MANUAL step 0.1 for those sources', async () => {
    await seed(api(), chain);
    const agent = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", source: AGENT) { newWeight event { source delta } } }',
    );
    expect(agent.strengthen).toEqual({ newWeight: 0.50001, event: { source: 'AGENT', delta: 0.00001 } });
    const manual = await change(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", source: MANUAL) { newWeight event { source } } }',
    );
    expect(manual.strengthen).toEqual({ newWeight: 0.7, event: { source: 'MANUAL' } });
  });

  it('uses an explicit amount whatever the source, and clamps at 1', async () => {
    await seed(api(), chain);
    const explicit = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 0.25, source: AGENT) { newWeight } }',
    );
    expect(explicit.strengthen.newWeight).toBe(0.75);
    const clamped = await change(
      'mutation { strengthen(from: "chain-d", to: "chain-e", type: "CAUSED_BY", amount: 0.5) { previousWeight newWeight event { delta } } }',
    );
    expect(clamped.strengthen).toEqual({ previousWeight: 0.8, newWeight: 1, event: { delta: 0.2 } });
  });

  it('fails with NOT_FOUND on a missing edge and never creates it', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { strengthen(from: "chain-b", to: "chain-a", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      /use link to create it/,
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CITES") { newWeight } }' },
      'NOT_FOUND',
    );
  });
});

describe('setEdgeWeight', () => {
  it('sets the weight directly as a MANUAL event', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('c', 'd').id;
    const { setEdgeWeight } = await change(
      `mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.42, reason: "curated") { ${CHANGE_FIELDS} } }`,
      { id },
    );
    expect(setEdgeWeight).toMatchObject({
      previousWeight: 0.7,
      newWeight: 0.42,
      pruned: false,
      edge: { id, weight: 0.42 },
      event: { source: 'MANUAL', old: 0.7, new: 0.42, delta: -0.28, reason: 'curated' },
    });
  });

  it('accepts the bounds 0 and 1, pruning at 0', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('c', 'd').id;
    expect(
      (await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0) { newWeight pruned } }', { id }))
        .setEdgeWeight,
    ).toEqual({ newWeight: 0, pruned: true });
    expect(
      (await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 1) { newWeight pruned } }', { id }))
        .setEdgeWeight,
    ).toEqual({ newWeight: 1, pruned: false });
  });

  it('fails with NOT_FOUND on a missing edge, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { setEdgeWeight(id: "no-such-edge", weight: 0.5) { newWeight } }' },
      'NOT_FOUND',
      /no-such-edge/,
    );
  });
});
