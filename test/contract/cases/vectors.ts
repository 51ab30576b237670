import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../../src/domain/types.js';
import type { ContractContext } from '../contract-kit.js';
import { newMemory, OTHER, T0, T1, WS } from '../contract-kit.js';

/** Unit vectors in 4 dimensions, at known angles from QUERY = [1, 0, 0, 0]. */
const QUERY = [1, 0, 0, 0];
const NEAR = [0.9, 0.1, 0, 0];
const MIDDLE = [0.5, 0.5, 0, 0];
const FAR = [0, 0, 1, 0];
const OPPOSITE = [-1, 0, 0, 0];

/** The GraphStore contract for embeddings: storage, nearest neighbours, the back-fill queue. */
export function vectorCases(t: ContractContext): void {
  describe('vectors', () => {
    const seedVectors = async (workspace = WS) => {
      const ids: Record<string, string> = {};
      const entries = Object.entries({ near: NEAR, middle: MIDDLE, far: FAR, opposite: OPPOSITE });
      for (const [name] of entries) ids[name] = (await t.createMemory({ title: name }, workspace)).id;
      const stored = await t.store.setEmbeddings(
        workspace,
        entries.map(([name, vector]) => ({ memoryId: ids[name] as string, vector })),
      );
      expect(stored).toBe(4);
      return ids;
    };

    it('gives the k nearest by cosine distance, nearest first', async () => {
      const ids = await seedVectors();
      const nearest = await t.store.nearestMemories(WS, QUERY, 3);
      expect(nearest.map((match) => match.memoryId)).toEqual([ids.near, ids.middle, ids.far]);
      expect(nearest[0]?.distance).toBeCloseTo(1 - 0.9 / Math.hypot(0.9, 0.1), 5);
      expect(nearest[2]?.distance).toBeCloseTo(1, 5);
      const all = await t.store.nearestMemories(WS, QUERY, 10);
      expect(all.at(-1)).toEqual({ memoryId: ids.opposite, distance: expect.closeTo(2, 5) });
    });

    it('fixes the dimension with the first vector and refuses another length, storing nothing of the batch', async () => {
      const [a, b] = [await t.createMemory({ title: 'a' }), await t.createMemory({ title: 'b' })];
      expect(await t.store.embeddingDimensions(WS)).toBeNull();
      await t.store.setEmbeddings(WS, [{ memoryId: a.id, vector: QUERY }]);
      expect(await t.store.embeddingDimensions(WS)).toBe(4);
      await expect(
        t.store.setEmbeddings(WS, [
          { memoryId: b.id, vector: NEAR },
          { memoryId: a.id, vector: [1, 0, 0] },
        ]),
      ).rejects.toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/4 dimensions; got 3/) });
      expect(await t.store.hasEmbeddings(WS, [a.id, b.id])).toEqual([true, false]);
      expect(await t.store.nearestMemories(WS, [1, 0, 0], 5)).toEqual([]);
    });

    it('keeps workspaces apart, each with its own dimension', async () => {
      const here = await seedVectors(WS);
      const there = (await t.createMemory({ title: 'there' }, OTHER)).id;
      await t.store.setEmbeddings(OTHER, [{ memoryId: there, vector: [1, 0] }]);
      expect(await t.store.embeddingDimensions(OTHER)).toBe(2);
      expect((await t.store.nearestMemories(WS, QUERY, 10)).map((match) => match.memoryId)).not.toContain(there);
      expect(await t.store.nearestMemories(OTHER, [1, 0], 10)).toEqual([
        { memoryId: there, distance: expect.closeTo(0, 5) },
      ]);
      expect(await t.store.hasEmbeddings(OTHER, [here.near as string])).toEqual([false]);
    });

    it('queues new memories, and a memory again when its text changes, dropping the old vector', async () => {
      const memory = await t.createMemory({ title: 'first', content: 'text' });
      expect((await t.store.memoriesNeedingEmbedding(WS, 10)).map((queued) => queued.id)).toEqual([memory.id]);
      expect(await t.store.workspacesNeedingEmbedding(10)).toEqual([WS]);
      await t.store.setEmbeddings(WS, [{ memoryId: memory.id, vector: QUERY }]);
      expect(await t.store.memoriesNeedingEmbedding(WS, 10)).toEqual([]);
      expect(await t.store.workspacesNeedingEmbedding(10)).toEqual([]);

      await t.store.updateMemory(WS, memory.id, { tags: ['kept'] }, T1);
      expect(await t.store.hasEmbeddings(WS, [memory.id])).toEqual([true]);
      await t.store.updateMemory(WS, memory.id, { content: 'new text' }, T1);
      expect(await t.store.hasEmbeddings(WS, [memory.id])).toEqual([false]);
      expect(await t.store.nearestMemories(WS, QUERY, 5)).toEqual([]);
      expect((await t.store.memoriesNeedingEmbedding(WS, 10)).map((queued) => queued.content)).toEqual(['new text']);
    });

    it('queues an imported memory again only when the import changes its text, dropping the old vector', async () => {
      const [kept, retitled, rewritten] = ['kept', 'retitled', 'rewritten'].map((title) =>
        newMemory({ id: `import-${title}`, title, content: 'text' }),
      ) as [NewMemory, NewMemory, NewMemory];
      const ids = [kept.id, retitled.id, rewritten.id];
      const queuedIds = async () => (await t.store.memoriesNeedingEmbedding(WS, 10)).map((queued) => queued.id).sort();
      await t.store.importBatch(WS, { memories: [kept, retitled, rewritten], edges: [] }, T0);
      expect(await queuedIds()).toEqual(ids);
      await t.store.setEmbeddings(
        WS,
        ids.map((memoryId) => ({ memoryId, vector: QUERY })),
      );
      expect(await queuedIds()).toEqual([]);

      const changed = [
        { ...kept, tags: ['new tag'] },
        { ...retitled, title: 'new title' },
        { ...rewritten, content: null },
      ];
      await t.store.importBatch(WS, { memories: changed, edges: [] }, T1);
      expect(await t.store.hasEmbeddings(WS, ids)).toEqual([true, false, false]);
      expect(await queuedIds()).toEqual([retitled.id, rewritten.id]);
    });

    it('skips an item whose text changed since it was embedded, and one whose memory is gone', async () => {
      const memory = await t.createMemory({ title: 'before' });
      await t.store.updateMemory(WS, memory.id, { title: 'after' }, T1);
      const stale = { memoryId: memory.id, vector: QUERY, ifText: { title: 'before', content: null } };
      expect(await t.store.setEmbeddings(WS, [stale, { memoryId: 'gone', vector: QUERY }])).toBe(0);
      expect(await t.store.hasEmbeddings(WS, [memory.id])).toEqual([false]);
      const current = { ...stale, ifText: { title: 'after', content: null } };
      expect(await t.store.setEmbeddings(WS, [current])).toBe(1);
    });

    it('forgets the vector and the queue entry of a deleted memory', async () => {
      const ids = await seedVectors();
      const waiting = await t.createMemory({ title: 'waiting' });
      await t.store.deleteMemory(WS, ids.near as string);
      await t.store.deleteMemory(WS, waiting.id);
      expect((await t.store.nearestMemories(WS, QUERY, 10)).map((match) => match.memoryId)).toEqual([
        ids.middle,
        ids.far,
        ids.opposite,
      ]);
      expect(await t.store.memoriesNeedingEmbedding(WS, 10)).toEqual([]);
    });

    it('bounds the queue read by its limit, oldest first', async () => {
      const created = [];
      for (let index = 0; index < 5; index++) created.push(await t.createMemory({ title: `m${index}` }));
      const queued = await t.store.memoriesNeedingEmbedding(WS, 2);
      expect(queued.map((memory) => memory.id)).toEqual([created[0]?.id, created[1]?.id]);
    });
  });
}
