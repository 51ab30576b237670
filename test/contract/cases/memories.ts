import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import { chain, disconnected, library, star } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import { adjacency, expectCode, newMemory, OTHER, search, sortedIds, T0, T1, T2, WS } from '../contract-kit.js';

/** The GraphStore contract, memories: read by id or key, created, patched, deleted, searched. */
export function memoryCases(t: ContractContext): void {
  const { seed, createMemory } = t;

  describe('getMemories', () => {
    it('returns every field as it was created', async () => {
      const input = newMemory({
        key: 'postgres-choice',
        title: 'Postgres as the primary store',
        content: 'Chosen for transactions.',
        kind: 'decision',
        tags: ['database', 'architecture', 'adr'],
        weight: 0.75,
        metadata: { source: 'meeting', votes: 3, nested: { ok: true, list: [1, 'two', null] } },
      });
      await t.store.createMemory(WS, input, T1);
      const [found] = await t.store.getMemories(WS, [input.id]);
      expect(found).toEqual({ ...input, createdAt: T1, updatedAt: T1 });
    });

    it('answers in key order with null for missing references, repeating duplicates', async () => {
      const g = await seed(chain);
      const missing = newId();
      const result = await t.store.getMemories(WS, [g.id('c'), missing, g.id('a'), g.id('c')]);
      expect(result.map((memory) => memory?.id ?? null)).toEqual([g.id('c'), null, g.id('a'), g.id('c')]);
    });

    it('returns an empty list for no references', async () => {
      await seed(chain);
      expect(await t.store.getMemories(WS, [])).toEqual([]);
    });

    it('resolves a reference by key', async () => {
      const g = await seed(chain);
      const result = await t.store.getMemories(WS, ['chain-b', g.id('d'), 'no-such-key']);
      expect(result.map((memory) => memory?.id ?? null)).toEqual([g.id('b'), g.id('d'), null]);
    });

    it('prefers the memory whose id matches over the one whose key matches', async () => {
      const byIdMemory = await createMemory({ title: 'Matched by id' });
      const byKeyMemory = await createMemory({ title: 'Matched by key', key: byIdMemory.id });
      const [found] = await t.store.getMemories(WS, [byIdMemory.id]);
      expect(found?.id).toBe(byIdMemory.id);
      expect(byKeyMemory.key).toBe(byIdMemory.id);
    });

    it('falls back to the key when no id matches, even when the key looks like an id', async () => {
      const key = newId();
      const memory = await createMemory({ key });
      const [found] = await t.store.getMemories(WS, [key]);
      expect(found?.id).toBe(memory.id);
    });

    it('keeps the memories of another workspace invisible, by id and by key', async () => {
      const g = await seed(chain, OTHER);
      const result = await t.store.getMemories(WS, [g.id('a'), 'chain-a']);
      expect(result).toEqual([null, null]);
      expect((await t.store.getMemories(OTHER, [g.id('a')]))[0]?.id).toBe(g.id('a'));
    });
  });

  describe('createMemory', () => {
    it('stores the memory and returns it with createdAt and updatedAt set to now', async () => {
      const input = newMemory({
        key: 'k1',
        title: 'Title',
        content: 'Body',
        kind: 'fact',
        tags: ['x'],
        weight: 0.3,
        metadata: { a: 1 },
      });
      const created = await t.store.createMemory(WS, input, T1);
      expect(created).toEqual({ ...input, createdAt: T1, updatedAt: T1 });
      expect(await t.inspect.rawMemory(WS, input.id)).toMatchObject({
        id: input.id,
        key: 'k1',
        title: 'Title',
        content: 'Body',
        weight: 0.3,
      });
      expect(await t.inspect.countRows('memories', WS)).toBe(1);
    });

    it('rejects a duplicate id in the workspace with CONFLICT and keeps the first', async () => {
      const first = await createMemory({ title: 'First' });
      await expectCode(t.store.createMemory(WS, newMemory({ id: first.id, title: 'Second' }), T1), 'CONFLICT');
      expect(await t.inspect.countRows('memories', WS)).toBe(1);
      expect((await t.inspect.rawMemory(WS, first.id))?.title).toBe('First');
    });

    it('rejects a duplicate key in the workspace with CONFLICT', async () => {
      await createMemory({ key: 'taken' });
      await expectCode(t.store.createMemory(WS, newMemory({ key: 'taken' }), T1), 'CONFLICT');
      expect(await t.inspect.countRows('memories', WS)).toBe(1);
    });

    it('allows the same key in another workspace', async () => {
      const here = await createMemory({ key: 'shared-key' });
      const there = await createMemory({ key: 'shared-key' }, OTHER);
      expect((await t.store.getMemories(WS, ['shared-key']))[0]?.id).toBe(here.id);
      expect((await t.store.getMemories(OTHER, ['shared-key']))[0]?.id).toBe(there.id);
    });

    it('allows many memories without a key', async () => {
      await createMemory({ key: null });
      await createMemory({ key: null });
      expect(await t.inspect.countRows('memories', WS)).toBe(2);
    });

    it('stores text with quotes and SQL as plain data', async () => {
      const title = `Robert'); DROP TABLE memories; -- "quoted"`;
      const memory = await createMemory({ title, content: "it's \\ fine" });
      expect((await t.store.getMemories(WS, [memory.id]))[0]).toMatchObject({ title, content: "it's \\ fine" });
      expect(await t.inspect.countRows('memories', WS)).toBe(1);
    });
  });

  describe('updateMemory', () => {
    const full = () =>
      newMemory({
        key: 'orig-key',
        title: 'Original',
        content: 'Original body',
        kind: 'fact',
        tags: ['a', 'b'],
        weight: 0.6,
        metadata: { v: 1 },
      });

    it('changes only the fields present and keeps the rest', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const updated = await t.store.updateMemory(WS, original.id, { title: 'Renamed' }, T1);
      expect(updated).toEqual({ ...original, title: 'Renamed', updatedAt: T1 });
      expect((await t.store.getMemories(WS, [original.id]))[0]).toEqual(updated);
      expect((await t.inspect.rawMemory(WS, original.id))?.title).toBe('Renamed');
    });

    it('clears nullable fields given as null', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const updated = await t.store.updateMemory(
        WS,
        original.id,
        { key: null, content: null, kind: null, metadata: null },
        T1,
      );
      expect(updated).toEqual({ ...original, key: null, content: null, kind: null, metadata: null, updatedAt: T1 });
      expect(await t.store.getMemories(WS, ['orig-key'])).toEqual([null]);
    });

    it('replaces tags, content, kind, key and metadata when given', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const patch = { key: 'new-key', content: 'New body', kind: 'decision', tags: ['c'], metadata: { w: 2 } };
      const updated = await t.store.updateMemory(WS, original.id, patch, T1);
      expect(updated).toEqual({ ...original, ...patch, updatedAt: T1 });
      expect((await t.store.getMemories(WS, ['new-key']))[0]?.id).toBe(original.id);
    });

    it('treats a field set to undefined as absent', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const patch = {
        key: undefined,
        content: undefined,
        kind: undefined,
        tags: undefined,
        metadata: undefined,
        title: 'Renamed',
      };
      const updated = await t.store.updateMemory(WS, original.id, patch, T1);
      expect(updated).toEqual({ ...original, title: 'Renamed', updatedAt: T1 });
    });

    it('sets updatedAt to now and keeps createdAt', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const updated = await t.store.updateMemory(WS, original.id, {}, T2);
      expect(updated?.createdAt).toBe(T0);
      expect(updated?.updatedAt).toBe(T2);
    });

    it('rejects a key taken by another memory with CONFLICT and changes nothing', async () => {
      await createMemory({ key: 'taken' });
      const original = await t.store.createMemory(WS, full(), T0);
      await expectCode(
        t.store.updateMemory(WS, original.id, { key: 'taken', title: 'Should not stick' }, T1),
        'CONFLICT',
      );
      expect((await t.store.getMemories(WS, [original.id]))[0]).toEqual(original);
    });

    it('accepts the key the memory already has', async () => {
      const original = await t.store.createMemory(WS, full(), T0);
      const updated = await t.store.updateMemory(WS, original.id, { key: 'orig-key' }, T1);
      expect(updated?.key).toBe('orig-key');
    });

    it('allows a key taken only in another workspace', async () => {
      await createMemory({ key: 'elsewhere' }, OTHER);
      const original = await t.store.createMemory(WS, full(), T0);
      expect((await t.store.updateMemory(WS, original.id, { key: 'elsewhere' }, T1))?.key).toBe('elsewhere');
    });

    it('answers null for a missing memory', async () => {
      expect(await t.store.updateMemory(WS, newId(), { title: 'Nobody' }, T1)).toBeNull();
      expect(await t.inspect.countRows('memories', WS)).toBe(0);
    });

    it('answers null for a memory of another workspace and leaves it unchanged', async () => {
      const there = await t.store.createMemory(OTHER, full(), T0);
      expect(await t.store.updateMemory(WS, there.id, { title: 'Hijacked' }, T1)).toBeNull();
      expect((await t.inspect.rawMemory(OTHER, there.id))?.title).toBe('Original');
      expect(await t.inspect.countRows('memories', WS)).toBe(0);
    });
  });

  describe('deleteMemory', () => {
    it('removes the memory and its edges in both directions', async () => {
      const g = await seed(chain);
      const result = await t.store.deleteMemory(WS, g.id('c'));
      expect(result).toEqual({ edgesRemoved: 2 });
      expect(await t.inspect.rawMemory(WS, g.id('c'))).toBeNull();
      expect(await t.inspect.rawEdge(WS, g.edge('b', 'c').id)).toBeNull();
      expect(await t.inspect.rawEdge(WS, g.edge('c', 'd').id)).toBeNull();
      expect((await t.inspect.rawEdges(WS)).map((edge) => edge.id)).toEqual(
        sortedIds([g.edge('a', 'b').id, g.edge('d', 'e').id]),
      );
      expect(await t.inspect.countRows('memories', WS)).toBe(4);
    });

    it('counts pruned edges among those removed', async () => {
      const g = await seed(star);
      expect(await t.store.deleteMemory(WS, g.id('hub'))).toEqual({ edgesRemoved: 7 });
      expect((await t.inspect.rawEdges(WS)).map((edge) => edge.id)).toEqual([g.edge('s1', 's2').id]);
    });

    it('reports zero edges for a memory without edges', async () => {
      const g = await seed(disconnected);
      expect(await t.store.deleteMemory(WS, g.id('z'))).toEqual({ edgesRemoved: 0 });
      expect(await t.inspect.countRows('edges', WS)).toBe(2);
    });

    it('leaves the memory out of reads afterwards', async () => {
      const g = await seed(chain);
      await t.store.deleteMemory(WS, g.id('b'));
      expect(await t.store.getMemories(WS, [g.id('b'), 'chain-b'])).toEqual([null, null]);
      expect(await t.store.getEdges(WS, [g.edge('a', 'b').id])).toEqual([null]);
      expect(await t.store.getAdjacent(WS, [g.id('a')], adjacency())).toEqual([[]]);
    });

    it('answers null for a missing memory', async () => {
      await seed(chain);
      expect(await t.store.deleteMemory(WS, newId())).toBeNull();
      expect(await t.inspect.countRows('memories', WS)).toBe(5);
    });

    it('answers null for a memory of another workspace and leaves it and its edges in place', async () => {
      const g = await seed(chain, OTHER);
      expect(await t.store.deleteMemory(WS, g.id('c'))).toBeNull();
      expect(await t.inspect.rawMemory(OTHER, g.id('c'))).not.toBeNull();
      expect(await t.inspect.countRows('edges', OTHER)).toBe(4);
    });
  });

  describe('searchMemories', () => {
    const titles = (memories: readonly { title: string }[]) => memories.map((memory) => memory.title);

    it('finds memories by a word of their title', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('redis'));
      expect(found).toEqual([g.memories.redis]);
    });

    it('finds memories by a word of their content', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('tenant'));
      expect(found.map((memory) => memory.id)).toEqual([g.id('sharding')]);
    });

    it('finds memories by a tag', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('sharding'));
      expect(found.map((memory) => memory.id)).toEqual([g.id('sharding')]);
    });

    it('ranks a title match above a content-only match', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('postgres'));
      const ids = found.map((memory) => memory.id);
      expect(sortedIds(ids)).toEqual(sortedIds([g.id('pgTitle'), g.id('pgHypothesis'), g.id('pgContent')]));
      expect(ids[2]).toBe(g.id('pgContent'));
    });

    it('matches regardless of letter case', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('REDIS'));
      expect(found.map((memory) => memory.id)).toEqual([g.id('redis')]);
    });

    it('keeps only the given kinds', async () => {
      const g = await seed(library);
      expect(
        (await t.store.searchMemories(WS, search('postgres', { kinds: ['decision'] }))).map((memory) => memory.id),
      ).toEqual([g.id('pgTitle')]);
      const two = await t.store.searchMemories(WS, search('postgres', { kinds: ['hypothesis', 'experiment'] }));
      expect(two.map((memory) => memory.id)).toEqual([g.id('pgHypothesis'), g.id('pgContent')]);
    });

    it('keeps only memories with the given tag', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('postgres', { tags: ['database'] }));
      expect(found.map((memory) => memory.id)).toEqual([g.id('pgTitle'), g.id('pgContent')]);
    });

    it('returns at most limit memories, the best first', async () => {
      const g = await seed(library);
      const found = await t.store.searchMemories(WS, search('postgres', { limit: 1 }));
      expect(found).toHaveLength(1);
      expect([g.id('pgTitle'), g.id('pgHypothesis')]).toContain(found[0]!.id);
    });

    it('returns an empty list when nothing matches', async () => {
      await seed(library);
      expect(await t.store.searchMemories(WS, search('kubernetes'))).toEqual([]);
    });

    it('finds a word with punctuation around it', async () => {
      const g = await seed(library);
      for (const text of ['redis?', '"redis"', 'redis!', '(redis)', 'redis*']) {
        const found = await t.store.searchMemories(WS, search(text));
        expect(titles(found), text).toContain(g.memories.redis!.title);
      }
    });

    it.each([
      ['a lone double quote', '"'],
      ['an unbalanced quote', 'postgres "store'],
      ['a bare operator', 'AND'],
      ['operators between words', 'postgres AND OR NOT redis'],
      ['a lone star', '*'],
      ['an open NEAR', 'NEAR('],
      ['parentheses', '(postgres OR'],
      ['a column filter', 'title:postgres'],
      ['a caret and minus', '^postgres -redis'],
      ['an SQL injection attempt', "'); DROP TABLE memories; --"],
      ['only punctuation', '!?.,;:'],
      ['only whitespace', '   '],
    ])('does not throw on %s in the query text', async (_label, text) => {
      await seed(library);
      const before = await t.inspect.countRows('memories', WS);
      const found = await t.store.searchMemories(WS, search(text));
      expect(Array.isArray(found)).toBe(true);
      expect(await t.inspect.countRows('memories', WS)).toBe(before);
    });

    it('finds a memory under its new title after an update, and not under the old one', async () => {
      const g = await seed(library);
      await t.store.updateMemory(WS, g.id('redis'), { title: 'Memcached for sessions' }, T1);
      expect((await t.store.searchMemories(WS, search('memcached'))).map((memory) => memory.id)).toEqual([
        g.id('redis'),
      ]);
      expect(await t.store.searchMemories(WS, search('redis'))).toEqual([]);
    });

    it('no longer finds a deleted memory', async () => {
      const g = await seed(library);
      await t.store.deleteMemory(WS, g.id('redis'));
      expect(await t.store.searchMemories(WS, search('redis'))).toEqual([]);
    });

    it('finds nothing of another workspace', async () => {
      await seed(library, OTHER);
      expect(await t.store.searchMemories(WS, search('postgres'))).toEqual([]);
    });
  });
}
