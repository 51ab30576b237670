import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, vi } from 'vitest';
import type { WalkOptions } from '../../src/services/walks.js';
import type { FrontierQuery, GraphStore } from '../../src/store/port.js';
import { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite/sqlite-store.js';

/** Shared by the adjacency index tests: one workspace, a fixed clock, the default prune threshold. */
export const WS = 'ws';
export const NOW = '2099-01-01T00:00:00.000Z';
export const THRESHOLD = 0.05;

export const frontier = (query: Partial<FrontierQuery> = {}): FrontierQuery => ({
  direction: 'BOTH',
  types: null,
  pruneThreshold: THRESHOLD,
  budget: 1000,
  ...query,
});

export const walkOptions = (options: Partial<WalkOptions> = {}): WalkOptions => ({
  direction: 'BOTH',
  types: null,
  pruneThreshold: THRESHOLD,
  budget: 1000,
  ...options,
});

/** Steps as sortable strings, so two walks compare whatever order they listed them in. */
export const keys = (steps: readonly { from: string; to: string; edgeId: string; weight: number }[]) =>
  steps.map((step) => `${step.from}>${step.to}#${step.edgeId}@${step.weight}`).sort();

export async function memory(store: GraphStore, id: string, workspace = WS): Promise<void> {
  await store.createMemory(
    workspace,
    { id, key: null, title: id, content: null, kind: null, tags: [], weight: 0.5, metadata: null },
    NOW,
  );
}

/**
 * A fresh database file for each test of the calling file, and the stores a test opens on it
 * (several connections to one file, as separate processes would have), closed after the test.
 */
export function tempDatabase(prefix: string): {
  readonly path: string;
  open(options?: Partial<SqliteStoreOptions>): SqliteStore;
  /** Closes every store opened so far and deletes the file, for a test that starts over on an empty one. */
  reset(): Promise<void>;
} {
  let dir = '';
  let path = '';
  const opened: GraphStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    path = join(dir, 'engram.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get path() {
      return path;
    },
    open(options = {}) {
      const store = createSqliteStore({ path, ...options });
      opened.push(store);
      return store;
    },
    async reset() {
      for (const store of opened.splice(0)) await store.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

/**
 * Calls `observe` with the SQL text and the arguments of every run of a prepared statement's
 * `method`, on every connection (the store prepares each statement once, so the spy sits on what
 * every statement runs through). Returns the restore.
 */
export function observeStatementRuns(
  method: 'get' | 'all',
  observe: (source: string, args: readonly unknown[]) => void,
): () => void {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    typeof method,
    (...a: unknown[]) => unknown
  >;
  probe.close();
  const original = prototype[method];
  const spy = vi.spyOn(prototype, method).mockImplementation(function (this: { source: string }, ...args: unknown[]) {
    observe(this.source, args);
    return original.apply(this, args);
  });
  return () => spy.mockRestore();
}

/** What `pick` takes from each run of a prepared statement's `method` while `work` runs, in order (undefined left out). */
export async function runsDuring<T>(
  method: 'get' | 'all',
  pick: (source: string, args: readonly unknown[]) => T | undefined,
  work: () => Promise<unknown>,
): Promise<T[]> {
  const picked: T[] = [];
  const restore = observeStatementRuns(method, (source, args) => {
    const value = pick(source, args);
    if (value !== undefined) picked.push(value);
  });
  try {
    await work();
  } finally {
    restore();
  }
  return picked;
}

/** The store without its one-call search: findShortestPath then walks level by level over expandFrontier. */
export const levelByLevel = (store: GraphStore): GraphStore =>
  new Proxy(store, {
    get: (target, property) => (property === 'shortestPath' ? undefined : Reflect.get(target, property)),
  });

/** Links two memories of the store with a predictable edge id. */
export async function link(
  store: GraphStore,
  from: string,
  to: string,
  type = 'RELATED_TO',
  weight = 0.5,
  workspace = WS,
): Promise<string> {
  const { edge } = await store.linkEdge(
    workspace,
    {
      id: `e-${from}-${to}-${type}`,
      fromId: from,
      toId: to,
      type,
      weight,
      defaultWeight: 0.5,
      metadata: null,
      reason: null,
      eventId: `ev-${from}-${to}-${type}-${Math.random()}`,
    },
    NOW,
  );
  return edge.id;
}
