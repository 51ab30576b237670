import { describe, expect, it } from 'vitest';
import { LEAST_CARRIED, SPREAD_FLOOR } from '../../../src/services/recall/activation.js';
import type { GraphFixture } from '../../fixtures/graphs.js';
import { seed, useCountingApp, useTestApp } from '../support.js';
import { keysOf, recallGraph, recallOf, resultOf } from './support.js';

/** A hub the query finds, with 40 spokes; each spoke leads on to one more memory. */
const hub: GraphFixture = {
  name: 'recall-hub',
  memories: [
    { name: 'hub', key: 'hub', title: 'Saturated worker hub' },
    ...Array.from({ length: 40 }, (_, n) => ({ name: `s${n}`, key: `spoke-${n}`, title: `Spoke ${n}` })),
    ...Array.from({ length: 40 }, (_, n) => ({ name: `t${n}`, key: `tip-${n}`, title: `Tip ${n}` })),
  ],
  edges: [
    ...Array.from({ length: 40 }, (_, n) => ({ from: 'hub', to: `s${n}`, type: 'RELATES_TO', weight: 0.5 })),
    ...Array.from({ length: 40 }, (_, n) => ({ from: `s${n}`, to: `t${n}`, type: 'RELATES_TO', weight: 0.5 })),
  ],
};

describe('recall: the edge budget', () => {
  const small = useTestApp({ env: { ENGRAM_RECALL_BUDGET: '10' } });
  const roomy = useTestApp();

  it('a hub stops the spreading at ENGRAM_RECALL_BUDGET edges and says so (truncated)', async () => {
    await seed(small(), hub);
    const recall = await recallOf(small(), 'query: "saturated worker", limit: 100');
    expect(recall.truncated).toBe(true);
    // The seed plus at most the 10 spokes the budget let it examine; no tip was reached.
    expect(recall.results.length).toBeLessThanOrEqual(11);
    expect(keysOf(recall).some((key) => key.startsWith('tip-'))).toBe(false);
  });

  it('is not truncated when the budget suffices', async () => {
    await seed(roomy(), hub);
    const recall = await recallOf(roomy(), 'query: "saturated worker", limit: 100');
    expect(recall.truncated).toBe(false);
    expect(recall.results).toHaveLength(81);
  });
});

describe('recall: store calls', () => {
  const { api, calls, reset } = useCountingApp();

  it('expands the whole frontier in one store call per hop, whatever its size', async () => {
    await seed(api(), hub);
    reset();
    await recallOf(api(), 'query: "saturated worker", maxDepth: 2, limit: 100');
    // Hop 1 from the hub, hop 2 from the 40 spokes.
    expect(calls().get('expandFrontier')).toBe(2);
    expect(calls().get('searchMemories')).toBe(1);
    expect(calls().get('saveRecall')).toBe(1);
  });

  it('does not expand memories reached with less than SPREAD_FLOOR', async () => {
    await seed(api(), hub);
    reset();
    const recall = await recallOf(api(), 'query: "saturated worker", maxDepth: 3, limit: 100');
    // The hub (1) passes 1 x 0.5 x 0.5 / 20 = 0.0125 to each spoke, which spreads; a spoke passes
    // 0.0125 x 0.5 x 0.5 / 1 = 0.003125 to its tip, under the floor: no third hop is asked for.
    expect(SPREAD_FLOOR).toBeGreaterThan(0.003125);
    expect(SPREAD_FLOOR).toBeLessThanOrEqual(0.0125);
    expect(calls().get('expandFrontier')).toBe(2);
    expect(resultOf(recall, 'tip-0').graph).toBeCloseTo(0.003125, 6);
    expect(recall.results).toHaveLength(81);
  });

  it('passes nothing along an edge that would carry less than LEAST_CARRIED', async () => {
    // Spoke 0 (0.0125; edges to the hub and its tip, 0.5 each) gets 70 more of weight 1: each
    // would carry 0.0125 x 0.5 x 1 / 71, under the floor, and its tip 0.0125 x 0.5 x 0.5 / 71.
    // Spoke 1 gets one: 0.0125 x 0.5 x 1 / 2, over it.
    const crowded: GraphFixture = {
      ...hub,
      name: 'recall-hub-crowded-spoke',
      memories: [
        ...hub.memories,
        ...Array.from({ length: 70 }, (_, n) => ({ name: `c${n}`, key: `crowd-${n}`, title: `Crowd ${n}` })),
        { name: 'lone', key: 'lone', title: 'Lone neighbour' },
      ],
      edges: [
        ...hub.edges,
        ...Array.from({ length: 70 }, (_, n) => ({ from: 's0', to: `c${n}`, type: 'RELATES_TO', weight: 1 })),
        { from: 's1', to: 'lone', type: 'RELATES_TO', weight: 1 },
      ],
    };
    expect((0.0125 * 0.5) / 71).toBeLessThan(LEAST_CARRIED);
    await seed(api(), crowded);
    const recall = await recallOf(api(), 'query: "saturated worker", maxDepth: 2, limit: 100');
    expect(keysOf(recall).filter((key) => key.startsWith('crowd-') || key === 'tip-0')).toEqual([]);
    expect(resultOf(recall, 'lone').graph).toBeCloseTo((0.0125 * 0.5) / 2, 6);
    expect(resultOf(recall, 'tip-1').graph).toBeCloseTo((0.0125 * 0.5 * 0.5) / 2, 6);
  });
});

/** new -SUPERSEDES-> old; the hit links to both. */
const versions: GraphFixture = {
  name: 'recall-versions',
  memories: [
    { name: 'hit', key: 'v-hit', title: 'Retry storm runbook' },
    { name: 'old', key: 'v-old', title: 'Backoff of one second' },
    { name: 'new', key: 'v-new', title: 'Backoff with jitter' },
    { name: 'beyond', key: 'v-beyond', title: 'Reached only through the old version' },
  ],
  edges: [
    { from: 'hit', to: 'old', type: 'RELATES_TO', weight: 0.8 },
    { from: 'hit', to: 'new', type: 'RELATES_TO', weight: 0.6 },
    { from: 'new', to: 'old', type: 'SUPERSEDES', weight: 0.9 },
    { from: 'old', to: 'beyond', type: 'RELATES_TO', weight: 0.9 },
  ],
};

describe('recall: currentOnly and access', () => {
  const api = useTestApp({
    env: { ENGRAM_API_KEYS: 'reader-key-0123456789abcdef=default:read,writer-key-0123456789abcdef=default:write' },
  });
  const reader = { headers: { authorization: 'Bearer reader-key-0123456789abcdef' } };

  it('currentOnly leaves out superseded memories and does not spread through them', async () => {
    await seed(api(), versions);
    const all = await recallOf(api(), 'query: "retry storm"', reader);
    expect(keysOf(all)).toContain('v-old');
    const current = await recallOf(api(), 'query: "retry storm", currentOnly: true', reader);
    expect(keysOf(current)).toEqual(['v-hit', 'v-new']);
    // A superseded memory named in seeds stays, and spreads (to v-new and v-beyond at 0.45 each, v-hit at 0.4).
    const named = await recallOf(api(), 'seeds: ["v-old"], currentOnly: true, maxDepth: 1', reader);
    expect(keysOf(named)[0]).toBe('v-old');
    expect(keysOf(named).slice(1).sort()).toEqual(['v-beyond', 'v-hit', 'v-new']);
  });

  it('a read key may recall and read records (its record is stored), but not give feedback', async () => {
    await seed(api(), recallGraph);
    const recall = await recallOf(api(), 'query: "warmup spikes"', reader);
    expect(recall.id).toEqual(expect.any(String));
    const record = await api().gql(`{ recallRecord(id: "${recall.id}") { id } }`, undefined, reader);
    expect(record.data?.recallRecord).toEqual({ id: recall.id });
    const feedback = await api().gql(
      `mutation { feedback(recallId: "${recall.id}", memoryId: "recall-mid", signal: USED) { newWeight } }`,
      undefined,
      reader,
    );
    expect(feedback.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(resultOf(recall, 'recall-mid').seed).toBe(false);
  });
});
