import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { NewMemory } from '../src/domain/types.js';
import type { GraphStore } from '../src/store/port.js';
import { searchIndexSegments } from '../src/store/sqlite/fts5-records.js';
import { DEFAULT_SEARCH_INDEX_UPKEEP, isFragmented } from '../src/store/sqlite/search-index-upkeep.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { runIfMain } from './lib/main.js';
import { createRng } from './lib/rng.js';
import { now, type Summary, summarize } from './lib/stats.js';
import { fmt } from './report.js';

/**
 * searchMemories on SQLite in a database shared by two workspaces: `big` (the size asked for) and
 * `small` (1,000 memories), both drawn from one Zipf vocabulary, so the most common word is in
 * about half the memories and the rarest in a handful. Each kind of text is searched in both
 * workspaces; the `small` rows show what the other workspace's matches cost it. Every text is
 * searched three times: on the index as the loads left it (several segments), once the store's
 * upkeep has merged it into one (docs/operations.md), and on that index with a memory written to
 * `big` before each search (a write changes the text counter by which search keeps its word
 * counts, docs/api.md). `--memories 3000` makes the most common word one that half of the index
 * holds, which bm25 gives no weight (docs/api.md, Search).
 *
 *   npx tsx bench/search-bench.ts [--memories 100000] [--runs 50] [--seed 42]
 */
const VOCABULARY = 2000;
const WORDS_PER_TITLE = 6;
const SMALL = 1000;

export interface SearchRow {
  /** The full-text index's segments when the row was measured. */
  segments: number;
  /** Whether a memory was written before each search (which moves the text counter search keeps its word counts by). */
  writes: boolean;
  workspace: string;
  text: string;
  label: string;
  summary: Summary;
  found: number;
}

const word = (rank: number): string => `w${rank.toString(36)}x`;

/** Word ranks drawn with probability proportional to 1 / rank. */
function zipf(rng: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY; rank++) {
    total += 1 / rank;
    cumulative.push(total);
  }
  return () => {
    const target = rng() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
}

/** A memory whose title is WORDS_PER_TITLE words drawn from the vocabulary. */
const drawnMemory = (id: string, draw: () => number): NewMemory => ({
  id,
  key: null,
  title: Array.from({ length: WORDS_PER_TITLE }, () => word(draw())).join(' '),
  content: null,
  kind: null,
  tags: [],
  weight: 0.5,
  metadata: null,
});

async function fill(store: GraphStore, ws: string, count: number, draw: () => number): Promise<void> {
  const load = await store.beginBulkLoad?.(ws, { expectedEdges: 0 });
  if (!load) throw new Error('the SQLite store has a bulk load');
  for (let at = 0; at < count; at += 10_000) {
    const memories: NewMemory[] = [];
    for (let i = at; i < Math.min(count, at + 10_000); i++) {
      memories.push(drawnMemory(`${ws}-${i.toString().padStart(8, '0')}`, draw));
    }
    await load.add({ memories, edges: [] }, new Date(Date.UTC(2026, 0, 1) + at).toISOString());
  }
  await load.finish();
}

/** The file's full-text segments, read on a connection of its own. */
function segmentsOf(path: string): number[] {
  const reader = new Database(path, { readonly: true });
  try {
    return searchIndexSegments(reader);
  } finally {
    reader.close();
  }
}

/**
 * Opens a store with the default upkeep, which merges the index in the background, and waits for
 * one segment; an index the upkeep leaves as it is (too small to be worth it) is not waited for.
 */
async function mergedByUpkeep(path: string): Promise<void> {
  if (!isFragmented(segmentsOf(path), DEFAULT_SEARCH_INDEX_UPKEEP)) return;
  const merging = createSqliteStore({ path, adjacencyIndex: false });
  try {
    while (segmentsOf(path).length > 1) await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await merging.close();
  }
}

export async function runSearchBench(options: { memories: number; runs: number; seed: number }): Promise<SearchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-search-bench-'));
  const path = join(dir, 'engram.db');
  // This store never merges, so the first pass sees the index as the loads left it.
  const store = createSqliteStore({
    path,
    adjacencyIndex: false,
    searchIndexUpkeep: { ...DEFAULT_SEARCH_INDEX_UPKEEP, minPages: Number.MAX_SAFE_INTEGER },
  });
  try {
    const draw = zipf(createRng(options.seed));
    await fill(store, 'big', options.memories, draw);
    await fill(store, 'small', SMALL, draw);
    const texts: [label: string, text: string][] = [
      ['the most common word', word(1)],
      ['two common words', `${word(1)} ${word(2)}`],
      ['a question: 4 common words and a rare one', `${word(1)} ${word(2)} ${word(3)} ${word(1500)} ${word(4)}`],
      ['a rare word', word(1800)],
    ];
    const rows: SearchRow[] = [];
    let written = 0;
    for (const pass of ['as loaded', 'merged', 'a write before each'] as const) {
      if (pass === 'merged') await mergedByUpkeep(path);
      const segments = segmentsOf(path).length;
      const writes = pass === 'a write before each';
      for (const workspace of ['big', 'small']) {
        for (const [label, text] of texts) {
          const ask = () =>
            store.searchMemories(workspace, {
              text,
              kinds: null,
              tags: null,
              limit: 10,
              currentOnly: false,
              pruneThreshold: 0.05,
            });
          for (let i = 0; i < 3; i++) await ask();
          const samples: number[] = [];
          let found = 0;
          for (let i = 0; i < options.runs; i++) {
            if (writes) {
              const id = `written-${(written++).toString().padStart(8, '0')}`;
              await store.createMemory('big', drawnMemory(id, draw), new Date().toISOString());
            }
            const start = now();
            found = (await ask()).length;
            samples.push(now() - start);
          }
          rows.push({ segments, writes, workspace, text, label, summary: summarize(samples), found });
        }
      }
    }
    return rows;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderSearchBench(rows: readonly SearchRow[], memories: number): string {
  return [
    `searchMemories on SQLite, limit 10; workspace big: ${memories.toLocaleString('en')} memories, small: ${SMALL.toLocaleString('en')}, one database`,
    '| index segments | a write before each | workspace | text | p50 ms | p95 ms | found |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.segments} | ${row.writes ? 'yes' : 'no'} | ${row.workspace} | ${row.label} | ${fmt(row.summary.median)} | ${fmt(row.summary.p95)} | ${row.found} |`,
    ),
  ].join('\n');
}

runIfMain(import.meta.url, async () => {
  const { values } = parseArgs({
    options: {
      memories: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '50' },
      seed: { type: 'string', default: '42' },
    },
  });
  const memories = Number(values.memories);
  const rows = await runSearchBench({ memories, runs: Number(values.runs), seed: Number(values.seed) });
  console.log(renderSearchBench(rows, memories));
});
