import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTINGS, type QueryLimits } from '../../../src/config.js';
import type { EngramContext } from '../../../src/graphql/context.js';
import { createLoaders } from '../../../src/loaders/index.js';
import { recall, type RecallInput } from '../../../src/services/recall/recall.js';
import type { RecallRecord } from '../../../src/store/port.js';
import { createWorkMeter } from '../../../src/store/work-budget.js';
import { recallGraph } from '../../fixtures/recall-graph.js';
import { OTHER, POLICY, T0, T1, T2, T3, WS, type ContractContext } from '../contract-kit.js';

const record = (id: string, createdAt: string, expiresAt: string, query: string | null = 'q'): RecallRecord => ({
  id,
  query,
  results: [
    { memoryId: 'm1', score: 1, lexical: 1, vector: null, graph: null, seed: true, path: [] },
    { memoryId: 'm2', score: 0.45, lexical: null, vector: null, graph: 0.45, seed: false, path: ['e1', 'e2'] },
  ],
  truncated: false,
  createdAt,
  expiresAt,
});

/** The recall record port methods, and recall itself run over the store, so both stores rank alike. */
export function recallCases(t: ContractContext): void {
  describe('recall records', () => {
    it('round-trips a record whole, and lists unexpired records newest first', async () => {
      const first = record('r1', T0, T3);
      const second = record('r2', T1, T3, null);
      await t.store.saveRecall(WS, first, T0);
      await t.store.saveRecall(WS, second, T1);
      expect(await t.store.getRecall(WS, 'r1', T1)).toEqual(first);
      expect(await t.store.listRecalls(WS, { limit: 10, now: T1 })).toEqual([second, first]);
      expect(await t.store.listRecalls(WS, { limit: 1, now: T1 })).toEqual([second]);
    });

    it('keeps each workspace to itself', async () => {
      await t.store.saveRecall(WS, record('r1', T0, T3), T0);
      expect(await t.store.getRecall(OTHER, 'r1', T0)).toBeNull();
      expect(await t.store.listRecalls(OTHER, { limit: 10, now: T0 })).toEqual([]);
      await t.store.saveRecall(OTHER, record('r1', T0, T3), T0);
      expect(await t.store.getRecall(OTHER, 'r1', T0)).toEqual(record('r1', T0, T3));
    });

    it('hides an expired record, and a later save purges it', async () => {
      await t.store.saveRecall(WS, record('old', T0, T1), T0);
      expect(await t.store.getRecall(WS, 'old', T0)).not.toBeNull();
      expect(await t.store.getRecall(WS, 'old', T1)).toBeNull();
      expect(await t.store.listRecalls(WS, { limit: 10, now: T1 })).toEqual([]);
      await t.store.saveRecall(WS, record('new', T2, T3), T2);
      // Read as of before its expiry: only a purge can have removed it.
      expect(await t.store.getRecall(WS, 'old', T0)).toBeNull();
      expect(await t.store.getRecall(WS, 'new', T2)).not.toBeNull();
    });

    it('purges at most 100 expired records per save', async () => {
      for (let n = 0; n < 105; n++) await t.store.saveRecall(WS, record(`old-${n}`, T0, T1), T0);
      await t.store.saveRecall(WS, record('new', T2, T3), T2);
      const left = await t.store.listRecalls(WS, { limit: 100, now: T0 });
      expect(left.filter((kept) => kept.id.startsWith('old-'))).toHaveLength(5);
    });
  });

  describe('recall over the store', () => {
    /** A fresh per-request context, as the GraphQL layer makes it. */
    const context = (): EngramContext => ({
      workspace: WS,
      store: t.store,
      loaders: createLoaders(t.store, WS),
      policy: POLICY,
      limits: { walkBudget: 10_000, feedbackMaxEdges: 1_000 } as QueryLimits,
      work: createWorkMeter(100_000),
      strictTypes: false,
      recall: DEFAULT_RECALL_SETTINGS,
    });
    const input = (fields: Partial<RecallInput>): RecallInput => ({
      query: null,
      seeds: null,
      embedding: null,
      limit: 10,
      maxDepth: 2,
      types: null,
      minWeight: null,
      currentOnly: false,
      ...fields,
    });
    const fail = (error: unknown) => {
      throw error;
    };

    it('ranks the fixture graph the same on every store, scores and paths included', async () => {
      const g = await t.seed(recallGraph);
      const { record: answer, stored } = await recall(context(), input({ query: 'warmup spikes' }), fail);
      expect(stored).toBe(true);
      const name = (id: string) => Object.entries(g.memories).find(([, memory]) => memory.id === id)?.[0];
      expect(answer.results.map((result) => [name(result.memoryId), Number(result.score.toFixed(12))])).toEqual([
        ['hit', 1],
        ['mid', 0.45],
        ['left', 0.3],
        ['right', 0.2],
        ['target', 0.18],
        ['joined', 0.125],
        ['distractor', 0.1],
      ]);
      const target = answer.results.find((result) => result.memoryId === g.id('target'));
      expect(target?.path).toEqual([g.edge('hit', 'mid').id, g.edge('mid', 'target').id]);
      expect(await t.store.getRecall(WS, answer.id, answer.createdAt)).toEqual(answer);
    });

    it('blends a vector match into the seeds: the mean of lexical and vector scores', async () => {
      const g = await t.seed(recallGraph);
      const asked: unknown[] = [];
      const withVectors: EngramContext = {
        ...context(),
        // A fixed answer stands in for the embeddings endpoint: what is under test is the blend.
        vectorMatcher: async (workspace, query, limit) => {
          asked.push({ workspace, query, limit });
          return [{ memoryId: g.id('target'), similarity: 0.8 }];
        },
      };
      const { record: answer } = await recall(withVectors, input({ query: 'warmup spikes', maxDepth: 1 }), fail);
      expect(asked).toEqual([{ workspace: WS, query: { text: 'warmup spikes', embedding: null }, limit: 10 }]);
      const hit = answer.results.find((result) => result.memoryId === g.id('hit'));
      const target = answer.results.find((result) => result.memoryId === g.id('target'));
      expect(hit).toMatchObject({ score: 0.5, lexical: 1, vector: null, seed: true });
      expect(target).toMatchObject({ score: 0.4, lexical: null, vector: 0.8, graph: null, seed: true, path: [] });
      // mid is reached from both seeds in hop 1: 0.5 × 0.9 × 0.5 + 0.4 × 0.8 × 0.5.
      expect(answer.results.find((result) => result.memoryId === g.id('mid'))?.graph).toBeCloseTo(0.385, 12);
    });

    it('spreads only along the given types from named seeds', async () => {
      const g = await t.seed(recallGraph);
      const { record: answer } = await recall(
        context(),
        input({ seeds: ['recall-hit'], types: ['RELATES_TO'], maxDepth: 1 }),
        fail,
      );
      expect(answer.results.map((result) => result.memoryId)).toEqual([
        g.id('hit'),
        g.id('left'),
        g.id('right'),
        g.id('distractor'),
      ]);
    });
  });
}
