import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTINGS } from '../../../src/config.js';
import { type AssociationCandidates, associationTerms, termWeight } from '../../../src/domain/associations.js';
import { EngramError } from '../../../src/domain/errors.js';
import { writeScope } from '../../../src/graphql/context.js';
import { ASSOCIATION_SHARE } from '../../../src/services/recall/activation.js';
import { LEARNED_RELATION } from '../../../src/services/recall/learning.js';
import type { RecallInput } from '../../../src/services/recall/recall.js';
import { recall } from '../../../src/services/recall/recall.js';
import { recallFeedback } from '../../../src/services/recall/recall-feedback.js';
import { createMemory, deleteMemory, updateMemory } from '../../../src/services/writes.js';
import {
  type ContractContext,
  failOnLog,
  newMemory,
  OTHER,
  recallContext,
  recallInput,
  rejection,
  T0,
  T1,
  WS,
} from '../contract-kit.js';

const QUERY = { maxShared: 2, budget: 1_000 };

/** An answer with its lists in a fixed order, to compare across stores. */
const sorted = (answer: AssociationCandidates) => ({
  sources: answer.sources.map((source) => ({
    memoryId: source.memoryId,
    terms: [...source.terms].sort((a, b) => (a.term < b.term ? -1 : 1)),
  })),
  candidates: [...answer.candidates]
    .map((candidate) => ({ memoryId: candidate.memoryId, terms: [...candidate.terms].sort() }))
    .sort((a, b) => (a.memoryId < b.memoryId ? -1 : 1)),
  truncated: answer.truncated,
});

/** Association terms kept by the stores, and recall spreading through them (docs/recall.md, Associations). */
export function associationCases(t: ContractContext): void {
  describe('association terms', () => {
    it('keeps the terms a memory is written with and lists who shares a rare one', async () => {
      await t.createMemory({ id: 'a', terms: ['bologna', 'cyrus', 'team'] });
      await t.createMemory({ id: 'b', terms: ['cyrus', 'place', 'team'] });
      await t.createMemory({ id: 'c', terms: ['team'] });
      await t.createMemory({ id: 'd', title: 'No terms' });
      const answer = await t.store.associationCandidates(WS, ['a', 'd'], QUERY);
      // "team" is held by three, over the ceiling of 2: counted to 3 and followed nowhere.
      expect(sorted(answer)).toEqual({
        sources: [
          {
            memoryId: 'a',
            terms: [
              { term: 'bologna', holders: 1 },
              { term: 'cyrus', holders: 2 },
              { term: 'team', holders: 3 },
            ],
          },
        ],
        candidates: [{ memoryId: 'b', terms: ['cyrus', 'place', 'team'] }],
        truncated: false,
      });
    });

    it('replaces the terms on update, removes them with the memory, and keeps workspaces apart', async () => {
      await t.createMemory({ id: 'a', terms: ['cyrus'] });
      await t.createMemory({ id: 'b', terms: ['cyrus'] });
      await t.createMemory({ id: 'x', terms: ['cyrus'] }, OTHER);
      expect((await t.store.associationCandidates(WS, ['a'], QUERY)).candidates.map((c) => c.memoryId)).toEqual(['b']);
      await t.store.updateMemory(WS, 'b', { title: 'Renamed', terms: ['bologna'] }, T1);
      expect((await t.store.associationCandidates(WS, ['a'], QUERY)).candidates).toEqual([]);
      expect((await t.store.associationCandidates(WS, ['b'], QUERY)).sources).toEqual([
        { memoryId: 'b', terms: [{ term: 'bologna', holders: 1 }] },
      ]);
      // An update that leaves the terms out keeps them.
      await t.store.updateMemory(WS, 'b', { kind: 'note' }, T1);
      expect((await t.store.associationCandidates(WS, ['b'], QUERY)).sources[0]?.terms).toHaveLength(1);
      await t.store.createMemory(WS, newMemory({ id: 'c', terms: ['bologna'] }), T0);
      await t.store.deleteMemory(WS, 'c');
      expect((await t.store.associationCandidates(WS, ['b'], QUERY)).sources[0]?.terms).toEqual([
        { term: 'bologna', holders: 1 },
      ]);
      // Export is listMemories: the terms are derived data and never part of a record.
      const [listed] = await t.store.listMemories(WS, { afterId: 'a', limit: 1 });
      expect(listed).not.toHaveProperty('terms');
    });

    it('imports terms with a batch (a memory named twice keeps its last) and replaces them on a re-import', async () => {
      await t.store.importBatch(
        WS,
        {
          memories: [
            newMemory({ id: 'a', terms: ['first'] }),
            newMemory({ id: 'b', terms: ['cyrus'] }),
            newMemory({ id: 'a', terms: ['cyrus'] }),
          ],
          edges: [],
        },
        T0,
      );
      expect(sorted(await t.store.associationCandidates(WS, ['a'], QUERY)).candidates).toEqual([
        { memoryId: 'b', terms: ['cyrus'] },
      ]);
      await t.store.importBatch(WS, { memories: [newMemory({ id: 'b', terms: ['bologna'] })], edges: [] }, T1);
      expect((await t.store.associationCandidates(WS, ['a'], QUERY)).candidates).toEqual([]);
    });

    it('stops at its budget and says so', async () => {
      await t.createMemory({ id: 'a', terms: ['cyrus', 'nora'] });
      await t.createMemory({ id: 'b', terms: ['cyrus'] });
      await t.createMemory({ id: 'c', terms: ['nora'] });
      const full = await t.store.associationCandidates(WS, ['a'], QUERY);
      expect(full.candidates).toHaveLength(2);
      const cut = await t.store.associationCandidates(WS, ['a'], { ...QUERY, budget: 2 });
      expect(cut.truncated).toBe(true);
      expect(cut.candidates).toHaveLength(1);
    });
  });

  describe('recall through associations', () => {
    const context = (associations = true) => recallContext(t.store, { ...DEFAULT_RECALL_SETTINGS, associations });
    const input = recallInput;
    const fail = failOnLog;
    const INTRO = 'Rosa: my team lead Cyrus is great';
    const NEWS = 'Cyrus got a place in Bologna';

    it('reaches a memory that shares no word with the question through a name it shares with a match', async () => {
      const scope = writeScope(context());
      const intro = await createMemory(scope, { title: INTRO });
      const news = await createMemory(scope, { title: NEWS });
      const { record } = await recall(context(), input({ query: 'team lead' }), fail);
      expect(record.results.map((result) => result.memoryId)).toEqual([intro.id, news.id]);
      // The intro's terms: cyrus (2 holders), lead, rosa, team (1 each); lead and team are the
      // question's, so the weight is the share of the rest (cyrus, rosa) the news shares: cyrus.
      const max = DEFAULT_RECALL_SETTINGS.associationMaxShared;
      const weight = termWeight(2, max) / (termWeight(2, max) + termWeight(1, max));
      expect(associationTerms({ title: INTRO, content: null, tags: [] })).toEqual(['cyrus', 'lead', 'rosa', 'team']);
      const [, reached] = record.results;
      expect(reached?.score).toBeCloseTo(ASSOCIATION_SHARE * 1 * weight * DEFAULT_RECALL_SETTINGS.decay, 12);
      expect(reached?.seed).toBe(false);
      expect(reached?.path).toEqual([]);
      expect(reached?.associations).toEqual([
        { fromId: intro.id, toId: news.id, terms: ['cyrus'], weight: expect.closeTo(weight, 12), at: 0 },
      ]);
      expect(await t.store.getRecall(WS, record.id, record.createdAt)).toEqual(record);

      // Turned off: no association, and a memory written meanwhile gets no terms.
      const { record: plain } = await recall(context(false), input({ query: 'team lead' }), fail);
      expect(plain.results.map((result) => result.memoryId)).toEqual([intro.id]);
      const quiet = await createMemory(writeScope(context(false)), { title: 'Cyrus again' });
      expect((await t.store.associationCandidates(WS, [quiet.id], QUERY)).sources).toEqual([]);
    });

    it('feedback on a memory an association brought learns a real edge, and has no edge to weaken', async () => {
      const scope = writeScope(context());
      const intro = await createMemory(scope, { title: INTRO });
      const news = await createMemory(scope, { title: NEWS });
      const { record } = await recall(context(), input({ query: 'team lead' }), fail);
      const error = await rejection(
        recallFeedback(
          writeScope(context()),
          { recallId: record.id, memoryId: news.id, signal: 'NOT_RELEVANT', source: 'CONSCIOUS' },
          DEFAULT_RECALL_SETTINGS,
        ),
      );
      expect(error).toBeInstanceOf(EngramError);
      expect((error as EngramError).code).toBe('BAD_USER_INPUT');
      expect((error as EngramError).message).toMatch(/association/);
      await recallFeedback(
        writeScope(context()),
        { recallId: record.id, memoryId: news.id, signal: 'USED', source: 'CONSCIOUS' },
        DEFAULT_RECALL_SETTINGS,
      );
      const learned = await t.store.findEdge(WS, intro.id, news.id, LEARNED_RELATION);
      expect(learned?.weight).toBeCloseTo(DEFAULT_RECALL_SETTINGS.learnedWeight, 12);
    });

    describe("with vectors: the bridge the question's vector chooses", () => {
      const QUESTION = 'When will the owner of the Nimbus ETL job be back?';
      /** The best word match (it holds four of the question's words), five more, the later note it continues in, and a nearer note of another project. */
      async function nimbusNotes(associations = true) {
        const scope = writeScope(context(associations));
        const write = (title: string) => createMemory(scope, { title });
        const owner = await write('Nimbus ETL job owner: Pavel');
        const matches = [];
        for (const title of [
          'Nimbus ETL job review',
          'Nimbus ETL job pressure',
          'Nimbus ETL job rota',
          'Nimbus ETL job runs nightly',
          'Nimbus ETL job failed twice',
        ])
          matches.push(await write(title));
        const leave = await write('Nimbus calendar: Pavel on leave until October');
        const elsewhere = await write('Lumen calendar: Pavel on leave until May');
        return { owner, matches, leave, elsewhere };
      }
      /**
       * A fixed answer stands in for the embeddings endpoint: what is under test is the bridge. A
       * ceiling of 2 holders makes "pavel" (3) a name word associations cannot follow, as a name
       * forty notes hold is on a larger workspace.
       */
      const withVectors = (similarities: [string, number][], associations = true) => ({
        ...recallContext(t.store, { ...DEFAULT_RECALL_SETTINGS, associations, associationMaxShared: 2 }),
        vectorMatcher: async () => similarities.map(([memoryId, similarity]) => ({ memoryId, similarity })),
      });

      it("puts the most similar memory holding the best word match's other name and the question's name fifth, carried by that name", async () => {
        const { owner, matches, leave, elsewhere } = await nimbusNotes();
        const similarities: [string, number][] = [
          [owner.id, 0.9],
          [elsewhere.id, 0.8],
          ...matches.map((match, index): [string, number] => [match.id, 0.79 - index / 100]),
          [leave.id, 0.7],
        ];
        const asked = async (associations: boolean) =>
          (await recall(withVectors(similarities, associations), input({ query: QUESTION, limit: 6 }), fail)).record;
        const plain = await asked(false);
        const record = await asked(true);
        expect(plain.results.map((result) => result.memoryId)).not.toContain(leave.id);
        const ids = record.results.map((result) => result.memoryId);
        expect(ids[0]).toBe(owner.id);
        expect(ids.indexOf(leave.id)).toBe(4);
        const bridged = record.results[4];
        expect(bridged).toEqual({
          memoryId: leave.id,
          score: plain.results[4]?.score,
          lexical: null,
          vector: 0.7,
          graph: null,
          seed: false,
          path: [],
          associations: [
            { kind: 'QUESTION_VECTOR', fromId: owner.id, toId: leave.id, terms: ['pavel'], weight: 0.7, at: 0 },
          ],
        });
        // The results it moved down keep their order, and the last falls off.
        expect(
          record.results.filter((result) => result.memoryId !== leave.id).map((result) => result.memoryId),
        ).toEqual(plain.results.slice(0, 5).map((result) => result.memoryId));
        expect(await t.store.getRecall(WS, record.id, record.createdAt)).toEqual(record);
        // USED on it learns an association from the recall's best seeds, as for any result.
        await recallFeedback(
          writeScope(context()),
          { recallId: record.id, memoryId: leave.id, signal: 'USED', source: 'CONSCIOUS' },
          DEFAULT_RECALL_SETTINGS,
        );
        expect((await t.store.findEdge(WS, owner.id, leave.id, LEARNED_RELATION))?.weight).toBeCloseTo(
          DEFAULT_RECALL_SETTINGS.learnedWeight,
          12,
        );
      });

      it('starts from the best word match, not from a vector match that leads the answer', async () => {
        const { owner, matches, leave } = await nimbusNotes();
        const scope = writeScope(context());
        const standup = await createMemory(scope, { title: 'Nimbus standup: Joanna on call' });
        const rota = await createMemory(scope, { title: 'Nimbus rota: Joanna swaps with Kai' });
        const similarities: [string, number][] = [
          [standup.id, 0.95],
          ...matches.map((match): [string, number] => [match.id, 0.6]),
          [rota.id, 0.59],
          [leave.id, 0.58],
          [owner.id, 0.5],
        ];
        const { record } = await recall(withVectors(similarities), input({ query: QUESTION, limit: 6 }), fail);
        // The vector match leads (it starts at 1), but its name, Joanna, would bridge to the rota.
        expect(record.results[0]?.memoryId).toBe(standup.id);
        const bridged = record.results.find((result) => result.associations?.[0]?.kind === 'QUESTION_VECTOR');
        expect(bridged?.memoryId).toBe(leave.id);
        expect(bridged?.associations?.[0]?.fromId).toBe(owner.id);
        expect(record.results.map((result) => result.memoryId)).not.toContain(rota.id);
      });

      it('leaves the answer as it is when the bridge already ranks fifth or better, for a limit of 1, and for a question without names', async () => {
        const { owner, matches, leave } = await nimbusNotes();
        const ids = async (similarities: [string, number][], fields: Partial<RecallInput>) =>
          (await recall(withVectors(similarities), input(fields), fail)).record.results.map(
            (result) => result.memoryId,
          );
        const near: [string, number][] = [
          [owner.id, 0.9],
          [leave.id, 0.85],
          ...matches.map((match): [string, number] => [match.id, 0.5]),
        ];
        const answer = await ids(near, { query: QUESTION, limit: 6 });
        expect(answer.indexOf(leave.id)).toBeGreaterThan(0);
        expect(answer.indexOf(leave.id)).toBeLessThan(4);
        const far: [string, number][] = [
          [owner.id, 0.9],
          ...matches.map((match): [string, number] => [match.id, 0.8]),
          [leave.id, 0.7],
        ];
        expect(await ids(far, { query: QUESTION, limit: 1 })).toEqual([owner.id]);
        expect(await ids(far, { query: QUESTION.toLowerCase(), limit: 6 })).not.toContain(leave.id);
      });
    });

    it('updates and deletions through the write services keep the associations current', async () => {
      const scope = writeScope(context());
      const intro = await createMemory(scope, { title: INTRO });
      const news = await createMemory(scope, { title: 'Got a place in Bologna' });
      const ids = async () =>
        (await recall(context(), input({ query: 'team lead' }), fail)).record.results.map((result) => result.memoryId);
      expect(await ids()).toEqual([intro.id]);
      await updateMemory(scope, news.id, { title: NEWS });
      expect(await ids()).toEqual([intro.id, news.id]);
      await deleteMemory(scope, news.id);
      expect(await ids()).toEqual([intro.id]);
    });
  });
}
