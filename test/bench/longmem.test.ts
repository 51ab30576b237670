import { describe, expect, it } from 'vitest';
import { type LongmemRun, longmemTargets, renderLongmem } from '../../bench/longmem/bench-step.js';
import {
  fingerprint,
  generateLongMem,
  type LongMemSet,
  QUESTION_KINDS,
  SHAPES,
  splitQuestions,
} from '../../bench/longmem/generator.js';
import { VECTORS_NO_ASSOCIATIONS } from '../../bench/longmem/harness.js';
import {
  bridgingCeiling,
  cosineTopK,
  latency,
  learningReach,
  meanRecall,
  normalize,
  oracleGain,
  recallAtK,
  recallByKind,
} from '../../bench/longmem/metrics.js';
import { render, rngFor } from '../../bench/longmem/text.js';

/** The long-memory benchmark's generator (bench/longmem): same seed, same set; its answers hold together; its arithmetic. */

const sets = new Map<string, LongMemSet>();
const setOf = (shape: (typeof SHAPES)[number], seed: number, scale = 1): LongMemSet => {
  const key = `${shape}/${seed}/${scale}`;
  if (!sets.has(key)) sets.set(key, generateLongMem({ shape, seed, scale }));
  return sets.get(key) as LongMemSet;
};

describe.each(SHAPES)('the %s set', (shape) => {
  it('is the same for the same seed and scale, and differs for another seed', () => {
    const a = setOf(shape, 42);
    const b = generateLongMem({ shape, seed: 42 });
    expect(b).toEqual(a);
    expect(fingerprint(b)).toBe(fingerprint(a));
    const other = setOf(shape, 7);
    expect(fingerprint(other)).not.toBe(fingerprint(a));
    expect(other.memories.map((memory) => memory.id)).not.toEqual(a.memories.map((memory) => memory.id));
  });

  it.each([42, 7, 1234])('has the default size and every kind of question (seed %i)', (seed) => {
    const set = setOf(shape, seed);
    expect(set.memories.length).toBeGreaterThanOrEqual(2000);
    expect(set.memories.length).toBeLessThanOrEqual(6000);
    expect(set.questions.length).toBeGreaterThanOrEqual(300);
    expect(set.questions.length).toBeLessThanOrEqual(800);
    for (const kind of QUESTION_KINDS) expect(set.questions.filter((q) => q.kind === kind).length).toBeGreaterThan(20);
  });

  it('scales with --scale', () => {
    const small = setOf(shape, 42, 0.25);
    expect(small.memories.length).toBeLessThan(setOf(shape, 42).memories.length / 2);
    expect(small.questions.length).toBeGreaterThan(0);
  });

  it('answers every question from memories that exist, as its kind says', () => {
    const set = setOf(shape, 42);
    const byId = new Map(set.memories.map((memory) => [memory.id, memory]));
    expect(byId.size).toBe(set.memories.length);
    expect(new Set(set.questions.map((q) => q.id)).size).toBe(set.questions.length);
    for (const question of set.questions) {
      const evidence = question.evidence.map((id) => byId.get(id));
      expect(evidence.every(Boolean), question.text).toBe(true);
      // Every question names its user or project, as the evidence's conversation or project.
      const name = /\((.+)\)$/.exec(question.group)?.[1] as string;
      expect(question.text, question.text).toContain(name);
      for (const memory of evidence) expect(memory?.metadata.group).toBe(question.group);
      const sessions = new Set(evidence.map((memory) => memory?.metadata.session));
      if (question.kind === 'multi-hop') {
        expect(question.evidence.length).toBeGreaterThanOrEqual(2);
        expect(sessions.size, question.text).toBe(question.evidence.length);
      } else {
        expect(question.evidence).toHaveLength(1);
      }
    }
  });

  it('links consecutive memories of a session FOLLOWED_BY 0.5, and nothing across groups', () => {
    const set = setOf(shape, 42);
    const byId = new Map(set.memories.map((memory) => [memory.id, memory]));
    const followed = set.edges.filter((edge) => edge.type === 'FOLLOWED_BY');
    const sessions = new Set(set.memories.map((memory) => `${memory.metadata.group}/${memory.metadata.session}`));
    expect(followed.length).toBe(set.memories.length - sessions.size);
    for (const edge of followed) {
      const from = byId.get(edge.from);
      const to = byId.get(edge.to);
      expect(edge.weight).toBe(0.5);
      expect(to?.metadata.group).toBe(from?.metadata.group);
      expect(to?.metadata.session).toBe(from?.metadata.session);
      expect(to?.metadata.position).toBe((from?.metadata.position as number) + 1);
    }
    for (const edge of set.edges) expect(byId.get(edge.to)?.metadata.group).toBe(byId.get(edge.from)?.metadata.group);
    if (shape === 'dialogue') expect(set.edges.every((edge) => edge.type === 'FOLLOWED_BY')).toBe(true);
  });

  it('asks each fact in more wordings with --asks, over the same memories and edges', () => {
    const base = setOf(shape, 42);
    const more = generateLongMem({ shape, seed: 42, asks: 3 });
    expect(more.memories).toEqual(base.memories);
    expect(more.edges).toEqual(base.edges);
    const asked = (set: LongMemSet) => set.questions.map((q) => `${q.text} <- ${q.evidence.join(',')}`);
    expect(asked(more)).toEqual(expect.arrayContaining(asked(base)));
    expect(more.questions.length).toBeGreaterThan(base.questions.length * 1.4);
    // The point of it: more test questions share an evidence memory with some train question.
    const shared = (set: LongMemSet) => {
      const { train, test } = splitQuestions(set.questions, 42);
      const trained = new Set(train.flatMap((q) => q.evidence));
      return test.filter((q) => q.evidence.some((id) => trained.has(id))).length / test.length;
    };
    expect(shared(more)).toBeGreaterThan(shared(base) + 0.1);
    expect(() => generateLongMem({ shape, seed: 42, asks: 0 })).toThrow(/asks/);
  });

  it('splits the questions in two seeded halves, each kind halved', () => {
    const set = setOf(shape, 42);
    const { train, test } = splitQuestions(set.questions, 42);
    expect(splitQuestions(set.questions, 42)).toEqual({ train, test });
    expect(new Set([...train, ...test].map((q) => q.id)).size).toBe(set.questions.length);
    expect(train.length + test.length).toBe(set.questions.length);
    for (const kind of QUESTION_KINDS) {
      const all = set.questions.filter((q) => q.kind === kind).length;
      expect(train.filter((q) => q.kind === kind).length).toBe(Math.floor(all / 2));
    }
    expect(splitQuestions(set.questions, 43).train).not.toEqual(train);
  });
});

describe('templates', () => {
  it('pick alternatives and synonyms from the seed, and fill variables', () => {
    const synonyms = { dog: ['dog', 'puppy'] };
    const text = render(rngFor('t', 1), 'i [got|adopted] a <dog> called {name}', { name: 'Biscuit' }, synonyms);
    expect(text).toMatch(/^I (got|adopted) a (dog|puppy) called Biscuit$/);
    expect(render(rngFor('t', 1), 'i [got|adopted] a <dog> called {name}', { name: 'Biscuit' }, synonyms)).toBe(text);
    expect(render(rngFor('t', 2), 'a <dog> , then a apple .', {}, synonyms)).toMatch(
      /^A (dog|puppy), then an apple\.$/,
    );
    expect(() => render(rngFor('t', 1), '<cat>', {}, synonyms)).toThrow(/unknown synonym set <cat>/);
    expect(() => render(rngFor('t', 1), '{missing}', {}, synonyms)).toThrow(/unknown variable \{missing\}/);
  });
});

describe('metrics', () => {
  it('recall@k is the share of the evidence in the first k, each evidence memory once', () => {
    const ranked = ['x', 'a', 'y', 'b', 'z'];
    expect(recallAtK(ranked, ['a'], 1)).toBe(0);
    expect(recallAtK(ranked, ['a'], 2)).toBe(1);
    expect(recallAtK(ranked, ['a', 'b'], 2)).toBe(0.5);
    expect(recallAtK(ranked, ['a', 'b'], 5)).toBe(1);
    expect(recallAtK(ranked, ['a', 'b', 'q'], 10)).toBeCloseTo(2 / 3, 12);
    expect(recallAtK(ranked, ['a', 'a'], 2)).toBe(1);
    expect(recallAtK(['a', 'a', 'b'], ['a', 'b'], 2)).toBe(0.5);
    expect(recallAtK([], ['a'], 10)).toBe(0);
    expect(() => recallAtK(ranked, [], 5)).toThrow();
  });

  it('averages per question, per kind and over all', () => {
    const rows = [
      { kind: 'single-hop' as const, evidence: ['a'], ranked: ['a'] },
      { kind: 'single-hop' as const, evidence: ['b'], ranked: ['x', 'x2', 'x3', 'x4', 'x5', 'b'] },
      { kind: 'multi-hop' as const, evidence: ['c', 'd'], ranked: ['c', 'x', 'x', 'x', 'x', 'x', 'd'] },
    ];
    expect(meanRecall(rows)).toEqual({ n: 3, r1: (1 + 0 + 0.5) / 3, r5: (1 + 0 + 0.5) / 3, r10: (1 + 1 + 1) / 3 });
    const byKind = recallByKind(rows);
    expect(byKind['single-hop']).toEqual({ n: 2, r1: 0.5, r5: 0.5, r10: 1 });
    expect(byKind['multi-hop']).toEqual({ n: 1, r1: 0.5, r5: 0.5, r10: 1 });
    expect(byKind.update.n).toBe(0);
    expect(Number.isNaN(byKind.update.r5)).toBe(true);
    expect(byKind.all).toEqual(meanRecall(rows));
  });

  it('bounds what bridging from found evidence could give: all evidence of a reached question in the top 5', () => {
    const rows = [
      // One of two evidence memories in the top 5: bridging could bring the other, so 1.
      { kind: 'multi-hop' as const, evidence: ['a', 'b'], ranked: ['a', 'x', 'x', 'x', 'x', 'x'] },
      // Its evidence first seen at rank 7: 1 from the top 10, its own 0 from the top 5.
      { kind: 'multi-hop' as const, evidence: ['c', 'd'], ranked: ['x', 'x', 'x', 'x', 'x', 'x', 'c'] },
      // Nothing reached: keeps its own R@5 either way.
      { kind: 'multi-hop' as const, evidence: ['e'], ranked: ['x'] },
    ];
    expect(bridgingCeiling(rows, 5)).toBeCloseTo(1 / 3, 12);
    expect(bridgingCeiling(rows, 10)).toBeCloseTo(2 / 3, 12);
    expect(Number.isNaN(bridgingCeiling([], 5))).toBe(true);
  });

  it('bounds learning by an oracle: USED evidence in front, NOT_USEFUL memories dropped unless they are the evidence', () => {
    const rows = [
      // Its evidence was marked USED elsewhere: lifted from rank 7 to the front.
      { kind: 'single-hop' as const, evidence: ['a'], ranked: ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'a'] },
      // Two wrong results were marked NOT_USEFUL: dropped, so its evidence at rank 6 moves into the top 5.
      { kind: 'single-hop' as const, evidence: ['b'], ranked: ['n1', 'n2', 'y3', 'y4', 'y5', 'b'] },
      // Its own evidence was marked NOT_USEFUL for another question: kept where it is.
      { kind: 'single-hop' as const, evidence: ['n1'], ranked: ['z1', 'n1'] },
    ];
    const used = new Set(['a']);
    const notUseful = new Set(['n1', 'n2']);
    expect(oracleGain(rows, used, notUseful)).toBeCloseTo((1 + 1 + 1 - (0 + 0 + 1)) / 3, 12);
    expect(oracleGain(rows, new Set(), new Set())).toBe(0);
    expect(Number.isNaN(oracleGain([], used, notUseful))).toBe(true);
  });

  it('says why shared evidence is missing after learning: never used, no matching cue, or ranked below 5', () => {
    const rows = [
      { kind: 'single-hop' as const, evidence: ['top', 'own'], ranked: ['top', 'x', 'x', 'x', 'x', 'low'] },
      { kind: 'multi-hop' as const, evidence: ['never', 'uncued', 'low'], ranked: ['x'] },
    ];
    const trainEvidence = new Set(['top', 'never', 'uncued', 'low']);
    const used = new Set(['top', 'uncued', 'low']);
    const reach = learningReach(rows, trainEvidence, used, (_row, id) => id === 'low');
    expect(reach).toEqual({ shared: 4, inTop5: 1, neverUsed: 1, noCue: 1, belowTop5: 1 });
  });

  it('ranks by cosine, best first, ties by id', () => {
    const ids = ['m3', 'm1', 'm2', 'm4'];
    const vectors = [
      [1, 0],
      [0, 1],
      [1, 0],
      [0.6, 0.8],
    ].map(normalize);
    const top = cosineTopK(normalize([1, 0]), ids, vectors, 3);
    expect(top.map((hit) => hit.id)).toEqual(['m2', 'm3', 'm4']);
    expect(top[2]?.similarity).toBeCloseTo(0.6, 6);
    expect(cosineTopK(normalize([0, 3]), ids, vectors, 1).map((hit) => hit.id)).toEqual(['m1']);
    expect(Array.from(normalize([0, 0]))).toEqual([0, 0]);
  });

  it('summarises latency by nearest rank', () => {
    const samples = Array.from({ length: 20 }, (_, index) => 20 - index);
    expect(latency(samples)).toEqual({ n: 20, p50: 10, p95: 19, mean: 10.5 });
  });
});

describe("npm run bench's long-memory rows", () => {
  const row = (r5: number, multi = r5, single = r5) => ({
    n: 10,
    r1: r5,
    r5,
    r10: r5,
    ...{ multi, single },
  });
  const kinds = (r5: number, multi: number, single: number) => {
    const base = row(r5);
    return {
      all: base,
      'single-hop': row(single),
      'multi-hop': row(multi),
      update: base,
      distractor: base,
    } as unknown as LongmemRun['methods'][number]['byKind'];
  };
  const run = (shape: 'dialogue' | 'notes', asks: number, gain: number, untouched: number, multiOn: number) =>
    ({
      shape,
      seed: 42,
      asks,
      embeddings: null,
      methods: [
        { name: 'searchMemories', byKind: kinds(0.5, 0.3, 0.5) },
        { name: 'recall, no associations', byKind: kinds(0.55, 0.4, 0.6) },
        { name: 'recall', byKind: kinds(0.56, multiOn, 0.6) },
      ],
      latency: {},
      learning: {
        before: { all: row(0.5) },
        after: { all: row(0.5 + gain) },
        oracle: 0.15,
        headroom: 0.1,
        groups: [{ label: 'evidence got no feedback at all', n: 10, before: row(0.5), after: row(0.5 + untouched) }],
      },
    }) as unknown as LongmemRun;

  it('meets a target only when every run meets it, and names each run', () => {
    const runs = [run('dialogue', 1, 0.02, 0, 0.6), run('notes', 1, 0.12, 0, 0.7), run('notes', 2, 0.11, -0.02, 0.7)];
    const targets = longmemTargets(runs);
    const find = (start: string) => targets.find((target) => target.target.startsWith(start));
    expect(find('issue 25: learning gain R@5, test half (longmem, asks 1)')).toMatchObject({
      measured: 'dialogue 42 +0.020 (oracle +0.150), notes 42 +0.120 (oracle +0.150)',
      met: false,
    });
    expect(find('issue 25: learning gain R@5, test half (longmem, asks 2)')?.met).toBe(true);
    expect(find('issue 25: evidence without feedback, R@5 change (asks 1)')?.met).toBe(true);
    expect(find('issue 25: evidence without feedback, R@5 change (asks 2)')).toMatchObject({
      measured: 'notes 42 -0.020',
      met: false,
    });
    // Recall against search and associations on against off: the default questions (asks 1) only.
    expect(find('issue 25: recall (no vectors) - searchMemories')).toMatchObject({
      measured: 'dialogue 42 +0.060, notes 42 +0.060',
      met: true,
    });
    expect(find('issue 28: multi-hop R@5')).toMatchObject({
      measured: 'dialogue 42 x 1.50, notes 42 x 1.75',
      met: true,
    });
    expect(find('issue 28: single-hop R@5')?.met).toBe(true);
    expect(targets.some((target) => target.target.includes('recall with vectors'))).toBe(false);
    expect(renderLongmem(runs).split('\n')).toHaveLength(4 + runs.length);
  });

  it('checks recall with vectors against the better single signal on the runs with vectors only', () => {
    const vectorRun = {
      ...run('notes', 1, 0.05, 0, 0.6),
      embeddings: { backend: 'numpy', model: 'all-MiniLM-L6-v2', ms: 1, stored: 1, dims: 384 },
      methods: [
        { name: 'searchMemories', byKind: kinds(0.5, 0.3, 0.5) },
        { name: 'recall, no vectors', byKind: kinds(0.55, 0.4, 0.6) },
        { name: 'recall with vectors', byKind: kinds(0.7, 0.5, 0.7) },
        { name: VECTORS_NO_ASSOCIATIONS, byKind: kinds(0.65, 0.3, 0.71) },
        { name: 'vector alone (cosine)', byKind: kinds(0.72, 0.4, 0.7) },
      ],
    } as LongmemRun;
    const targets = longmemTargets([run('dialogue', 1, 0.02, 0, 0.6), vectorRun]);
    const find = (start: string) => targets.find((target) => target.target.startsWith(start));
    // The vector run is left out of the rows measured without vectors...
    expect(find('issue 25: learning gain R@5, test half (longmem, asks 1)')?.measured).toBe(
      'dialogue 42 +0.020 (oracle +0.150)',
    );
    // ...and is the only run in the rows with vectors: 0.70 against the vectors' 0.72 at every k here.
    expect(find('issue 25: recall with vectors >= max(search, vectors alone), R@5')).toMatchObject({
      measured: 'notes 42 0.700 vs 0.720',
      met: false,
    });
    // Associations on and off with vectors on both sides: x 0.5 / 0.3, and single-hop 0.01 lower.
    expect(find('issue 28: multi-hop R@5 with vectors')).toMatchObject({ measured: 'notes 42 x 1.67', met: true });
    expect(find('issue 28: single-hop R@5 with vectors')).toMatchObject({ measured: 'notes 42 -0.010', met: false });
    expect(find('issue 28: multi-hop R@5, associations')?.measured).toBe('dialogue 42 x 1.50');
    expect(renderLongmem([vectorRun])).toContain(
      '| notes 42, vectors | 1 | 0.500 | 0.700 | 0.300 / 0.500 | 0.710 / 0.700 |',
    );
  });
});
