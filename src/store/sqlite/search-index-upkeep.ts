import type Database from 'better-sqlite3';
import { searchIndexSegments } from './fts5-records.js';
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
