import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../src/domain/types.js';
import type { SearchQuery } from '../../src/store/port.js';
import { searchIndexSegments } from '../../src/store/sqlite/fts5-records.js';
import {
  DEFAULT_SEARCH_INDEX_UPKEEP,
  isFragmented,
  type SearchIndexUpkeepOptions,
} from '../../src/store/sqlite/search-index-upkeep.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { NOW, tempDatabase, WS } from './support.js';

/**
 * The full-text index's segments are merged in the background once they pile up
 * (search-index-upkeep.ts), on a real file: sizes are small so a test's few thousand memories
 * count as a large index.
 */
const file = tempDatabase('engram-search-upkeep-');
const UPKEEP: SearchIndexUpkeepOptions = { stepPages: 4, pauseMs: 1, minPages: 8, outsideLargest: 0.1 };
const NEVER: SearchIndexUpkeepOptions = { ...UPKEEP, minPages: Number.MAX_SAFE_INTEGER };

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma'];
const text = (i: number, words: number) =>
  Array.from({ length: words }, (_, w) => `${WORDS[(i * 7 + w * 3) % WORDS.length]}${(i + w) % 50}`).join(' ');

const memories = (from: number, count: number): NewMemory[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `m${from + i}`,
    key: `key-${from + i}`,
    title: `${WORDS[(from + i) % WORDS.length]} note ${from + i}`,
    content: text(from + i, 40),
    kind: null,
    tags: [],
    weight: 0.5,
    metadata: null,
  }));

/** Many small transactions: each one's terms become a segment of their own until FTS5 merges a level. */
async function writeInManyTransactions(store: SqliteStore): Promise<void> {
  for (let batch = 0; batch < 30; batch++)
    await store.importBatch(WS, { memories: memories(batch * 60, 60), edges: [] }, NOW);
}

const segmentsOf = (path: string): number[] => {
  const reader = new Database(path, { readonly: true });
  try {
    return searchIndexSegments(reader);
  } finally {
    reader.close();
  }
};

async function untilOneSegment(path: string, timeoutMs = 15_000): Promise<number[]> {
  const started = performance.now();
  for (;;) {
    const segments = segmentsOf(path);
    if (segments.length === 1 || performance.now() - started > timeoutMs) return segments;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const QUERIES = ['alpha', 'beta7 gamma', 'delta1', 'sigma note', 'kap'];
const query = (text: string): SearchQuery => ({
  text,
  limit: 25,
  kinds: null,
  tags: null,
  currentOnly: false,
  pruneThreshold: 0.0001,
});
const answers = async (store: SqliteStore) =>
  Promise.all(QUERIES.map(async (text) => (await store.searchMemories(WS, query(text))).map((m) => m.id)));

describe('the full-text index upkeep on SQLite', () => {
  it('merges an index that many writes left in segments when a store opens it, and searches answer the same', async () => {
    const writer = file.open({ searchIndexUpkeep: NEVER });
    await writeInManyTransactions(writer);
    const before = await answers(writer);
    await writer.close();
    const segments = segmentsOf(file.path);
    expect(segments.length).toBeGreaterThan(1);
    expect(isFragmented(segments, UPKEEP)).toBe(true);

    const store = file.open({ searchIndexUpkeep: UPKEEP });
    const after = await untilOneSegment(file.path);
    expect(after).toHaveLength(1);
    expect(after[0]).toBeGreaterThan(Math.max(...segments));
    expect(await answers(store)).toEqual(before);
    expect(before.every((ids) => ids.length > 0)).toBe(true);
  });

  it('merges what a bulk load wrote once the load commits', async () => {
    const store = file.open({ searchIndexUpkeep: UPKEEP });
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: null });
    if (!load) throw new Error('the SQLite store bulk-loads an empty workspace');
    for (let batch = 0; batch < 10; batch++) await load.add({ memories: memories(batch * 300, 300), edges: [] }, NOW);
    await load.finish();
    expect(await untilOneSegment(file.path)).toHaveLength(1);
    expect((await store.searchMemories(WS, query('alpha'))).length).toBeGreaterThan(0);
  });

  it('looks again after every 500 of its own writes, and merges what they left', async () => {
    const store = file.open({ searchIndexUpkeep: UPKEEP });
    // Opened empty: only the count of writes can start a merge.
    for (const memory of memories(0, 499)) await store.createMemory(WS, memory, NOW);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(segmentsOf(file.path).length).toBeGreaterThan(1);
    const [last] = memories(499, 1);
    if (last) await store.createMemory(WS, last, NOW);
    expect(await untilOneSegment(file.path)).toHaveLength(1);
  });

  it('never waits for a lock another connection holds, and merges once it is released', async () => {
    const writer = file.open({ searchIndexUpkeep: NEVER });
    await writeInManyTransactions(writer);
    await writer.close();
    const store = file.open({ searchIndexUpkeep: UPKEEP });
    // Taken before the event loop turns, so before the upkeep's first step.
    const other = new Database(file.path);
    other.exec('BEGIN IMMEDIATE');
    try {
      // A step waiting out the 5 s busy timeout would hold the event loop: this 300 ms pause would end late.
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(performance.now() - started).toBeLessThan(2500);
      await store.ping();
      expect(segmentsOf(file.path).length).toBeGreaterThan(1);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await untilOneSegment(file.path)).toHaveLength(1);
  });

  it('reads no segments from a structure record it does not know, so nothing is merged', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE memories_fts_data (id INTEGER PRIMARY KEY, block BLOB)');
      const cookie = [0, 0, 0, 7];
      const record = (bytes: number[]) =>
        db.prepare('REPLACE INTO memories_fts_data VALUES (10, ?)').run(Buffer.from(bytes));
      // One level holding two segments: ids 1 and 2, pages 1-5 and 1-3.
      record([...cookie, 1, 2, 9, 0, 2, 1, 1, 5, 2, 1, 3]);
      expect(searchIndexSegments(db)).toEqual([5, 3]);
      // The second version's marker, as FTS5 writes it for contentless-delete tables.
      record([...cookie, 0xff, 0, 0, 1, 1, 2, 9, 0, 2, 1, 1, 5, 2, 1, 3]);
      expect(searchIndexSegments(db)).toEqual([]);
      // Cut short, and counts that promise more segments than the record holds.
      record([...cookie, 1, 2, 9, 0, 2, 1, 1]);
      expect(searchIndexSegments(db)).toEqual([]);
      record([...cookie, 0x8f, 0xff, 0xff, 0xff, 0x7f, 3]);
      expect(searchIndexSegments(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('leaves an index alone below its size floor or with little outside its largest segment', () => {
    expect(isFragmented([100], DEFAULT_SEARCH_INDEX_UPKEEP)).toBe(false);
    expect(isFragmented([100, 100], DEFAULT_SEARCH_INDEX_UPKEEP)).toBe(false);
    expect(isFragmented([2000, 150], DEFAULT_SEARCH_INDEX_UPKEEP)).toBe(false);
    expect(isFragmented([2000, 150, 100], DEFAULT_SEARCH_INDEX_UPKEEP)).toBe(true);
  });
});
