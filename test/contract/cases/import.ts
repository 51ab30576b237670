import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import type { ImportBatch, ImportEdge } from '../../../src/store/port.js';
import { type ContractContext, expectCode, newMemory, OTHER, T0, T1, WS } from '../contract-kit.js';

const importEdge = (fromId: string, toId: string, fields: Partial<ImportEdge> = {}): ImportEdge => ({
  id: newId(),
  fromId,
  toId,
  type: 'CITES',
  weight: 0.5,
  metadata: null,
  ...fields,
});

/** The GraphStore contract, bulk import and the keyset pages export reads. */
export function importCases(t: ContractContext): void {
  /** Three memories and two edges between them, as a file would carry them. */
  const sample = (): ImportBatch => {
    const memories = ['imp-a', 'imp-b', 'imp-c'].map((id) => newMemory({ id, key: `key-${id}`, title: `Title ${id}` }));
    return {
      memories,
      edges: [
        importEdge('imp-a', 'imp-b', { id: 'imp-e1', weight: 0.7, metadata: { from: 'file' } }),
        importEdge('imp-b', 'imp-c', { id: 'imp-e2', type: 'EXTENDS' }),
      ],
    };
  };

  describe('importBatch', () => {
    it('stores memories and edges as given, writes no weight events, and counts what it took', async () => {
      expect(await t.store.importBatch(WS, sample(), T0)).toEqual({ memories: 3, edges: 2 });
      expect(await t.inspect.countRows('memories', WS)).toBe(3);
      expect(await t.inspect.rawEdges(WS)).toEqual([
        {
          id: 'imp-e1',
          fromId: 'imp-a',
          toId: 'imp-b',
          type: 'CITES',
          weight: 0.7,
          metadata: { from: 'file' },
          lastConfirmedAt: null,
        },
        {
          id: 'imp-e2',
          fromId: 'imp-b',
          toId: 'imp-c',
          type: 'EXTENDS',
          weight: 0.5,
          metadata: null,
          lastConfirmedAt: null,
        },
      ]);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(0);
      expect(await t.inspect.countRows('memories', OTHER)).toBe(0);
    });

    it('is idempotent: the same batch twice leaves the same rows', async () => {
      await t.store.importBatch(WS, sample(), T0);
      const before = await t.inspect.rawEdges(WS);
      await t.store.importBatch(WS, sample(), T1);
      expect(await t.inspect.countRows('memories', WS)).toBe(3);
      expect(await t.inspect.rawEdges(WS)).toEqual(before);
    });

    it('replaces memory fields by id and edge weight and metadata by triple, keeping the edge id', async () => {
      await t.store.importBatch(WS, sample(), T0);
      const again = sample();
      again.memories[0] = newMemory({ id: 'imp-a', key: 'key-imp-a', title: 'Retitled' });
      again.edges[0] = importEdge('imp-a', 'imp-b', { id: 'another-id', weight: 0.2, metadata: null });
      await t.store.importBatch(WS, again, T1);
      expect((await t.inspect.rawMemory(WS, 'imp-a'))?.title).toBe('Retitled');
      expect(await t.inspect.rawEdge(WS, 'imp-e1')).toMatchObject({ weight: 0.2, metadata: null });
      expect(await t.inspect.rawEdge(WS, 'another-id')).toBeNull();
      expect(await t.inspect.countRows('edges', WS)).toBe(2);
    });

    it('links to memories already in the store', async () => {
      await t.store.importBatch(WS, { memories: sample().memories, edges: [] }, T0);
      await t.store.importBatch(WS, { memories: [], edges: [importEdge('imp-c', 'imp-a', { id: 'imp-e3' })] }, T1);
      expect((await t.inspect.rawEdge(WS, 'imp-e3'))?.fromId).toBe('imp-c');
    });

    it('refuses an edge to a memory in neither the batch nor the store (NOT_FOUND), writing nothing of the batch', async () => {
      const batch = sample();
      batch.edges.push(importEdge('imp-a', 'nowhere'));
      await expectCode(t.store.importBatch(WS, batch, T0), 'NOT_FOUND');
      expect(await t.inspect.countRows('memories', WS)).toBe(0);
      expect(await t.inspect.countRows('edges', WS)).toBe(0);
    });

    it('refuses a key another memory holds (CONFLICT), writing nothing of the batch', async () => {
      await t.createMemory({ id: 'holder', key: 'key-imp-b' });
      await expectCode(t.store.importBatch(WS, sample(), T0), 'CONFLICT');
      expect(await t.inspect.countRows('memories', WS)).toBe(1);
      expect(await t.inspect.countRows('edges', WS)).toBe(0);
    });
  });

  describe('listMemories and listEdges', () => {
    it('page through the workspace in id order after a cursor', async () => {
      await t.store.importBatch(WS, sample(), T0);
      await t.store.importBatch(OTHER, sample(), T0);
      const first = await t.store.listMemories(WS, { afterId: null, limit: 2 });
      expect(first.map((memory) => memory.id)).toEqual(['imp-a', 'imp-b']);
      const rest = await t.store.listMemories(WS, { afterId: 'imp-b', limit: 2 });
      expect(rest.map((memory) => memory.id)).toEqual(['imp-c']);
      expect(await t.store.listMemories(WS, { afterId: 'imp-c', limit: 2 })).toEqual([]);
      const edges = await t.store.listEdges(WS, { afterId: null, limit: 1 });
      expect(edges.map((edge) => [edge.id, edge.fromId, edge.toId, edge.type])).toEqual([
        ['imp-e1', 'imp-a', 'imp-b', 'CITES'],
      ]);
      expect((await t.store.listEdges(WS, { afterId: 'imp-e1', limit: 5 })).map((edge) => edge.id)).toEqual(['imp-e2']);
    });
  });
}
