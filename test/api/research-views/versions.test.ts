import { describe, expect, it } from 'vitest';
import { supersessionChain } from '../../fixtures/research-graphs.js';
import { useResearchApp } from './support.js';

const { seed, ok, callsOf } = useResearchApp();

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
