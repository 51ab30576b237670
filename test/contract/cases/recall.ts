import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTINGS } from '../../../src/config.js';
import { newId } from '../../../src/domain/ids.js';
import type { EngramContext } from '../../../src/graphql/context.js';
import { writeScope } from '../../../src/graphql/context.js';
import { GRAPH_SHARE } from '../../../src/services/recall/activation.js';
import { LEARNED_RELATION } from '../../../src/services/recall/learning.js';
import { recall } from '../../../src/services/recall/recall.js';
import { recallFeedback } from '../../../src/services/recall/recall-feedback.js';
import { apply } from '../../../src/services/writes.js';
import type { RecallRecord } from '../../../src/store/port.js';
import { namesGraph } from '../../fixtures/names-graph.js';
import { recallGraph } from '../../fixtures/recall-graph.js';
import {
  type ContractContext,
  failOnLog,
  OTHER,
  POLICY,
  recallContext,
  recallInput,
  T0,
  T1,
  T2,
  T3,
  T4,
  WS,
} from '../contract-kit.js';

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

/** A score as the tests compare it: to 12 decimals, like the answers. */
const at = (score: number) => Number(score.toFixed(12));

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

  describe('recall record pages (after)', () => {
    /** Every page of `limit` records as of `now`, each read after the last record of the page before. */
    async function walk(limit: number, now: string) {
      const seen: RecallRecord[] = [];
      for (let page = 0; page < 50; page++) {
        const last = seen.at(-1);
        const records = await t.store.listRecalls(WS, {
          limit,
          now,
          after: last ? { createdAt: last.createdAt, id: last.id } : null,
        });
        seen.push(...records);
        if (records.length < limit) return seen;
      }
      throw new Error('the pages did not end');
    }

    it('pages newest first, through records of one instant by id descending, never skipping or repeating', async () => {
      // Saved out of id order: three at T1, one at T0, one at T2, and one already expired.
      for (const [id, createdAt] of [
        ['r-b', T1],
        ['r-0', T0],
        ['r-c', T1],
        ['r-2', T2],
        ['r-a', T1],
      ] as const)
        await t.store.saveRecall(WS, record(id, createdAt, T4), T0);
      await t.store.saveRecall(WS, record('gone', T1, T2), T0);
      const order = ['r-2', 'r-c', 'r-b', 'r-a', 'r-0'];
      expect((await t.store.listRecalls(WS, { limit: 10, now: T2 })).map((kept) => kept.id)).toEqual(order);
      for (const limit of [1, 2, 3]) expect((await walk(limit, T2)).map((kept) => kept.id)).toEqual(order);
      const afterB = await t.store.listRecalls(WS, { limit: 10, now: T2, after: { createdAt: T1, id: 'r-b' } });
      expect(afterB.map((kept) => kept.id)).toEqual(['r-a', 'r-0']);
    });

    it('leaves out a record that expired, and lists nothing of another workspace after a cursor', async () => {
      await t.store.saveRecall(WS, record('stays', T0, T4), T0);
      await t.store.saveRecall(WS, record('expires', T1, T3), T1);
      await t.store.saveRecall(WS, record('newest', T2, T4), T2);
      const cursor = { createdAt: T2, id: 'newest' };
      expect((await t.store.listRecalls(WS, { limit: 10, now: T2, after: cursor })).map((kept) => kept.id)).toEqual([
        'expires',
        'stays',
      ]);
      expect((await t.store.listRecalls(WS, { limit: 10, now: T3, after: cursor })).map((kept) => kept.id)).toEqual([
        'stays',
      ]);
      expect(await t.store.listRecalls(OTHER, { limit: 10, now: T2, after: cursor })).toEqual([]);
    });
  });

  describe('recall over the store', () => {
    const context = () => recallContext(t.store);
    const input = recallInput;
    const fail = failOnLog;

    it('ranks the fixture graph the same on every store, scores and paths included', async () => {
      const g = await t.seed(recallGraph);
      const { record: answer, stored } = await recall(context(), input({ query: 'warmup spikes' }), fail);
      expect(stored).toBe(true);
      // hit's four edges weigh 2.1, so each passes its share of 1 x 0.5; mid's two weigh 1.7, left's 1.1,
      // right's 0.9 (under 1: no split). Graph activation counts GRAPH_SHARE (a quarter) in the score.
      const hop1 = (weight: number) => (weight * 0.5) / 2.1;
      expect(answer.results.map((result) => [g.nameOf(result.memoryId), Number(result.score.toFixed(12))])).toEqual([
        ['hit', 1],
        ['mid', at(GRAPH_SHARE * hop1(0.9))],
        ['left', at(GRAPH_SHARE * hop1(0.6))],
        ['right', at(GRAPH_SHARE * hop1(0.4))],
        ['joined', at(GRAPH_SHARE * ((hop1(0.6) * 0.5 * 0.5) / 1.1 + hop1(0.4) * 0.5 * 0.5))],
        ['target', at(GRAPH_SHARE * ((hop1(0.9) * 0.8 * 0.5) / 1.7))],
        ['distractor', at(GRAPH_SHARE * hop1(0.2))],
      ]);
      const target = answer.results.find((result) => result.memoryId === g.id('target'));
      expect(target?.path).toEqual([g.edge('hit', 'mid').id, g.edge('mid', 'target').id]);
      expect(await t.store.getRecall(WS, answer.id, answer.createdAt)).toEqual(answer);
    });

    it('blends a vector match into the seeds: the mean of the reciprocal ranks of both lists', async () => {
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
      // Each is first of its list and missing from the other: (1 + 0) / 2. The cosine is shown, not blended.
      expect(hit).toMatchObject({ score: 0.5, lexical: 1, vector: null, seed: true });
      expect(target).toMatchObject({ score: 0.5, lexical: null, vector: 0.8, graph: null, seed: true, path: [] });
      // mid is reached from both seeds in hop 1: hit's edges weigh 2.1, target's one 0.8 (no split).
      expect(answer.results.find((result) => result.memoryId === g.id('mid'))?.graph).toBeCloseTo(
        (0.5 * 0.9 * 0.5) / 2.1 + 0.5 * 0.8 * 0.5,
        12,
      );
    });

    it('starts a best vector match that leads the others by a standard deviation at 1, above the word match', async () => {
      const g = await t.seed(recallGraph);
      const answerWith = async (similarities: Record<string, number>) => {
        const withVectors: EngramContext = {
          ...context(),
          // A fixed answer stands in for the embeddings endpoint: what is under test is the fusion.
          vectorMatcher: async () =>
            Object.entries(similarities).map(([name, similarity]) => ({ memoryId: g.id(name), similarity })),
        };
        const { record } = await recall(withVectors, input({ query: 'warmup spikes', maxDepth: 1 }), fail);
        return record.results.map((result) => [g.nameOf(result.memoryId), result.score] as const);
      };
      // target leads hit by 0.30; the five similarities' standard deviation is 0.13.
      const leading = await answerWith({ target: 0.9, hit: 0.6, joined: 0.58, distractor: 0.57, right: 0.55 });
      expect(leading[0]).toEqual(['target', 1]);
      // hit, first of the word matches and second of the vector matches: (1 + 1/2) / 2, plus what seeds passed it.
      expect(leading[1]?.[0]).toBe('hit');
      expect(leading[1]?.[1]).toBeGreaterThan(0.75);
      expect(leading[1]?.[1]).toBeLessThan(1);
      // target ahead by 0.01 with a deviation of 0.08: the mean of the reciprocal ranks, word match first.
      const close = await answerWith({ target: 0.9, hit: 0.89, joined: 0.8, distractor: 0.75, right: 0.7 });
      expect(close.slice(0, 2).map(([name]) => name)).toEqual(['hit', 'target']);
      expect(close[1]?.[1]).toBeCloseTo(0.5, 12);
    });

    it("scales each score by the memory's own weight, centred on the default weight", async () => {
      const g = await t.seed(recallGraph);
      const set = (name: string, value: number) => ({
        eventId: newId(),
        target: { kind: 'memory' as const, id: g.id(name) },
        operation: { kind: 'set' as const, value },
        source: 'MANUAL' as const,
        reason: null,
      });
      await apply(writeScope(context()), [set('distractor', 1), set('left', 0.2)]);
      const { record: answer } = await recall(context(), input({ query: 'warmup spikes' }), fail);
      const score = (name: string) => answer.results.find((result) => result.memoryId === g.id(name))?.score;
      // Untouched memories keep their scores; the distractor's counts 1.5 times, left's 0.7 times.
      const hop1 = (weight: number) => (GRAPH_SHARE * weight * 0.5) / 2.1;
      expect(score('hit')).toBeCloseTo(1, 12);
      expect(score('mid')).toBeCloseTo(hop1(0.9), 12);
      expect(score('distractor')).toBeCloseTo(hop1(0.2) * 1.5, 12);
      expect(score('left')).toBeCloseTo(hop1(0.6) * 0.7, 12);
      expect(answer.results.map((result) => result.memoryId).indexOf(g.id('left'))).toBe(2);
    });

    it('learns from USED feedback by recallId: a different query that matches the same seed now finds the memory', async () => {
      const g = await t.seed(recallGraph);
      const rankOf = async (query: string, name: string) => {
        const { record: answer } = await recall(context(), input({ query, maxDepth: 1 }), fail);
        return answer.results.findIndex((result) => result.memoryId === g.id(name));
      };
      // "after deploy" matches the hit (and the deploy calendar); target is two hops away: not reached at depth 1.
      expect(await rankOf('after deploy', 'target')).toBe(-1);
      const { record: taught } = await recall(context(), input({ query: 'warmup spikes' }), fail);
      const changes = await recallFeedback(
        writeScope(context()),
        { recallId: taught.id, memoryId: g.id('target'), signal: 'USED', source: 'CONSCIOUS' },
        DEFAULT_RECALL_SETTINGS,
      );
      const learned = await t.store.findEdge(WS, g.id('hit'), g.id('target'), LEARNED_RELATION);
      expect(learned?.weight).toBeCloseTo(DEFAULT_RECALL_SETTINGS.learnedWeight, 12);
      // The memory, the path's two edges and the new association: one event each, in one answer.
      expect(changes.map((change) => change.edge?.id ?? change.memory?.id)).toEqual([
        g.id('target'),
        g.edge('hit', 'mid').id,
        g.edge('mid', 'target').id,
        learned?.id,
      ]);
      const [event] = await t.store.getEdgeHistories(WS, [learned?.id as string], 5);
      expect(event?.map((e) => [e.old, e.new, e.source, e.reason])).toEqual([
        [0, DEFAULT_RECALL_SETTINGS.learnedWeight, 'CONSCIOUS', `recall ${taught.id}`],
      ]);
      // Now one hop along the association. hit's five edges weigh 0.91 + 0.2 + 0.6 + 0.4 + 0.5 = 2.61;
      // the two seeds support each other (the distractor's one edge weighs 0.2: no split); target's
      // share is 1 x 0.5 x 0.5 / 2.61, times its prior 1 + (0.51 - 0.5).
      const { record: after } = await recall(context(), input({ query: 'after deploy', maxDepth: 1 }), fail);
      const names = after.results.map((result) => [g.nameOf(result.memoryId), Number(result.score.toFixed(12))]);
      const share = (weight: number) => (GRAPH_SHARE * weight * 0.5) / 2.61;
      expect(names).toEqual([
        ['hit', at(1 + GRAPH_SHARE * 0.5 * 0.2 * 0.5)],
        ['distractor', at(0.5 + share(0.2))],
        ['mid', at(share(0.91))],
        ['left', at(share(0.6))],
        ['target', at(share(0.5) * 1.01)],
        ['right', at(share(0.4))],
      ]);
      // The same feedback again strengthens the association by the tier step instead of adding one.
      const { record: again } = await recall(context(), input({ query: 'warmup spikes' }), fail);
      await recallFeedback(
        writeScope(context()),
        { recallId: again.id, memoryId: g.id('target'), signal: 'USED', source: 'CONSCIOUS' },
        DEFAULT_RECALL_SETTINGS,
      );
      const stronger = await t.store.findEdge(WS, g.id('hit'), g.id('target'), LEARNED_RELATION);
      expect(stronger?.id).toBe(learned?.id);
      expect(stronger?.weight).toBeCloseTo(DEFAULT_RECALL_SETTINGS.learnedWeight + POLICY.tierDelta.CONSCIOUS, 12);
    });

    it('learns at most learnedPerMemory associations into a memory, and none with 0', async () => {
      const g = await t.seed(recallGraph);
      const teach = async (query: string, learnedPerMemory: number) => {
        const { record: answer } = await recall(context(), input({ query, maxDepth: 2 }), fail);
        await recallFeedback(
          writeScope(context()),
          { recallId: answer.id, memoryId: g.id('target'), signal: 'USED', source: 'CONSCIOUS' },
          { ...DEFAULT_RECALL_SETTINGS, learnedPerMemory },
        );
      };
      const learnedInto = async () =>
        (
          await t.store.countAdjacent(WS, [g.id('target')], {
            direction: 'INCOMING',
            types: [LEARNED_RELATION],
            includePruned: true,
            pruneThreshold: POLICY.pruneThreshold,
          })
        )[0];
      await teach('warmup spikes', 0);
      expect(await learnedInto()).toBe(0);
      // "deploy" matches two memories: only one association fits under a bound of 1.
      await teach('deploy', 1);
      expect(await learnedInto()).toBe(1);
      await teach('deploy', 1);
      expect(await learnedInto()).toBe(1);
    });

    it('seeds first the word matches that hold every name of the question', async () => {
      const g = await t.seed(namesGraph);
      const question = 'Until when is Iris away?';
      // Full text ranks the other project's note first: it holds three of the words, Iris's one.
      const searched = await t.store.searchMemories(WS, {
        text: question,
        kinds: null,
        tags: null,
        limit: 10,
        currentOnly: false,
        pruneThreshold: POLICY.pruneThreshold,
      });
      expect(searched.map((memory) => memory.id)).toEqual([g.id('away'), g.id('iris')]);
      const seeded = async (query: string, limit: number) =>
        (await recall(context(), input({ query, limit }), fail)).record.results.map((result) => [
          result.memoryId,
          result.lexical,
        ]);
      expect(await seeded(question, 2)).toEqual([
        [g.id('iris'), 1],
        [g.id('away'), 0.5],
      ]);
      // The matches read past the limit: with one result, Iris's note is still the one.
      expect(await seeded(question, 1)).toEqual([[g.id('iris'), 1]]);
      // Without a capital nothing is named, and the search's order stands.
      expect(await seeded(question.toLowerCase(), 2)).toEqual([
        [g.id('away'), 1],
        [g.id('iris'), 0.5],
      ]);
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
