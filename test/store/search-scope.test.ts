import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../src/domain/types.js';
import type { GraphStore } from '../../src/store/port.js';
import { MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { COMMON_WORD_HOLDERS, inScope } from '../../src/store/sqlite/search-query.js';
import { plainMemory } from '../helpers/records.js';
import { NOW, observeStatementRuns, THRESHOLD, tempDatabase } from './support.js';

/**
 * The SQLite full-text index is one table for every workspace. These tests hold a search with a
 * common word to its own workspace's entries of the index and to COMMON_WORD_HOLDERS of them,
 * without losing what a rare word of the same text finds.
 */
const db = tempDatabase('engram-search-scope-');

const note = (id: string, title: string): NewMemory => ({ ...plainMemory(id), title });

/** Memories in batches of 1,000 (each batch is written in id order, so rowids follow the batches, not the list). */
async function load(store: GraphStore, ws: string, memories: NewMemory[]): Promise<void> {
  for (let at = 0; at < memories.length; at += 1000) {
    await store.importBatch(ws, { memories: memories.slice(at, at + 1000), edges: [] }, NOW);
  }
}

const search = (store: GraphStore, ws: string, text: string, limit = 10) =>
  store.searchMemories(ws, { text, kinds: null, tags: null, limit, currentOnly: false, pruneThreshold: THRESHOLD });

/** The ids a search of workspace ws answers, in order. */
const foundIds = async (store: GraphStore, text: string) =>
  (await search(store, 'ws', text)).map((memory) => memory.id);

/**
 * "note" held by `holders` memories of workspace ws: the oldest is a short title that is all the
 * word (first by relevance), then longer ones; `newest` is one more long one stored last.
 */
async function noteHolders(store: GraphStore, holders: number): Promise<void> {
  await store.createMemory('ws', note('oldest', 'note'), NOW);
  await load(
    store,
    'ws',
    Array.from({ length: holders - 1 }, (_, i) => note(`n${i}`, `a much longer note title number ${i}`)),
  );
}
const newest = note('newest', 'a much longer note title, the newest');

/** Counts the runs (`get`) of prepared statements whose SQL `matches`, on every connection. */
function statementRuns(matches: (text: string) => boolean): { runs(): number; restore(): void } {
  let runs = 0;
  const restore = observeStatementRuns('get', (source) => {
    if (matches(source)) runs++;
  });
  return { runs: () => runs, restore };
}

/** How many index entries a full-text query reaches, read on a connection of its own. */
function indexMatches(path: string, match: string): number {
  const raw = new Database(path, { readonly: true });
  try {
    return (
      raw.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?').get(match) as { n: number }
    ).n;
  } finally {
    raw.close();
  }
}

describe('SQLite full-text search, scoped and bounded', () => {
  it("reaches only the searching workspace's entries of a word another workspace holds thousands of times", async () => {
    const store = db.open();
    await load(
      store,
      'busy',
      Array.from({ length: 3000 }, (_, i) => note(`busy-${i}`, `shared word ${i}`)),
    );
    await load(store, 'quiet.team-a', [note('q1', 'shared one'), note('q2', 'shared two')]);
    // Workspace names whose words the tokenizer would split alike still get tokens of their own.
    await load(store, 'quiet_team_a', [note('r1', 'shared three')]);

    expect(indexMatches(db.path, '"shared"')).toBe(3003);
    expect(indexMatches(db.path, inScope('quiet.team-a', '"shared"'))).toBe(2);
    expect(indexMatches(db.path, inScope('quiet_team_a', '"shared"'))).toBe(1);
    expect((await search(store, 'quiet.team-a', 'shared')).map((memory) => memory.id).sort()).toEqual(['q1', 'q2']);
    expect((await search(store, 'quiet_team_a', 'shared')).map((memory) => memory.id)).toEqual(['r1']);
  });

  it('keeps the index scoped through updates, deletions and a bulk load', async () => {
    const store = db.open();
    await store.createMemory('a', note('m1', 'lantern'), NOW);
    await store.updateMemory('a', 'm1', { title: 'lantern glow' }, NOW);
    const load = await store.beginBulkLoad?.('b', { expectedEdges: 0 });
    await load?.add({ memories: [note('m2', 'lantern bulk')], edges: [] }, NOW);
    await load?.finish();

    expect(indexMatches(db.path, inScope('a', '"glow"'))).toBe(1);
    expect(indexMatches(db.path, inScope('b', '"lantern"'))).toBe(1);
    expect((await search(store, 'b', 'lantern')).map((memory) => memory.id)).toEqual(['m2']);
    await store.deleteMemory('a', 'm1');
    expect(indexMatches(db.path, inScope('a', '"lantern"'))).toBe(0);
    expect(indexMatches(db.path, '"lantern"')).toBe(1);
  });

  it('finds an old memory by its rare word when the other words of the text are held by more than a tier ranks', async () => {
    const store = db.open();
    // The oldest memory holds the rare word; every later one holds the common word.
    await store.createMemory('ws', note('zebra', 'zebra sighting at dawn'), NOW);
    await load(
      store,
      'ws',
      Array.from({ length: COMMON_WORD_HOLDERS + 1 }, (_, i) => note(`n${i}`, `the note ${i}`)),
    );
    const found = await search(store, 'ws', 'the zebra');
    expect(found[0]?.id).toBe('zebra');
    expect(found).toHaveLength(10);
  });

  it('lists a tier newest first when a word of it is held by more than COMMON_WORD_HOLDERS memories', async () => {
    const store = db.open();
    // By relevance the oldest memory would come first: a short title that is all the word.
    await noteHolders(store, COMMON_WORD_HOLDERS + 1);
    await store.createMemory('ws', newest, NOW);
    const found = await foundIds(store, 'note');
    expect(found[0]).toBe('newest');
    expect(found).not.toContain('oldest');
    // Held by fewer, the same word is ranked by relevance again.
    await store.deleteMemory('ws', 'n0');
    await store.deleteMemory('ws', 'n1');
    expect((await foundIds(store, 'note'))[0]).toBe('oldest');
  });

  it("counts a word's holders again once another connection has written", async () => {
    const store = db.open();
    await noteHolders(store, COMMON_WORD_HOLDERS);
    // Held by exactly COMMON_WORD_HOLDERS: ranked, and the store now knows the word as not common.
    expect((await foundIds(store, 'note'))[0]).toBe('oldest');
    const other = db.open();
    await other.createMemory('ws', newest, NOW);
    expect((await foundIds(store, 'note'))[0]).toBe('newest');
  });

  it('keeps what it counted while other connections write only recall records, edges and weights', async () => {
    const store = db.open();
    await noteHolders(store, COMMON_WORD_HOLDERS);
    const counting = statementRuns((text) => text.includes('count(*)'));
    try {
      await foundIds(store, 'note');
      const counted = counting.runs();
      expect(counted).toBeGreaterThan(0);

      const other = db.open();
      await other.saveRecall(
        'ws',
        {
          id: 'r1',
          query: 'note',
          results: [],
          truncated: false,
          createdAt: NOW,
          expiresAt: '2100-01-01T00:00:00.000Z',
        },
        NOW,
      );
      const link = { fromId: 'oldest', toId: 'n0', type: 'CITES', weight: null, defaultWeight: 0.5, metadata: null };
      await other.linkEdge('ws', { ...link, id: 'e1', reason: null, eventId: 'ev1' }, NOW);
      await other.updateMemory('ws', 'n1', { key: 'renamed-key' }, NOW);
      await foundIds(store, 'note');
      expect(counting.runs()).toBe(counted);

      await other.createMemory('ws', newest, NOW);
      expect((await foundIds(store, 'note'))[0]).toBe('newest');
      expect(counting.runs()).toBeGreaterThan(counted);
    } finally {
      counting.restore();
    }
  });

  it('moves the text counter by the rows a bulk load adds, as the triggers would one by one', async () => {
    const store = db.open();
    await noteHolders(store, 10);
    const counter = () => {
      const raw = new Database(db.path, { readonly: true });
      try {
        return (raw.prepare('SELECT n FROM text_generation').get() as { n: number }).n;
      } finally {
        raw.close();
      }
    };
    const before = counter();
    const load = await db.open().beginBulkLoad?.('b', { expectedEdges: 0 });
    await load?.add({ memories: [note('b1', 'note in b'), note('b2', 'b2'), note('b3', 'b3')], edges: [] }, NOW);
    await load?.finish();
    expect(counter()).toBe(before + 3);
  });

  it('indexes the memories of every workspace again when it upgrades a database from before the scoped index', async () => {
    const old = new Database(db.path);
    const scoped = MIGRATIONS.findIndex((migration) => migration.includes('memories_fts_source'));
    for (const migration of MIGRATIONS.slice(0, scoped)) old.exec(migration);
    old.pragma(`user_version = ${scoped}`);
    const insert = old.prepare(
      `INSERT INTO memories (workspace, id, title, content, tags, weight, created_at, updated_at)
       VALUES (?, ?, ?, ?, '[]', 0.5, ?, ?)`,
    );
    insert.run('one', 'a', 'harbour crane', 'rusted', NOW, NOW);
    insert.run('two', 'b', 'harbour light', null, NOW, NOW);
    old.close();

    const store = db.open();
    expect((await search(store, 'one', 'harbour')).map((memory) => memory.id)).toEqual(['a']);
    expect((await search(store, 'two', 'harbour')).map((memory) => memory.id)).toEqual(['b']);
    expect((await search(store, 'one', 'rusted')).map((memory) => memory.id)).toEqual(['a']);
    const raw = new Database(db.path);
    expect(() => raw.exec(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`)).not.toThrow();
    raw.close();
  });
});
