import { z } from 'zod';
import { count } from '../../domain/env-rules.js';
import type { StoreAdapter } from '../adapter.js';
import { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

/**
 * ENGRAM_STORE=sqlite (the default). indexMaxMb: memory the adjacency indexes may hold in all
 * (least recently used dropped first); indexIdleSeconds: an index unused this long is dropped.
 */
export interface SqliteStoreConfig {
  kind: 'sqlite';
  path: string;
  busyTimeoutMs: number;
  cacheSizeMb: number;
  indexMaxMb: number;
  indexIdleSeconds: number;
}

/** Page cache of a bulk command: imports rewrite index pages, and a small cache makes that slow. */
const BULK_CACHE_MB = 256;

/** The SQLite store's options from its configuration (the server, the bench servers and the tests' apps share them). */
export function sqliteStoreOptions(settings: SqliteStoreConfig): SqliteStoreOptions {
  return {
    path: settings.path,
    busyTimeoutMs: settings.busyTimeoutMs,
    cacheSizeMb: settings.cacheSizeMb,
    adjacencyIndex: { maxBytes: settings.indexMaxMb * 1024 * 1024, idleMs: settings.indexIdleSeconds * 1000 },
  };
}

const sqliteEnv = z.object({
  ENGRAM_SQLITE_PATH: z.string().min(1).optional().default('./data/engram.db'),
  ENGRAM_SQLITE_BUSY_TIMEOUT_MS: count(5000, 0),
  ENGRAM_SQLITE_CACHE_MB: count(64),
  ENGRAM_INDEX_MAX_MB: count(1024),
  ENGRAM_INDEX_IDLE_SECONDS: count(600),
});

export const sqliteAdapter = {
  kind: 'sqlite',
  envSchema: sqliteEnv,
  envDocs: {
    title: 'Store: SQLite',
    variables: {
      ENGRAM_SQLITE_PATH: { text: 'the database file; its folder is created when missing' },
      ENGRAM_SQLITE_BUSY_TIMEOUT_MS: {
        text: "how long a writer waits for another process's lock before `UNAVAILABLE`",
      },
      ENGRAM_SQLITE_CACHE_MB: { text: 'page cache per connection, in MiB (`engram import` uses at least 256)' },
      ENGRAM_INDEX_MAX_MB: {
        text: 'memory all in-process adjacency indexes may hold, in MiB; past it the least recently used is dropped',
      },
      ENGRAM_INDEX_IDLE_SECONDS: { text: "a workspace's adjacency index unused this long is dropped" },
    },
  },
  fromEnv: (env: z.output<typeof sqliteEnv>): SqliteStoreConfig => ({
    kind: 'sqlite',
    path: env.ENGRAM_SQLITE_PATH,
    busyTimeoutMs: env.ENGRAM_SQLITE_BUSY_TIMEOUT_MS,
    cacheSizeMb: env.ENGRAM_SQLITE_CACHE_MB,
    indexMaxMb: env.ENGRAM_INDEX_MAX_MB,
    indexIdleSeconds: env.ENGRAM_INDEX_IDLE_SECONDS,
  }),
  create: async (settings: SqliteStoreConfig) => createSqliteStore(sqliteStoreOptions(settings)),
  // A bulk command writes far more than it walks: a bigger page cache, and no walk index to keep up to date.
  createForBulk: async (settings: SqliteStoreConfig) =>
    createSqliteStore({
      ...sqliteStoreOptions(settings),
      cacheSizeMb: Math.max(settings.cacheSizeMb, BULK_CACHE_MB),
      adjacencyIndex: false,
    }),
} satisfies StoreAdapter<'sqlite', typeof sqliteEnv.shape, SqliteStoreConfig>;
