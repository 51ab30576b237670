import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp, type EngramApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { GraphQLResponse } from '../helpers/app.js';

export interface HardenedApp {
  app: EngramApp;
  store: GraphStore;
  dbPath: string;
  config: Config;
  /** Every log line the app wrote (parsed JSON), at the level given (default info). */
  logs: Record<string, any>[];
  /** Raw log text, to search for things that must never appear. */
  logText(): string;
  /** POSTs one operation as JSON; `headers` replace nothing but add to content-type. */
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
    extra?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T> & { headers: Headers }>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * An app over a fresh SQLite file with a log that tests can read. `env` is the environment
 * loadConfig sees (nothing else of process.env leaks in).
 */
export async function hardenedApp(
  options: { env?: Record<string, string>; logLevel?: string; wrapStore?: (store: GraphStore) => GraphStore } = {},
): Promise<HardenedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-hard-'));
  const dbPath = join(dir, 'engram.db');
  const config = loadConfig({ ENGRAM_SQLITE_PATH: dbPath, ...options.env });
  const realStore = createSqliteStore({ path: dbPath });
  const store = options.wrapStore ? options.wrapStore(realStore) : realStore;
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = pino({ level: options.logLevel ?? 'info', base: { service: 'engram' } }, sink);
  let app: EngramApp;
  try {
    app = createApp({ config, store, logger });
  } catch (error) {
    // An app that refuses to start (a test of that) leaves neither the file nor its connection behind.
    await realStore.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const fetch = (path: string, init?: RequestInit): Promise<Response> =>
    Promise.resolve(app.fetch(new URL(`http://engram.test${path}`), init ?? {}));
  return {
    app,
    store,
    dbPath,
    config,
    get logs() {
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, any>);
    },
    logText: () => text,
    fetch,
    async gql(query, variables, headers = {}, extra = {}) {
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables, ...extra }),
      });
      const body = (await response.json()) as Omit<GraphQLResponse, 'status'>;
      return { status: response.status, headers: response.headers, ...body } as GraphQLResponse<any> & {
        headers: Headers;
      };
    },
    async close() {
      await realStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const codes = (response: { errors?: { extensions?: Record<string, any> }[] }) =>
  (response.errors ?? []).map((error) => error.extensions?.code);
