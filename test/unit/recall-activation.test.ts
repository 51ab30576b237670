import { describe, expect, it } from 'vitest';
import type { FrontierStep } from '../../src/domain/types.js';
import {
  GRAPH_SHARE,
  lexicalScore,
  pathTo,
  rankRecall,
  type SeedSignals,
  seedActivation,
  spreadHop,
  startActivation,
  vectorLeads,
} from '../../src/services/recall/activation.js';

const step = (from: string, to: string, weight: number, edgeId = `${from}-${to}`): FrontierStep => ({
  from,
  to,
  weight,
  edgeId,
});

const lexicalSeed = (lexical: number): SeedSignals => ({ lexical, vector: null, vectorRank: null, named: false });

describe('spreading activation', () => {
  it('multiplies by weight and decay each hop and keeps the carrying path', () => {
    const state = startActivation(new Map([['a', 1]]));
    expect(spreadHop(state, [step('a', 'b', 0.9)], 0.5)).toEqual(['b']);
    expect(spreadHop(state, [step('b', 'c', 0.8), step('b', 'a', 0.9)], 0.5)).toEqual(['c']);
    expect(state.activation.get('b')).toBeCloseTo(0.45, 12);
    // b's edges weigh 1.7 together (the one back to a counts, though a receives nothing): 0.45 x 0.8 x 0.5 / 1.7.
    expect(state.activation.get('c')).toBeCloseTo(0.18 / 1.7, 12);
    expect(state.activation.get('a')).toBe(1);
    expect(pathTo(state, 'c')).toEqual(['a-b', 'b-c']);
    expect(pathTo(state, 'a')).toEqual([]);
  });

  it('sums what several memories of the layer pass to one memory; the largest carrier is its path', () => {
    const state = startActivation(new Map([['s', 1]]));
    spreadHop(state, [step('s', 'l', 0.6), step('s', 'r', 0.4)], 0.5);
    spreadHop(state, [step('l', 'j', 0.5), step('r', 'j', 0.5)], 0.5);
    expect(state.activation.get('j')).toBeCloseTo(0.125, 12);
    expect(pathTo(state, 'j')).toEqual(['s-l', 'l-j']);
  });

  it('breaks a tie between carriers by the smaller edge id, whatever the order of the steps', () => {
    const steps = [step('s', 'x', 0.5, 'e2'), step('s', 'x', 0.5, 'e1')];
    for (const order of [steps, [...steps].reverse()]) {
      const state = startActivation(new Map([['s', 1]]));
      spreadHop(state, order, 1);
      expect(pathTo(state, 'x')).toEqual(['e1']);
      expect(state.activation.get('x')).toBe(1);
    }
  });

  it('never flows back into a seed or an earlier layer, and skips excluded memories', () => {
    const state = startActivation(
      new Map([
        ['a', 1],
        ['b', 0.5],
      ]),
    );
    spreadHop(state, [step('a', 'b', 1), step('a', 'c', 1), step('a', 'gone', 1)], 1, new Set(['gone']));
    expect(state.activation.get('b')).toBe(0.5);
    expect(state.activation.has('gone')).toBe(false);
    expect(state.frontier).toEqual(['c']);
    spreadHop(state, [step('c', 'a', 1), step('a', 'd', 1)], 1);
    expect(state.activation.get('a')).toBe(1);
    // `a` is not in the frontier any more: its step is ignored.
    expect(state.activation.has('d')).toBe(false);
  });
});

describe('scores', () => {
  it('lexical score is the reciprocal rank', () => {
    expect([0, 1, 2, 3].map(lexicalScore)).toEqual([1, 1 / 2, 1 / 3, 1 / 4]);
  });

  it('a seed starts at 1 when named, else its lexical score, or the mean of its reciprocal ranks in both lists when vectors ran', () => {
    expect(seedActivation({ lexical: 0.5, vector: null, vectorRank: null, named: true }, true)).toBe(1);
    expect(seedActivation(lexicalSeed(0.5), false)).toBe(0.5);
    // The cosine (0.9) is shown, the rank (2nd: 1/2) is blended.
    expect(seedActivation({ lexical: 0.5, vector: 0.9, vectorRank: 0.5, named: false }, true)).toBeCloseTo(0.5, 12);
    expect(seedActivation({ lexical: null, vector: 0.8, vectorRank: 1, named: false }, true)).toBeCloseTo(0.5, 12);
    // A weak vector match ranked 10th (cosine 0.4) no longer outweighs the 3rd word match.
    expect(seedActivation({ lexical: null, vector: 0.4, vectorRank: 0.1, named: false }, true)).toBeLessThan(
      seedActivation({ lexical: 1 / 3, vector: null, vectorRank: null, named: false }, true),
    );
  });

  it('a best vector match that leads the others by a standard deviation starts at 1', () => {
    // Ten similarities: mean 0.64, standard deviation 0.11; the first leads the second by 0.25.
    const leading = [0.95, 0.7, 0.62, 0.61, 0.6, 0.59, 0.58, 0.57, 0.56, 0.62];
    expect(vectorLeads([...leading].sort((a, b) => b - a))).toBe(true);
    // The first only 0.02 ahead, with a deviation of 0.05: no lead.
    expect(vectorLeads([0.72, 0.7, 0.62, 0.62, 0.61, 0.6, 0.59, 0.58, 0.57, 0.56])).toBe(false);
    // Only the first VECTOR_LEAD_SAMPLE (10) count (deviation 0.006): an 11th far below would widen it.
    expect(vectorLeads([0.72, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.01])).toBe(true);
    // Too few to tell, or all equal.
    expect(vectorLeads([0.9, 0.1])).toBe(false);
    expect(vectorLeads([0.5, 0.5, 0.5])).toBe(false);
    const lead: SeedSignals = { lexical: null, vector: 0.95, vectorRank: 1, vectorLead: true, named: false };
    expect(seedActivation(lead, true)).toBe(1);
    // Above the first word match that the vectors ranked second: (1 + 1/2) / 2.
    expect(seedActivation({ lexical: 1, vector: 0.7, vectorRank: 0.5, named: false }, true)).toBe(0.75);
    // Without vectors the lead means nothing (it cannot be set then; the blend ignores it).
    expect(seedActivation({ ...lead, lexical: 0.5 }, false)).toBe(0.5);
  });

  it('splits what a memory passes over its edges once their weights add up to more than 1', () => {
    const state = startActivation(new Map([['hub', 1]]));
    const spokes = ['p', 'q', 'r', 's'].map((to) => step('hub', to, 0.5));
    spreadHop(state, spokes, 0.5);
    // Four edges of 0.5 weigh 2: each passes 1 x 0.5 x 0.5 / 2, a quarter of the hub's 0.5 each.
    for (const id of ['p', 'q', 'r', 's']) expect(state.activation.get(id)).toBeCloseTo(0.125, 12);
    const quiet = startActivation(new Map([['one', 1]]));
    spreadHop(quiet, [step('one', 'p', 0.5)], 0.5);
    expect(quiet.activation.get('p')).toBeCloseTo(0.25, 12);
  });

  it('lets seeds support each other in the first hop only', () => {
    const state = startActivation(
      new Map([
        ['s1', 1],
        ['s2', 0.5],
      ]),
    );
    expect(spreadHop(state, [step('s1', 's2', 0.5), step('s2', 'x', 0.5)], 0.5)).toEqual(['x']);
    expect(state.seedSupport.get('s2')).toBeCloseTo(0.25, 12);
    expect(state.seedSupport.has('s1')).toBe(false);
    expect(state.activation.get('s2')).toBe(0.5);
    spreadHop(state, [step('x', 's1', 1), step('x', 'y', 1)], 0.5);
    expect(state.seedSupport.has('s1')).toBe(false);
    // x got 0.5 x 0.5 x 0.5 = 0.125 and its two edges weigh 2: y gets 0.125 x 1 x 0.5 / 2.
    expect(state.activation.get('y')).toBeCloseTo(0.03125, 12);
  });

  it('ranks by own activation plus GRAPH_SHARE x graph (capped at 1), ties by id, and keeps limit', () => {
    const seeds = new Map([
      ['s1', lexicalSeed(1)],
      ['s2', lexicalSeed(0.5)],
    ]);
    const state = startActivation(new Map([...seeds].map(([id, signals]) => [id, seedActivation(signals, false)])));
    spreadHop(
      state,
      [step('s1', 'x', 1), step('s2', 'x', 1), step('s1', 'y', 0.5), step('s1', 'z', 0.5), step('s2', 's1', 1)],
      1,
    );
    // s1's edges weigh 2 and s2's 2: x gets 1/2 + 0.5/2 = 0.75, y and z 0.25 each, s1 0.25 from s2.
    const ranked = rankRecall(state, seeds, false, 10);
    expect(ranked.map((result) => result.memoryId)).toEqual(['s1', 's2', 'x', 'y', 'z']);
    expect(ranked[0]).toMatchObject({ graph: 0.25, lexical: 1, seed: true, path: [] });
    expect(ranked[0]?.score).toBeCloseTo(1 + GRAPH_SHARE * 0.25, 12);
    expect(ranked[1]).toMatchObject({ graph: null, score: 0.5, seed: true });
    expect(ranked[2]).toMatchObject({ lexical: null, seed: false });
    expect(ranked[2]?.score).toBeCloseTo(GRAPH_SHARE * 0.75, 12);
    expect(rankRecall(state, seeds, false, 2).map((result) => result.memoryId)).toEqual(['s1', 's2']);
    spreadHop(state, [step('x', 'w', 1)], 100);
    expect(rankRecall(state, seeds, false, 10).find((result) => result.memoryId === 'w')?.graph).toBe(1);
  });
});
