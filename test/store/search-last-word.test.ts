import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../src/domain/types.js';
import type { GraphStore } from '../../src/store/port.js';
import { inScope } from '../../src/store/sqlite/search-query.js';
import { plainMemory } from '../helpers/records.js';
import { NOW, observeStatementRuns, THRESHOLD, tempDatabase } from './support.js';

/**
 * The last word of a search is a prefix. The SQLite store searches it as a whole word when no
 * longer word of the index starts with it (FTS5 merges a prefix's every posting before it can
 * stop at a limit): these tests hold it to finding exactly what the prefix finds.
 */
const db = tempDatabase('engram-search-last-word-');

const note = (id: string, title: string): NewMemory => ({ ...plainMemory(id), title });

const TITLES: Record<string, string> = {
  export: 'Export the ledger',
  exports: 'Exports piling up',
  exporter: 'The exporter crashed',
  expo: 'Expo booth',
  fizz: 'Fizz test',
  fizzy: 'Fizzy drink',
  x9: 'Board x9 ready',
  x90: 'Board x90 ordered',
  cafe: 'Café opens',
  cafes: 'Cafés close',
  naive: 'Naïve approach',
};

async function notes(store: GraphStore): Promise<void> {
  for (const [id, title] of Object.entries(TITLES)) await store.createMemory('ws', note(id, title), NOW);
}

const foundIds = async (store: GraphStore, text: string) =>
  (
    await store.searchMemories('ws', {
      text,
      kinds: null,
      tags: null,
      limit: 50,
      currentOnly: false,
      pruneThreshold: THRESHOLD,
    })
  )
    .map((memory) => memory.id)
    .sort();

/** The ids FTS5's own prefix query finds in workspace ws, read on a connection of its own. */
function prefixIds(match: string): string[] {
  const raw = new Database(db.path, { readonly: true });
  try {
    return (
      raw
        .prepare(
          `SELECT m.id FROM memories_fts f JOIN memories m ON m.rid = f.rowid
           WHERE memories_fts MATCH ? AND m.workspace = 'ws'`,
        )
        .pluck()
        .all(inScope('ws', match)) as string[]
    ).sort();
  } finally {
    raw.close();
  }
}

/** The full-text matches the store's statements (`all`) were run with, on every connection. */
function matchesRun(): { matches: string[]; restore(): void } {
  const matches: string[] = [];
  const restore = observeStatementRuns('all', (_source, args) => {
    const bound = args[0] as { match?: unknown } | undefined;
    if (typeof bound?.match === 'string') matches.push(bound.match);
  });
  return { matches, restore };
}

describe('SQLite search: the last word, a prefix, as a whole word when nothing longer starts with it', () => {
  it('finds what the prefix finds, whichever way the word is searched', async () => {
    const store = db.open();
    await notes(store);
    for (const [text, prefix] of [
      ['export', '"export"*'],
      ['exporter', '"exporter"*'],
      ['EXPORTS', '"exports"*'],
      ['fizz', '"fizz"*'],
      ['x9', '"x9"*'],
      ['x90', '"x90"*'],
      ['cafe', '"cafe"*'],
      ['café', '"café"*'],
      ['naive', '"naive"*'],
      ['exp', '"exp"*'],
    ]) {
      expect(await foundIds(store, text as string), text).toEqual(prefixIds(prefix as string));
    }
    expect(await foundIds(store, 'export')).toEqual(['export', 'exporter', 'exports']);
    expect(await foundIds(store, 'fizz')).toEqual(['fizz', 'fizzy']);
    expect(await foundIds(store, 'cafe')).toEqual(['cafe', 'cafes']);
  });

  it('searches a word no longer word starts with as a whole word, and keeps the prefix otherwise', async () => {
    const store = db.open();
    await notes(store);
    const run = matchesRun();
    try {
      await foundIds(store, 'board exporter');
      await foundIds(store, 'Fizzy');
      expect(run.matches.some((match) => match.includes('"exporter"*'))).toBe(false);
      expect(run.matches.some((match) => match.includes('"exporter"'))).toBe(true);
      expect(run.matches.some((match) => match.toLowerCase().includes('"fizzy"') && !match.includes('*'))).toBe(true);
      run.matches.length = 0;
      // Longer words start with these, or (café) the index folds the letters its own way.
      for (const text of ['export', 'fizz', 'x9', 'café']) await foundIds(store, text);
      expect(run.matches.every((match) => match.includes('*'))).toBe(true);
    } finally {
      run.restore();
    }
  });

  it('sees a longer word another connection has just written', async () => {
    const store = db.open();
    await notes(store);
    expect(await foundIds(store, 'exporter')).toEqual(['exporter']);
    await db.open().createMemory('ws', note('exporters', 'Two exporters now'), NOW);
    expect(await foundIds(store, 'exporter')).toEqual(['exporter', 'exporters']);
  });
});
