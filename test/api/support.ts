import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect } from 'vitest';
import type { GraphStore } from '../../src/store/port.js';
import { type GraphFixture, type SeededGraph, seedGraph } from '../fixtures/graphs.js';
import { countingStore, createTestApp, type GraphQLResponse, type TestApp } from '../helpers/app.js';

/** The workspace a request without the x-engram-workspace header acts in. */
export const DEFAULT_WS = 'default';

/**
 * A fresh app (and SQLite file) for every test of the calling file or describe block. The getter
 * reads the current one, so tests write `api().gql(...)`.
 */
export function useTestApp(options: Parameters<typeof createTestApp>[0] = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await createTestApp(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('useTestApp: no app outside a test');
    return current;
  };
}

/** Like useTestApp, with the store wrapped so tests can count port calls per request. */
export function useCountingApp(): { api: () => TestApp; calls: () => Map<string, number>; reset: () => void } {
  let counter: ReturnType<typeof countingStore> | undefined;
  const api = useTestApp({
    wrapStore: (store: GraphStore) => {
      counter = countingStore(store);
      return counter.store;
    },
  });
  return {
    api,
    calls: () => counter?.calls ?? new Map(),
    reset: () => counter?.reset(),
  };
}

/**
 * The store without its optional one-call `shortestPath`, so path falls back to the level-by-level
 * walk over expandFrontier that every store has.
 */
export const withoutShortestPath = (store: GraphStore): GraphStore =>
  new Proxy(store, {
    get: (target, property, receiver) =>
      property === 'shortestPath' ? undefined : Reflect.get(target, property, receiver),
  });

export const seed = (app: TestApp, fixture: GraphFixture, workspace = DEFAULT_WS): Promise<SeededGraph> =>
  seedGraph(app.store, workspace, fixture);

export interface DbSnapshot {
  counts: { memories: number; edges: number; weight_events: number };
  /** Every row of the three tables, so an UPDATE shows up as well as an INSERT or DELETE. */
  rows: Record<'memories' | 'edges' | 'weight_events', unknown[]>;
}

/** Reads the SQLite file with its own read-only connection, bypassing the app and the store. */
export function readDb(dbPath: string): DbSnapshot {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const all = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY rid`).all();
    return {
      counts: { memories: count('memories'), edges: count('edges'), weight_events: count('weight_events') },
      rows: { memories: all('memories'), edges: all('edges'), weight_events: all('weight_events') },
    };
  } finally {
    db.close();
  }
}

export const countRows = (app: TestApp): DbSnapshot['counts'] => readDb(app.dbPath).counts;

/** Rows added per table between two snapshots. */
export function rowsAdded(before: DbSnapshot['counts'], after: DbSnapshot['counts']): DbSnapshot['counts'] {
  return {
    memories: after.memories - before.memories,
    edges: after.edges - before.edges,
    weight_events: after.weight_events - before.weight_events,
  };
}

/** The response carries exactly one error, with this code, and (when given) a message matching `message`. */
export function expectError(
  response: GraphQLResponse,
  code: string,
  message?: RegExp | string,
): { message: string; extensions?: Record<string, any> } {
  expect(response.errors, JSON.stringify(response)).toHaveLength(1);
  const [error] = response.errors ?? [];
  expect(error?.extensions?.code, JSON.stringify(error)).toBe(code);
  if (message !== undefined) {
    if (typeof message === 'string') expect(error?.message).toBe(message);
    else expect(error?.message).toMatch(message);
  }
  return error as { message: string; extensions?: Record<string, any> };
}

/**
 * Runs an operation that must fail with `code` and asserts, by reading the database file directly,
 * that it wrote nothing at all.
 */
export async function expectRejectedWithoutWrites(
  app: TestApp,
  operation: { query: string; variables?: Record<string, unknown>; workspace?: string },
  code: string,
  message?: RegExp | string,
): Promise<{ message: string; extensions?: Record<string, any> }> {
  const before = readDb(app.dbPath);
  const response = await app.gql(operation.query, operation.variables, { workspace: operation.workspace });
  const error = expectError(response, code, message);
  const after = readDb(app.dbPath);
  expect(after.counts).toEqual(before.counts);
  expect(after.rows).toEqual(before.rows);
  return error;
}

/** Sorts ids the way the store breaks weight ties (edge id ascending). */
export const byId = (ids: string[]): string[] => [...ids].sort();
