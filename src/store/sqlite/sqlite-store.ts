import { resolve } from 'node:path';
import { decorateStore } from '../instrumented-store.js';
import type { GraphStore } from '../port.js';
import { memoriesWithAdjacent } from '../shared/memories-with-adjacent.js';
import { createAdjacencyIndex } from './adjacency-index/index.js';
import {
  type AdjacencyIndex,
  type AdjacencyIndexOptions,
  DEFAULT_ADJACENCY_INDEX_OPTIONS,
} from './adjacency-index/types.js';
import { createAdjacencyReads } from './adjacency-reads.js';
import { createAssociationCandidates } from './association-terms.js';
import { createBulkLoad } from './bulk-load.js';
import { toEngramError } from './errors.js';
import { createImportBatch } from './import-batch.js';
import { type DatabaseFileOptions, openDatabase } from './open-database.js';
import { createRecordReads } from './reads.js';
import { createRecallCues } from './recall-cues.js';
import { createRecallRecords } from './recall-records.js';
import { createSqliteSearch } from './search.js';
import type { SearchIndexUpkeepOptions } from './search-index-upkeep.js';
import { createSqliteSearchPages } from './search-pages.js';
import { createStoreContext } from './store-context.js';
import { createVectors } from './vectors.js';
import { createWeightEvents } from './weights.js';
import { createRecordWrites } from './writes.js';

export interface SqliteStoreOptions extends DatabaseFileOptions {
  /**
   * The in-process adjacency index that serves walks from memory (adjacency-index/): on by
   * default; `false` walks with SQL only (benchmarks compare the two).
   */
  adjacencyIndex?: false | Partial<AdjacencyIndexOptions>;
  /** When the full-text index's segments are merged (search-index-upkeep.ts); tests set small sizes. */
  searchIndexUpkeep?: SearchIndexUpkeepOptions;
}

/** The SQLite store, with handles on its adjacency index beyond the port. */
export interface SqliteStore extends GraphStore {
  /**
   * Builds the workspace's adjacency index now (or waits for its background build), so the first
   * walk does not pay for it; the server can call this before it listens. False when the index is
   * off or the workspace too large for it.
   */
  warmAdjacencyIndex(workspace: string): Promise<boolean>;
  /** Size and build statistics of a workspace's index, or null when it has none. */
  adjacencyIndexStats(workspace: string): ReturnType<AdjacencyIndex['stats']>;
  /** How many workspace indexes are held and their estimated bytes, against the cap (zeros when the index is off). */
  adjacencyIndexTotals(): ReturnType<AdjacencyIndex['totals']>;
}

/**
 * The GraphStore over one SQLite connection, assembled from its parts: each takes the shared
 * context (connection, statement cache, adjacency index, write path) and serves a few port methods.
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const db = openDatabase(options);
  const index =
    options.adjacencyIndex === false
      ? null
      : createAdjacencyIndex(db, { ...DEFAULT_ADJACENCY_INDEX_OPTIONS, ...options.adjacencyIndex });
  const context = createStoreContext(db, index, options.searchIndexUpkeep);
  let closed = false;

  const store: SqliteStore = {
    // The file really opened, whatever the working directory: the start-up line and logs show it.
    description: `sqlite ${options.path === ':memory:' ? options.path : resolve(options.path)}`,
    ...createRecordReads(context),
    ...createSqliteSearch(context),
    ...createAdjacencyReads(context),
    ...createRecordWrites(context),
    ...createWeightEvents(context),
    ...createImportBatch(context),
    ...createBulkLoad(context),
    ...createRecallRecords(context),
    ...createRecallCues(context),
    ...createSqliteSearchPages(context),
    ...createAssociationCandidates(context),
    ...createVectors(context),

    getMemoriesWithAdjacent: (ws, refs, query) => memoriesWithAdjacent(store, ws, refs, query),

    async warmAdjacencyIndex(ws) {
      return index ? index.warm(ws) : false;
    },

    adjacencyIndexStats(ws) {
      return index?.stats(ws) ?? null;
    },

    adjacencyIndexTotals() {
      return index?.totals() ?? { indexes: 0, bytes: 0, maxBytes: 0 };
    },

    async ping() {
      context.sql('SELECT 1').get();
    },

    async close() {
      if (closed) return;
      closed = true;
      context.searchIndex.stop();
      index?.clear();
      // Folding the WAL back into the main file leaves a single self-contained file behind.
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },
  };
  // A file bulk-loaded by a process that closed before its merge finished is merged by the next.
  context.searchIndex.check();
  if (index) {
    store.shortestPath = async (ws, fromId, toId, maxHops, query) =>
      index.shortestPath(ws, fromId, toId, maxHops, query);
  }
  return withCodedErrors(store);
}

/**
 * Every port method's failure leaves the store as a coded error (errors.ts), mapped here once for
 * all of them, so a method added later cannot leak a raw SqliteError. The index statistics are
 * synchronous reads of memory and are left as they are.
 */
function withCodedErrors(store: SqliteStore): SqliteStore {
  return decorateStore(
    store,
    (_method, call) =>
      async (...args) => {
        try {
          return await call(...args);
        } catch (error) {
          throw toEngramError(error);
        }
      },
    ['adjacencyIndexStats', 'adjacencyIndexTotals'],
  ) as SqliteStore;
}
