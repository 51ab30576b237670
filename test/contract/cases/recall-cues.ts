import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTINGS } from '../../../src/config.js';
import { writeScope } from '../../../src/graphql/context.js';
import { GRAPH_SHARE } from '../../../src/services/recall/activation.js';
import { LEARNED_RELATION } from '../../../src/services/recall/learning.js';
import { recall } from '../../../src/services/recall/recall.js';
import { recallFeedback } from '../../../src/services/recall/recall-feedback.js';
import { deleteMemory, revertWeightEvent } from '../../../src/services/writes.js';
import type { NewRecallCue } from '../../../src/store/port.js';
import { cuesGraph } from '../../fixtures/cues-graph.js';
import {
  BOUNDS,
  type ContractContext,
  delta,
  edgeChange,
  failOnLog,
  OTHER,
  POLICY,
  recallContext,
  recallInput,
  T0,
  T1,
  T2,
  T3,
  WS,
} from '../contract-kit.js';

const cue = (fields: Partial<NewRecallCue> & Pick<NewRecallCue, 'id' | 'memoryId' | 'edgeId'>): NewRecallCue => ({
  names: ['tomas'],
  terms: ['balcony', 'growing'],
  keys: ['tomas'],
  createdAt: T0,
  ...fields,
});

/** Recall cues (domain/recall-cues.ts): the store's three methods, and recall learning questions through them. */
export function recallCueCases(t: ContractContext): void {
  describe('recall cues', () => {
    /** Two memories and a learned association into each: what cues hang on. */
    const twoTargets = async (workspace = WS) => {
      for (const id of ['seed', 'a', 'b']) await t.createMemory({ id }, workspace);
      const into = async (to: string) =>
        (await t.link('seed', to, LEARNED_RELATION, { weight: 0.5 }, workspace)).edge.id;
      return { a: await into('a'), b: await into('b') };
    };
    const found = async (keys: string[], perKey = 50, workspace = WS) =>
      (await t.store.findRecallCues(workspace, keys, perKey))
        .map((c) => [c.id, c.memoryId, c.edgeId, c.edgeWeight, c.names, c.terms, c.createdAt])
        .sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1));

    it('files a cue under each key and finds it once by any of them, with its edge weight now', async () => {
      const edges = await twoTargets();
      await t.store.saveRecallCue(WS, cue({ id: 'c1', memoryId: 'a', edgeId: edges.a, keys: ['tomas', 'lisbon'] }), 20);
      const expected = ['c1', 'a', edges.a, 0.5, ['tomas'], ['balcony', 'growing'], T0];
      expect(await found(['tomas'])).toEqual([expected]);
      expect(await found(['lisbon', 'tomas'])).toEqual([expected]);
      expect(await found(['greta'])).toEqual([]);
      expect(await found([])).toEqual([]);
      await t.store.applyWeightChanges(WS, [edgeChange(edges.a, delta(0.2))], BOUNDS, T1);
      expect((await found(['tomas']))[0]?.[3]).toBeCloseTo(0.7, 12);
    });

    it('reads the newest perKey cues of each key', async () => {
      const edges = await twoTargets();
      await t.store.saveRecallCue(WS, cue({ id: 'c1', memoryId: 'a', edgeId: edges.a, createdAt: T0 }), 20);
      await t.store.saveRecallCue(
        WS,
        cue({ id: 'c2', memoryId: 'b', edgeId: edges.b, terms: ['x'], createdAt: T1 }),
        20,
      );
      await t.store.saveRecallCue(
        WS,
        cue({ id: 'c3', memoryId: 'a', edgeId: edges.a, terms: ['y'], keys: ['tomas', 'y'], createdAt: T2 }),
        20,
      );
      expect((await found(['tomas'], 2)).map((c) => c[0])).toEqual(['c2', 'c3']);
      // Each key reads its own newest: "y" holds only c3, "tomas" adds c2.
      expect((await found(['y', 'tomas'], 1)).map((c) => c[0])).toEqual(['c3']);
      expect((await found(['tomas'], 3)).map((c) => c[0])).toEqual(['c1', 'c2', 'c3']);
    });

    it("replaces the memory's cue for the same question, keeps its newest keepPerMemory, and deletes by id", async () => {
      const edges = await twoTargets();
      await t.store.saveRecallCue(WS, cue({ id: 'c1', memoryId: 'a', edgeId: edges.a, createdAt: T0 }), 2);
      await t.store.saveRecallCue(WS, cue({ id: 'c2', memoryId: 'a', edgeId: edges.a, createdAt: T1 }), 2);
      expect((await found(['tomas'])).map((c) => c[0])).toEqual(['c2']);
      await t.store.saveRecallCue(
        WS,
        cue({ id: 'c3', memoryId: 'a', edgeId: edges.a, terms: ['a'], createdAt: T2 }),
        2,
      );
      await t.store.saveRecallCue(
        WS,
        cue({ id: 'c4', memoryId: 'a', edgeId: edges.a, terms: ['b'], createdAt: T3 }),
        2,
      );
      // Another memory's cue is not counted against this one's cap.
      await t.store.saveRecallCue(WS, cue({ id: 'c5', memoryId: 'b', edgeId: edges.b, createdAt: T0 }), 2);
      expect((await found(['tomas'])).map((c) => c[0])).toEqual(['c3', 'c4', 'c5']);
      await t.store.deleteRecallCue(WS, 'c3');
      await t.store.deleteRecallCue(WS, 'missing');
      expect((await found(['tomas'])).map((c) => c[0])).toEqual(['c4', 'c5']);
    });

    it('leaves out a cue whose edge is gone, removes cues with their memory, and keeps workspaces apart', async () => {
      const edges = await twoTargets();
      const other = await twoTargets(OTHER);
      await t.store.saveRecallCue(WS, cue({ id: 'c1', memoryId: 'a', edgeId: edges.a }), 20);
      await t.store.saveRecallCue(WS, cue({ id: 'c2', memoryId: 'b', edgeId: edges.b }), 20);
      await t.store.saveRecallCue(OTHER, cue({ id: 'c9', memoryId: 'a', edgeId: other.a }), 20);
      await t.store.unlinkEdges(WS, { id: edges.a });
      expect((await found(['tomas'])).map((c) => c[0])).toEqual(['c2']);
      await t.store.deleteMemory(WS, 'b');
      expect(await found(['tomas'])).toEqual([]);
      expect(await t.inspect.countRows('recall_cues', WS)).toBe(1);
      expect((await found(['tomas'], 50, OTHER)).map((c) => c[0])).toEqual(['c9']);
    });

    describe('learning the question from USED feedback', () => {
      const context = () => recallContext(t.store);
      const TAUGHT = 'What is Tomas growing on the balcony?';
      const resultFor = async (query: string, memoryId: string) =>
        (await recall(context(), recallInput({ query, maxDepth: 1 }), failOnLog)).record.results.find(
          (result) => result.memoryId === memoryId,
        );
      const teach = async (patio: string) => {
        const { record } = await recall(context(), recallInput({ query: TAUGHT, maxDepth: 1 }), failOnLog);
        expect(record.results.map((result) => result.memoryId)).toContain(patio);
        await recallFeedback(
          writeScope(context()),
          { recallId: record.id, memoryId: patio, signal: 'USED', source: 'CONSCIOUS' },
          DEFAULT_RECALL_SETTINGS,
        );
      };

      it('finds the memory for a question worded like the one it answered, and not for another name or fewer words', async () => {
        const g = await t.seed(cuesGraph);
        const asked = 'What did Tomas plant on the balcony?';
        expect(await resultFor(asked, g.id('patio'))).toBeUndefined();
        await teach(g.id('patio'));
        // The best word match of the taught question holds its name: the cue hangs on its association.
        const edge = await t.store.findEdge(WS, g.id('door'), g.id('patio'), LEARNED_RELATION);
        const cued = await resultFor(asked, g.id('patio'));
        // "plant" and "balcony": the cue holds one of the two, half; the memory's prior is 1.01 after USED.
        expect(cued?.cue).toEqual({ edgeId: edge?.id, names: ['tomas'], terms: ['balcony', 'growing'], match: 0.5 });
        expect(cued?.seed).toBe(true);
        // Its seed activation is the match, 0.5 (the edge is at the learned weight); the three seeds the
        // feedback associated it with (door, commute, other: 1, 1/2, 1/3, one edge each) support it
        // with 0.5 x 0.5 of their activation; times its prior 1.01. Second, after door (docs/recall.md).
        const support = (1 + 1 / 2 + 1 / 3) * 0.5 * 0.5;
        expect(cued?.score).toBeCloseTo((0.5 + GRAPH_SHARE * support) * 1.01, 12);
        const { record } = await recall(context(), recallInput({ query: asked, maxDepth: 1 }), failOnLog);
        expect(record.results.map((result) => result.memoryId)).toEqual(
          ['door', 'patio', 'commute', 'other', 'greta'].map((name) => g.id(name)),
        );
        // The same words about someone else, and Tomas with only "plant" of the taught words: no cue.
        expect((await resultFor('What did Greta plant on the balcony?', g.id('patio')))?.cue).toBeUndefined();
        expect((await resultFor('What did Tomas plant near the door?', g.id('patio')))?.cue).toBeUndefined();
      });

      it('moves with its association: NOT_RELEVANT weakens it, and reverting the event that made it silences the cue', async () => {
        const g = await t.seed(cuesGraph);
        await teach(g.id('patio'));
        const asked = 'What did Tomas plant on the balcony?';
        const edge = await t.store.findEdge(WS, g.id('door'), g.id('patio'), LEARNED_RELATION);
        const { record } = await recall(context(), recallInput({ query: asked, maxDepth: 1 }), failOnLog);
        const [change] = await recallFeedback(
          writeScope(context()),
          { recallId: record.id, memoryId: g.id('patio'), signal: 'NOT_RELEVANT', source: 'CONSCIOUS' },
          DEFAULT_RECALL_SETTINGS,
        );
        expect(change?.edge?.id).toBe(edge?.id);
        expect(change?.edge?.weight).toBeCloseTo(
          DEFAULT_RECALL_SETTINGS.learnedWeight - POLICY.tierDelta.CONSCIOUS,
          12,
        );
        const weaker = await resultFor(asked, g.id('patio'));
        expect(weaker?.cue?.match).toBe(0.5);
        const [history] = await t.store.getEdgeHistories(WS, [edge?.id as string], 5);
        const learnedEvent = history?.find((event) => event.old === 0);
        await revertWeightEvent(writeScope(context()), learnedEvent?.id as string);
        expect((await resultFor(asked, g.id('patio')))?.cue).toBeUndefined();
      });

      it('learns no question with learnedPerMemory 0, and drops its cues with the memory', async () => {
        const g = await t.seed(cuesGraph);
        const { record } = await recall(context(), recallInput({ query: TAUGHT, maxDepth: 1 }), failOnLog);
        await recallFeedback(
          writeScope(context()),
          { recallId: record.id, memoryId: g.id('patio'), signal: 'USED', source: 'CONSCIOUS' },
          { ...DEFAULT_RECALL_SETTINGS, learnedPerMemory: 0 },
        );
        expect(await t.inspect.countRows('recall_cues', WS)).toBe(0);
        await teach(g.id('patio'));
        expect(await t.inspect.countRows('recall_cues', WS)).toBe(1);
        await deleteMemory(writeScope(context()), g.id('patio'));
        expect(await t.inspect.countRows('recall_cues', WS)).toBe(0);
      });
    });
  });
}
