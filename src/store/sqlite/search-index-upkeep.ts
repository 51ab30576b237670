import type Database from 'better-sqlite3';
import { withoutWaiting } from './without-waiting.js';

/**
 * Keeps the full-text index in few segments. FTS5 writes each transaction's terms as a new segment
 * and merges segments a level at a time (its automerge), so an index built by a bulk load or by
 * many writes holds several large segments, and every search term walks each of them: on the
 * bench graph (100,000 memories) six segments made the search's title tier 0.61-0.80 ms where one
 * segment takes 0.37-0.39 ms, and a two-word match 0.23-0.27 ms where one takes 0.09-0.10.
 *
 * When the segments other than the largest hold a tenth of the index's pages, the upkeep merges
 * them all into one (FTS5's `merge` command with a negative page count, which is an optimize done
 * a few pages at a time), one short transaction a step with a pause between steps, so reads and
 * writes run in between. A step that finds the file locked by another connection gives up at once
 * and is tried again later.
 */
export interface SearchIndexUpkeepOptions {
  /** Pages one merge step writes (about 3 ms a step at 16 on the bench graph). */
  stepPages: number;
  /** Pause between two steps of one merge. */
  pauseMs: number;
  /** An index smaller than this many pages is never merged: its searches are cheap as it is. */
  minPages: number;
  /** The share of pages outside the largest segment from which the index is merged. */
  outsideLargest: number;
}

export const DEFAULT_SEARCH_INDEX_UPKEEP: SearchIndexUpkeepOptions = {
  stepPages: 16,
  pauseMs: 20,
  minPages: 256,
  outsideLargest: 0.1,
};

/** Wait after a step that could not write before the next try (each try counts as a step). */
const RETRY_MS = 1000;

export interface SearchIndexUpkeep {
  /** Looks at the index's segments and, when they call for it, merges them in the background. */
  check(): void;
  /** Stops the background merge (the index stays valid after any step). */
  stop(): void;
}

/** What follows the cookie in the second version of the structure record, which adds fields per segment. */
const STRUCTURE_V2 = Buffer.from([0xff, 0x00, 0x00, 0x01]);

/**
 * The leaf pages of each segment of an FTS5 index, from its structure record (the `_data` row of
 * id 10, part of FTS5's file format): a 4-byte cookie, then varints: levels, segments, writes, and
 * for each level its merge count and segment count, then each segment's id, first and last page.
 * Empty for a record it cannot read (the second version, written only for contentless-delete
 * tables, or one cut short), so the upkeep then does nothing.
 */
export function searchIndexSegments(db: Database.Database): number[] {
  const row = db.prepare('SELECT block FROM memories_fts_data WHERE id = 10').get() as { block: Buffer } | undefined;
  if (!row || row.block.length < 4 || row.block.subarray(4, 8).equals(STRUCTURE_V2)) return [];
  const block = row.block;
  let at = 4;
  const varint = (): number => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const byte = block[at++] as number;
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    return value;
  };
  const levels = varint();
  const segmentsInAll = varint();
  varint(); // writes
  const pages: number[] = [];
  for (let level = 0; level < levels && at < block.length; level++) {
    varint(); // segments of this level being merged
    const segments = varint();
    for (let s = 0; s < segments; s++) {
      // A count read from a record that is not what this expects ends with the record.
      if (at >= block.length) return [];
      varint(); // segment id
      const first = varint();
      const last = varint();
      pages.push(last - first + 1);
    }
  }
  return at <= block.length && pages.length === segmentsInAll ? pages : [];
}

/** Whether segments of these sizes are worth merging into one. */
export function isFragmented(pages: readonly number[], options: SearchIndexUpkeepOptions): boolean {
  if (pages.length < 2) return false;
  const total = pages.reduce((sum, n) => sum + n, 0);
  return total >= options.minPages && total - Math.max(...pages) >= total * options.outsideLargest;
}

export function createSearchIndexUpkeep(
  db: Database.Database,
  options: SearchIndexUpkeepOptions = DEFAULT_SEARCH_INDEX_UPKEEP,
): SearchIndexUpkeep {
  const mergeStep = db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)");
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let stepsLeft = 0;

  const segments = (): number[] => {
    try {
      return searchIndexSegments(db);
    } catch {
      return [];
    }
  };

  /** One step; false when it could not write (another connection holds the lock, or the disk is full). */
  const step = (): boolean => {
    try {
      withoutWaiting(db, () => mergeStep.run(-options.stepPages));
      return true;
    } catch {
      return false;
    }
  };

  const schedule = (delayMs: number): void => {
    timer = setTimeout(next, delayMs);
    timer.unref();
  };

  const next = (): void => {
    timer = null;
    // Once started, a merge goes on to one segment: part way, the input segments' leftovers are
    // too small to count as fragmented, but until they are gone every search still walks them.
    if (stopped || !db.open || stepsLeft-- <= 0 || segments().length < 2) return;
    // A bulk load keeps its transaction open between batches: a step must not join it.
    if (db.inTransaction) schedule(RETRY_MS);
    else schedule(step() ? options.pauseMs : RETRY_MS);
  };

  return {
    check() {
      if (stopped || timer || db.readonly) return;
      const pages = segments();
      if (!isFragmented(pages, options)) return;
      // Merging rewrites every page once; twice as many steps as that is room for writes in between,
      // and a merge that stopped making progress cannot go on for ever.
      stepsLeft = 2 * Math.ceil(pages.reduce((sum, n) => sum + n, 0) / options.stepPages) + 10;
      schedule(options.pauseMs);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
