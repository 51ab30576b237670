import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchQuery } from '../../src/store/port.js';
import { MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { plainMemory } from '../helpers/records.js';
import { NOW, THRESHOLD, tempDatabase, WS } from './support.js';

/**
 * A listing without words (by tags, by kinds) must read an index in its order and stop at the
 * limit. A temporary B-tree for the ORDER BY means SQLite read every memory holding the tag or kind
 * to sort them: unbounded when most of a workspace shares one, and on the one synchronous
 * connection every tenant waits for it. Each statement the listing ran is explained on the real file.
 */
const db = tempDatabase('engram-listing-plans-');

const listing = (filter: Pick<SearchQuery, 'kinds' | 'tags'>, after = false): SearchQuery => ({
  text: '',
  limit: 20,
  currentOnly: true,
  pruneThreshold: THRESHOLD,
  listedAfter: after ? { createdAt: NOW, id: 'm-5' } : null,
  ...filter,
});

/** The SQL texts prepared while `work` runs, on any connection. */
async function statementsRunBy(work: () => Promise<unknown>): Promise<string[]> {
  const prepare = vi.spyOn(Database.prototype, 'prepare');
  try {
    await work();
    return prepare.mock.calls.map(([text]) => text);
  } finally {
    prepare.mockRestore();
  }
}

/** EXPLAIN QUERY PLAN of one statement, its parameters bound to null (the plan does not depend on them). */
function planOf(path: string, text: string): string[] {
  const raw = new Database(path, { readonly: true });
  try {
    const names = new Set([...text.matchAll(/@(\w+)/g)].map((match) => match[1] as string));
    const params = Object.fromEntries([...names].map((name) => [name, null]));
    return (raw.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params) as { detail: string }[]).map((row) => row.detail);
  } finally {
    raw.close();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('SQLite listings without words', () => {
  it.each([
    ['tags', { kinds: null, tags: ['ops', 'cache'] }, false],
    ['tags, a later page', { kinds: null, tags: ['ops'] }, true],
    ['tags and kinds', { kinds: ['decision'], tags: ['ops'] }, false],
    ['kinds', { kinds: ['decision', 'fact'], tags: null }, false],
    ['kinds, a later page', { kinds: ['decision'], tags: null }, true],
  ] as const)('by %s read an index in order, never sorting what they found', async (_label, filter, after) => {
    const store = db.open();
    await store.importBatch(
      WS,
      {
        memories: Array.from({ length: 50 }, (_, i) => ({
          ...plainMemory(`m-${i}`),
          kind: i % 2 ? 'decision' : 'fact',
          tags: i % 3 ? ['ops'] : ['cache', 'ops'],
        })),
        edges: [],
      },
      NOW,
    );
    const texts = await statementsRunBy(() => store.searchMemories(WS, listing(filter, after)));
    const listings = texts.filter((text) => /ORDER BY/.test(text));
    expect(listings.length).toBeGreaterThan(0);
    for (const text of listings) {
      const plan = planOf(db.path, text);
      expect(plan.join('\n'), text).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe('the tag index', () => {
  const byTag = async (store: ReturnType<typeof db.open>, ws: string, tag: string) =>
    (await store.searchMemories(ws, { ...listing({ kinds: null, tags: [tag] }), currentOnly: false })).map(
      (memory) => memory.id,
    );

  it('is filled from the stored memories when it upgrades a database of the previous schema', async () => {
    // The schema as it was before the tag index: every migration up to the one that made it.
    const tagIndex = MIGRATIONS.findIndex((migration) => migration.includes('CREATE TABLE memory_tags'));
    expect(tagIndex).toBeGreaterThan(0);
    const old = new Database(db.path);
    for (const migration of MIGRATIONS.slice(0, tagIndex)) old.exec(migration);
    old.pragma(`user_version = ${tagIndex}`);
    const insert = old.prepare(
      `INSERT INTO memories (workspace, id, title, tags, weight, created_at, updated_at) VALUES (?, ?, ?, ?, 0.5, ?, ?)`,
    );
    insert.run('one', 'a', 'A', '["ops","cache"]', '2099-01-01T00:00:00.000Z', NOW);
    insert.run('one', 'b', 'B', '["ops"]', '2099-01-02T00:00:00.000Z', NOW);
    insert.run('two', 'c', 'C', '["ops"]', NOW, NOW);
    old.close();

    const store = db.open();
    expect(await byTag(store, 'one', 'ops')).toEqual(['b', 'a']);
    expect(await byTag(store, 'one', 'cache')).toEqual(['a']);
    expect(await byTag(store, 'two', 'ops')).toEqual(['c']);
  });

  it('is filled by a bulk load, which drops its triggers for the load and restores them', async () => {
    const store = db.open();
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: 0 });
    await load?.add(
      {
        memories: [
          { ...plainMemory('x'), tags: ['ops'] },
          { ...plainMemory('y'), tags: ['cache'] },
        ],
        edges: [],
      },
      NOW,
    );
    // A memory named twice in one load keeps its last record's tags.
    await load?.add({ memories: [{ ...plainMemory('y'), tags: ['ops'] }], edges: [] }, NOW);
    await load?.finish();
    expect(await byTag(store, WS, 'ops')).toEqual(['y', 'x']);
    expect(await byTag(store, WS, 'cache')).toEqual([]);
    await store.updateMemory(WS, 'x', { tags: ['cache'] }, NOW);
    expect(await byTag(store, WS, 'cache')).toEqual(['x']);
  });
});

describe('SQLite weight event lists', () => {
  it.each([
    ['an edge', { edgeId: 'e-1', memoryId: null }, 'weight_events_edge_source_at'],
    ['a memory', { edgeId: null, memoryId: 'm-1' }, 'weight_events_memory_source_at'],
  ] as const)(
    'of %s from one source seek an index with both, never checking the source event by event',
    async (_label, target, index) => {
      const store = db.open();
      for (const after of [null, { at: NOW, id: 'w-5' }]) {
        const texts = await statementsRunBy(() =>
          store.listWeightEvents(WS, { ...target, source: 'MANUAL', limit: 20, after }),
        );
        const lists = texts.filter((text) => /FROM weight_events/.test(text));
        expect(lists).toHaveLength(1);
        const plan = planOf(db.path, lists[0] as string).join('\n');
        expect(plan).toContain(
          `USING INDEX ${index} (workspace=? AND ${target.edgeId ? 'edge_id' : 'memory_id'}=? AND source=?`,
        );
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    },
  );
});
