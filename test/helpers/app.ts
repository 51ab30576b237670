import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type EngramApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { GraphStore } from '../../src/store/port.js';
import { sqliteStoreOptions } from '../../src/store/sqlite/adapter.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { apiTestsOnNeo4j, openLiveNeo4jStore } from './neo4j.js';

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
  /** Response extensions: `cost` ({ requested, actual, quota? }) on every executed operation. */
  extensions?: Record<string, any>;
}

export interface TestApp {
  app: EngramApp;
  store: GraphStore;
  dbPath: string;
  config: Config;
  /** Runs one operation through yoga.fetch, as an HTTP client would. */
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { workspace?: string; headers?: Record<string, string> },
  ): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

/**
 * A real app over a real SQLite file in a fresh temp folder. `wrapStore` lets a test observe the
 * store (e.g. count calls) without replacing it. Under `npm run test:neo4j` (ENGRAM_TEST_STORE=neo4j)
 * the store is the live Neo4j one instead, in a namespace of its own (test/helpers/neo4j.ts).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; wrapStore?: (store: GraphStore) => GraphStore } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-test-'));
  const dbPath = join(dir, 'engram.db');
  const config = loadConfig({ ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'silent', ...options.env });
  const live = apiTestsOnNeo4j() ? openLiveNeo4jStore() : null;
  // The server's own SQLite options (ENGRAM_INDEX_MAX_MB and the rest), on the temp file.
  const realStore = live
    ? live.store
    : createSqliteStore(config.store.kind === 'sqlite' ? sqliteStoreOptions(config.store) : { path: dbPath });
  const store = options.wrapStore ? options.wrapStore(realStore) : realStore;
  const app = createApp({ config, store, logger: createLogger('silent') });
  return {
    app,
    store,
    dbPath,
    config,
    async gql(query, variables, requestOptions = {}) {
      const response = await app.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(requestOptions.workspace ? { 'x-engram-workspace': requestOptions.workspace } : {}),
          ...requestOptions.headers,
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as Omit<GraphQLResponse, 'status'>;
      return { status: response.status, ...body } as GraphQLResponse<any>;
    },
    async close() {
      await realStore.close();
      await live?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Counts calls per port method, for asserting how many store round trips a query costs. */
export function countingStore(store: GraphStore): { store: GraphStore; calls: Map<string, number>; reset(): void } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(property), (calls.get(String(property)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls, reset: () => calls.clear() };
}
