import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../src/domain/types.js';
import type { GraphStore } from '../../src/store/port.js';
import { searchIndexRows } from '../../src/store/sqlite/fts5-records.js';
import { plainMemory } from '../helpers/records.js';
import { NOW, runsDuring, THRESHOLD, tempDatabase } from './support.js';

/**
 * A question's any-word tier on a small database: bm25() gives no weight to a word that half of
 * the index's rows hold ("the"), yet scores every memory it matches. The store ranks the matches
 * of the question's other words first and only then, if they leave room, those of the weightless
 * words.
 */
const db = tempDatabase('engram-search-weightless-');

const note = (id: string, title: string, content: string | null = null): NewMemory => ({
  ...plainMemory(id),
  title,
  content,
});

/** 200 daily notes that all say "the", and three that name the kestrel or the harbour. */
async function seed(store: GraphStore): Promise<void> {
  await store.importBatch(
    'ws',
    {
      memories: [
        ...Array.from({ length: 200 }, (_, i) => note(`day-${i}`, `the log of day ${i}`)),
        note('kestrel-harbour', 'kestrel harbour survey'),
        note('kestrel', 'field trip', 'a kestrel over the dunes'),
        note('harbour', 'harbour works', 'the crane is back'),
      ],
      edges: [],
    },
    NOW,
  );
}

const search = (store: GraphStore, text: string, limit: number) =>
  store.searchMemories('ws', { text, kinds: null, tags: null, limit, currentOnly: false, pruneThreshold: THRESHOLD });

/** The full-text match a statement run was given, when its SQL passes `chosen`. */
const matchOf =
  (chosen: (source: string) => boolean) =>
  (source: string, args: readonly unknown[]): string | undefined => {
    const match = (args[0] as { match?: unknown } | undefined)?.match;
    return chosen(source) && typeof match === 'string' ? match : undefined;
  };

/** The terms whose holders the store counts while `work` runs. */
const countsOf = (work: () => Promise<unknown>) =>
  runsDuring(
    'get',
    matchOf((source) => source.includes('SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts')),
    work,
  );

/** The full-text matches of ranked statements (those ordered by bm25) the store runs while `work` does. */
const rankedMatches = (work: () => Promise<unknown>) =>
  runsDuring(
    'all',
    matchOf((source) => source.includes('bm25(')),
    work,
  );

describe('SQLite search: words that carry no weight in the rank', () => {
  it('ranks the matches of the weighed words and never scores those of "the" when they fill the limit', async () => {
    const store = db.open();
    await seed(store);
    let found: string[] = [];
    const ranked = await rankedMatches(async () => {
      found = (await search(store, 'the kestrel harbour plan', 3)).map((memory) => memory.id);
    });
    // Both words in the title first, then a word in a title over a word in the content.
    expect(found).toEqual(['kestrel-harbour', 'harbour', 'kestrel']);
    const anyWord = ranked.filter((match) => match.includes(' OR '));
    expect(anyWord.filter((match) => match.includes('"the"'))).toEqual([]);
    expect(anyWord).toEqual(['"kestrel" OR "harbour" OR "plan"']);
  });

  it('fills what the weighed words leave with memories that hold only the weightless ones', async () => {
    const store = db.open();
    await seed(store);
    const found = (await search(store, 'the kestrel harbour plan', 10)).map((memory) => memory.id);
    expect(found.slice(0, 3)).toEqual(['kestrel-harbour', 'harbour', 'kestrel']);
    expect(found).toHaveLength(10);
    expect(found.slice(3).every((id) => id.startsWith('day-'))).toBe(true);
  });

  it('keeps ranking by every word when none is held by half the index', async () => {
    const store = db.open();
    await seed(store);
    const ranked = await rankedMatches(() => search(store, 'kestrel harbour', 3));
    expect(ranked.filter((match) => match.includes(' OR '))).toEqual(['"kestrel" OR "harbour"']);
  });

  it('keeps its word counts through a text change that cannot carry a word across a threshold', async () => {
    const store = db.open();
    await seed(store);
    expect(await countsOf(() => search(store, 'the kestrel harbour plan', 3))).toContain('"the"');
    // One memory more: "the" (202 of 203, give or take one) still weighs nothing, "kestrel" still weighs.
    await store.createMemory('ws', note('extra', 'an extra note'), NOW);
    expect(await countsOf(() => search(store, 'the kestrel harbour plan', 3))).toEqual([]);
  });

  it('counts a word again when the text changes since could carry it across a threshold', async () => {
    const store = db.open();
    // "alpha" is held by 5 of 10 memories: exactly half, so it weighs nothing.
    await store.importBatch(
      'ws',
      {
        memories: Array.from({ length: 10 }, (_, i) =>
          note(`m${i}`, i < 5 ? `alpha ${i}` : i === 9 ? 'gamma' : `beta ${i}`),
        ),
        edges: [],
      },
      NOW,
    );
    expect(await countsOf(() => search(store, 'alpha gamma', 3))).toEqual(['"alpha"', '"gamma"']);
    // 5 of 11 now (4 to 6 as far as the old count knows): "alpha" is counted again; "gamma" (0 to 2) is not.
    await store.createMemory('ws', note('m10', 'delta'), NOW);
    expect(await countsOf(() => search(store, 'alpha gamma', 3))).toEqual(['"alpha"']);
  });

  it("reads the index's row count from its averages record, through writes and deletes", async () => {
    const store = db.open();
    const rows = () => {
      const reader = new Database(db.path, { readonly: true });
      try {
        return searchIndexRows(reader);
      } finally {
        reader.close();
      }
    };
    expect(rows()).toBe(0);
    await seed(store);
    expect(rows()).toBe(203);
    await store.createMemory('other', note('elsewhere', 'the other workspace'), NOW);
    expect(rows()).toBe(204);
    await store.deleteMemory('ws', 'kestrel');
    expect(rows()).toBe(203);
  });
});
