import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/domain/types.js';
import type { ListingPosition, SearchQuery } from '../../../src/store/port.js';
import { LISTING_SCAN } from '../../../src/store/shared/listing.js';
import { type ContractContext, newMemory, OTHER, search, T0, T1, T2, T3, T4, THRESHOLD, WS } from '../contract-kit.js';

/**
 * The GraphStore contract of searchMemories' ranking and listing: every word before some words,
 * titles first even in a small workspace, listing by kinds/tags without words, and currentOnly.
 * (The basic matching rules live with the other memory cases in memories.ts.)
 */
export function searchCases(t: ContractContext): void {
  const ids = (memories: readonly MemoryRecord[]) => memories.map((memory) => memory.id);

  /**
   * The case the issue measured: 11 of 12 memories hold a word of "warmup spikes", one has both in
   * its title. "warmup" is in most memories, so FTS5 floors its idf at almost zero and bm25 ranks by
   * "spikes" alone: with plain bm25 the short "Spikes" titles came first and the memory with both
   * words in its content came after them.
   */
  async function warmupWorkspace() {
    const make = (title: string, content: string | null = null) => t.createMemory({ title, content });
    const bothInContent = await make('Latency after restarts', 'The warmup shows spikes in p99 for a minute.');
    const partial = [
      await make('Spikes', 'Seen in p99 only.'),
      await make('Warmup script', 'Sends synthetic traffic before the pod is ready.'),
      await make('Cache warmup order', 'Hot keys first.'),
      await make('Warmup and readiness', 'Readiness waits for the warmup to end.'),
      await make('Spikes dashboard', 'Grafana board for latency.'),
      await make('GC pauses', 'Long pauses during warmup.'),
      await make('Deploy checklist', 'Run the warmup before switching traffic.'),
      await make('Warmup budget', 'Two minutes at most.'),
      await make('Connection pool', 'Cold at warmup.'),
    ];
    await make('Unrelated note', 'Nothing about it here.');
    const titled = await make(
      'Warmup: p99 latency spikes on the first requests after every deploy to the staging cluster',
      'JIT compilation.',
    );
    return { titled, bothInContent, partial };
  }

  describe('searchMemories ranking', () => {
    it('puts the memory with every word in its title first, in a workspace of 12', async () => {
      const w = await warmupWorkspace();
      const found = await t.store.searchMemories(WS, search('warmup spikes'));
      expect(found[0]?.id).toBe(w.titled.id);
      expect(found).toHaveLength(11);
    });

    it('ranks every memory matching all the words above any memory matching only some', async () => {
      const w = await warmupWorkspace();
      const found = ids(await t.store.searchMemories(WS, search('warmup spikes')));
      expect(found.slice(0, 2)).toEqual([w.titled.id, w.bothInContent.id]);
      expect(new Set(found.slice(2))).toEqual(new Set(ids(w.partial)));
    });

    it('fills the limit from the best tiers first', async () => {
      const w = await warmupWorkspace();
      const found = ids(await t.store.searchMemories(WS, search('warmup spikes', { limit: 3 })));
      expect(found).toHaveLength(3);
      expect(found.slice(0, 2)).toEqual([w.titled.id, w.bothInContent.id]);
      expect(ids(w.partial)).toContain(found[2]);
    });

    it('keeps the last word a prefix in every tier', async () => {
      const w = await warmupWorkspace();
      const found = ids(await t.store.searchMemories(WS, search('warmup spi')));
      expect(found.slice(0, 2)).toEqual([w.titled.id, w.bothInContent.id]);
    });

    it('ranks a title match of one word first even when most memories hold the word', async () => {
      for (let index = 0; index < 8; index++) {
        await t.createMemory({ title: `Note ${index}`, content: `The ledger balances at step ${index}.` });
      }
      const titled = await t.createMemory({ title: 'Ledger', content: 'Double entry.' });
      const found = await t.store.searchMemories(WS, search('ledger'));
      expect(found).toHaveLength(9);
      expect(found[0]?.id).toBe(titled.id);
    });

    it('answers each memory once, in its best tier', async () => {
      await warmupWorkspace();
      const found = ids(await t.store.searchMemories(WS, search('warmup spikes', { limit: 100 })));
      expect(new Set(found).size).toBe(found.length);
    });
  });

  describe('searchMemories without words', () => {
    async function kindsAndTags() {
      const make = (title: string, kind: string | null, tags: string[], at: string, workspace?: string) =>
        t.createMemory({ title, kind, tags }, workspace, at);
      return {
        oldDecision: await make('Pick Postgres', 'decision', ['database'], T0),
        fact: await make('Redis is single-threaded', 'fact', ['cache', 'warm-up'], T1),
        newDecision: await make('Pick Redis', 'decision', ['cache'], T2),
        hypothesis: await make('Warm caches help', 'hypothesis', ['warm', 'up'], T3),
        newestDecision: await make('Drop Memcached', 'decision', [], T4),
        elsewhere: await make('Another decision', 'decision', ['cache'], T4, OTHER),
      };
    }

    it('lists the memories of the given kinds, newest first', async () => {
      const m = await kindsAndTags();
      expect(ids(await t.store.searchMemories(WS, search('', { kinds: ['decision'] })))).toEqual([
        m.newestDecision.id,
        m.newDecision.id,
        m.oldDecision.id,
      ]);
      expect(ids(await t.store.searchMemories(WS, search('', { kinds: ['fact', 'hypothesis'] })))).toEqual([
        m.hypothesis.id,
        m.fact.id,
      ]);
    });

    it('lists the memories carrying one of the given tags exactly, newest first', async () => {
      const m = await kindsAndTags();
      expect(ids(await t.store.searchMemories(WS, search('', { tags: ['cache'] })))).toEqual([
        m.newDecision.id,
        m.fact.id,
      ]);
      // "warm-up" is one tag: the memory tagged "warm" and "up" does not carry it.
      expect(ids(await t.store.searchMemories(WS, search('', { tags: ['warm-up'] })))).toEqual([m.fact.id]);
    });

    it('combines kinds and tags, and stops at the limit', async () => {
      const m = await kindsAndTags();
      expect(
        ids(await t.store.searchMemories(WS, search('', { kinds: ['decision'], tags: ['cache', 'database'] }))),
      ).toEqual([m.newDecision.id, m.oldDecision.id]);
      expect(ids(await t.store.searchMemories(WS, search('  ', { kinds: ['decision'], limit: 2 })))).toEqual([
        m.newestDecision.id,
        m.newDecision.id,
      ]);
    });

    it("follows a memory's tags through update, delete and import, and lists a memory once", async () => {
      const m = await kindsAndTags();
      const listed = async (...tags: string[]) => ids(await t.store.searchMemories(WS, search('', { tags })));
      await t.store.updateMemory(WS, m.newDecision.id, { tags: ['database', 'database', 'redis'] }, T4);
      await t.store.deleteMemory(WS, m.oldDecision.id);
      await t.store.importBatch(
        WS,
        { memories: [newMemory({ id: 'imported', title: 'Imported', tags: ['cache'] })], edges: [] },
        T4,
      );
      expect(await listed('cache')).toEqual(['imported', m.fact.id]);
      expect(await listed('database')).toEqual([m.newDecision.id]);
      expect(await listed('redis', 'database', 'cache')).toEqual(['imported', m.newDecision.id, m.fact.id]);
      // An import naming a stored memory replaces its tags; its createdAt stays.
      await t.store.importBatch(
        WS,
        { memories: [newMemory({ id: 'imported', title: 'Imported', tags: ['ops'] })], edges: [] },
        T4,
      );
      expect(await listed('cache')).toEqual([m.fact.id]);
      expect(await listed('ops')).toEqual(['imported']);
    });

    it('lists a tag that has no letter or digit, exactly', async () => {
      const plus = await t.createMemory({ title: 'C++ notes', tags: ['c++'] }, undefined, T1);
      const dashes = await t.createMemory({ title: 'Separator', tags: ['---'] }, undefined, T2);
      await t.createMemory({ title: 'C notes', tags: ['c'] }, undefined, T3);
      expect(ids(await t.store.searchMemories(WS, search('', { tags: ['c++'] })))).toEqual([plus.id]);
      expect(ids(await t.store.searchMemories(WS, search('', { tags: ['---', 'c++'] })))).toEqual([dashes.id, plus.id]);
    });

    it('lists nothing without kinds or tags', async () => {
      await kindsAndTags();
      expect(await t.store.searchMemories(WS, search(''))).toEqual([]);
      expect(await t.store.searchMemories(WS, search('?!'))).toEqual([]);
    });
  });

  describe('searchMemories listing pages (listedAfter)', () => {
    /** Seven decisions tagged "ops": three share T1 (a bulk import gives a whole batch one createdAt). */
    async function decisions() {
      const made = [];
      for (const at of [T0, T1, T1, T1, T2, T3, T4])
        made.push(await t.createMemory({ title: 'Decision', kind: 'decision', tags: ['ops'] }, undefined, at));
      return made;
    }

    it('continues strictly after the given (createdAt, id), by kinds and by tags, through equal createdAt', async () => {
      await decisions();
      for (const filter of [{ kinds: ['decision'] }, { tags: ['ops'] }, { kinds: ['decision'], tags: ['ops'] }]) {
        const whole = await t.store.searchMemories(WS, search('', filter));
        expect(whole).toHaveLength(7);
        const walked: MemoryRecord[] = [];
        let after: { createdAt: string; id: string } | null = null;
        for (let page = 0; page < 10; page++) {
          const found = await t.store.searchMemories(WS, search('', { ...filter, limit: 2, listedAfter: after }));
          walked.push(...found);
          const last = found.at(-1);
          if (!last) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(ids(walked)).toEqual(ids(whole));
      }
    });

    it('starts at the newest without a position, and leaves other workspaces out', async () => {
      const made = await decisions();
      await t.createMemory({ title: 'Decision', kind: 'decision', tags: ['ops'] }, OTHER, T4);
      const newest = made.at(-1)!;
      const rest = await t.store.searchMemories(
        WS,
        search('', { kinds: ['decision'], listedAfter: { createdAt: newest.createdAt, id: newest.id } }),
      );
      const whole = await t.store.searchMemories(WS, search('', { kinds: ['decision'] }));
      expect(whole[0]?.id).toBe(newest.id);
      expect(ids(rest)).toEqual(ids(whole).slice(1));
    });
  });

  describe('listings past the scan bound (listNewest)', () => {
    const id = (n: number) => `m-${String(n).padStart(4, '0')}`;
    const DECISIONS = [1200, 3, 2, 1, 0];
    const TOTAL = LISTING_SCAN + 250;

    /**
     * LISTING_SCAN + 250 memories tagged "ops", in one import (one createdAt: the walks order them
     * by id, newest first m-1249): notes, but for five decisions, one among the newest and four
     * below the first LISTING_SCAN entries, which are also tagged "dec"; and a memory that
     * supersedes every note from m-0250 up but m-1201.
     */
    async function crowd() {
      const memories = Array.from({ length: TOTAL }, (_, n) => {
        const decision = DECISIONS.includes(n);
        const tags = decision ? ['ops', 'dec'] : ['ops'];
        return newMemory({ id: id(n), title: `Memory ${n}`, kind: decision ? 'decision' : 'note', tags });
      });
      const newer = newMemory({ id: 'newer', title: 'Newer notes', kind: 'summary' });
      const superseded = memories.filter((_, n) => n >= 250 && n !== 1201 && !DECISIONS.includes(n));
      const edges = superseded.map((memory) => ({
        id: `s-${memory.id}`,
        fromId: newer.id,
        toId: memory.id,
        type: 'SUPERSEDES',
        weight: 0.5,
        metadata: null,
      }));
      await t.store.importBatch(WS, { memories: [...memories, newer], edges }, T1);
    }

    const page = async (filter: Partial<SearchQuery>, after: ListingPosition | null = null) => {
      const answer = await t.store.listNewest(WS, search('', { limit: 10, ...filter, listedAfter: after }));
      return { ids: ids(answer.memories), resumeAfter: answer.resumeAfter };
    };

    it('stops a walk whose filters reject most entries at LISTING_SCAN, and goes on from where it stopped', async () => {
      await crowd();
      const byTag = { tags: ['ops'], kinds: ['decision'] };
      const first = await page(byTag);
      // The tag's newest LISTING_SCAN entries are m-1249 down to m-0250: one decision among them.
      expect(first).toEqual({ ids: [id(1200)], resumeAfter: { createdAt: T1, id: id(250) } });
      expect(await page(byTag, first.resumeAfter)).toEqual({ ids: [id(3), id(2), id(1), id(0)], resumeAfter: null });
      // The plain list is the first page.
      expect(ids(await t.store.searchMemories(WS, search('', { ...byTag, limit: 10 })))).toEqual([id(1200)]);

      // By kind, currentOnly: a newer memory supersedes every note from m-0250 up but m-1201, so
      // the kind's newest LISTING_SCAN notes (m-1249 down to m-0249; m-1200 is a decision) hold two current ones.
      const byKind = { kinds: ['note'], tags: null, currentOnly: true };
      const current = await page(byKind);
      expect(current).toEqual({ ids: [id(1201), id(249)], resumeAfter: { createdAt: T1, id: id(249) } });
      const next = await page(byKind, current.resumeAfter);
      expect(next.ids).toEqual(Array.from({ length: 10 }, (_, n) => id(248 - n)));
      expect(next.resumeAfter).toBeNull();
    });

    it('merges a cut walk with a whole one only down to the cut, so no page skips what the cut walk has not read', async () => {
      await crowd();
      const filter = { tags: ['ops', 'dec'], kinds: ['decision'] };
      // "dec" holds all five decisions, but "ops" stopped at m-0250: the older four wait for the next page.
      const first = await page(filter);
      expect(first).toEqual({ ids: [id(1200)], resumeAfter: { createdAt: T1, id: id(250) } });
      expect(await page(filter, first.resumeAfter)).toEqual({ ids: [id(3), id(2), id(1), id(0)], resumeAfter: null });
      // A walk with nothing rejected fills its page and says nothing more.
      expect(await page({ tags: ['dec'], limit: 3 })).toEqual({ ids: [id(1200), id(3), id(2)], resumeAfter: null });
    });
  });

  describe('saved search pages', () => {
    const pages = (id: string, memoryIds: string[], createdAt: string, expiresAt: string) => ({
      id,
      memoryIds,
      createdAt,
      expiresAt,
    });

    it('round-trips the ranked ids in order, per workspace', async () => {
      const ranked = Array.from({ length: 1000 }, (_, at) => `m-${(at * 7919) % 1000}`);
      await t.store.saveSearchPages(WS, pages('s1', ranked, T0, T3), T0);
      expect(await t.store.getSearchPages(WS, 's1', T1)).toEqual(ranked);
      expect(await t.store.getSearchPages(OTHER, 's1', T1)).toBeNull();
      expect(await t.store.getSearchPages(WS, 'unknown', T1)).toBeNull();
    });

    it('hides expired ones, and a later save purges at most 100 of them', async () => {
      for (let n = 0; n < 105; n++) await t.store.saveSearchPages(WS, pages(`old-${n}`, ['a'], T0, T1), T0);
      expect(await t.store.getSearchPages(WS, 'old-0', T1)).toBeNull();
      await t.store.saveSearchPages(WS, pages('new', ['b'], T2, T3), T2);
      let left = 0;
      for (let n = 0; n < 105; n++) if ((await t.store.getSearchPages(WS, `old-${n}`, T0)) !== null) left++;
      expect(left).toBe(5);
      expect(await t.store.getSearchPages(WS, 'new', T2)).toEqual(['b']);
    });
  });

  describe('searchMemories currentOnly', () => {
    async function versions() {
      const old = await t.createMemory({ title: 'Ledger on Postgres', kind: 'decision' }, undefined, T0);
      const middle = await t.createMemory({ title: 'Ledger on Postgres 16', kind: 'decision' }, undefined, T1);
      const current = await t.createMemory({ title: 'Ledger on CockroachDB', kind: 'decision' }, undefined, T2);
      const other = await t.createMemory({ title: 'Ledger retention', kind: 'decision' }, undefined, T3);
      await t.link(middle.id, old.id, 'SUPERSEDES');
      await t.link(current.id, middle.id, 'SUPERSEDES');
      return { old, middle, current, other };
    }

    it('leaves out superseded memories and still fills the limit', async () => {
      const v = await versions();
      const all = ids(await t.store.searchMemories(WS, search('ledger postgres', { limit: 2 })));
      expect(new Set(all)).toEqual(new Set([v.old.id, v.middle.id]));
      const current = ids(await t.store.searchMemories(WS, search('ledger postgres', { limit: 2, currentOnly: true })));
      expect(new Set(current)).toEqual(new Set([v.current.id, v.other.id]));
    });

    it('counts a pruned SUPERSEDES edge as history no more', async () => {
      const v = await versions();
      const edge = await t.link(v.other.id, v.current.id, 'SUPERSEDES', { weight: THRESHOLD / 2 });
      expect(edge.edge.weight).toBeLessThanOrEqual(THRESHOLD);
      const found = ids(await t.store.searchMemories(WS, search('cockroachdb', { currentOnly: true })));
      expect(found).toEqual([v.current.id]);
    });

    it('applies to listings by kind', async () => {
      const v = await versions();
      expect(ids(await t.store.searchMemories(WS, search('', { kinds: ['decision'], currentOnly: true })))).toEqual([
        v.other.id,
        v.current.id,
      ]);
    });
  });
}
