import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import type { Neo4jStoreConfig } from '../../src/store/neo4j/adapter.js';
import { createNeo4jDriver, type DriverLike, type RecordLike, redactUri } from '../../src/store/neo4j/driver.js';
import { createNeo4jStore, type Neo4jStore, type Neo4jStoreOptions } from '../../src/store/neo4j/neo4j-store.js';
import { toNumber } from '../../src/store/neo4j/records.js';
import type { GraphStore } from '../../src/store/port.js';

/**
 * Live Neo4j for tests: `npm run test:neo4j` starts a Neo4j 5 Community server and sets NEO4J_URI,
 * NEO4J_USER and NEO4J_PASSWORD (and ENGRAM_TEST_STORE=neo4j, which makes createTestApp use it).
 * One database serves every test file at once, so each store a test opens prefixes every
 * workspace it is given (`engram-test-<run>-<n>-<workspace>`) and its cleanup deletes exactly
 * those nodes: tests never see each other's data, nor anything else in the database.
 */

/** True when the API tests should run on Neo4j instead of SQLite (set by `npm run test:neo4j`). */
export const apiTestsOnNeo4j = (): boolean => process.env.ENGRAM_TEST_STORE === 'neo4j';

export function liveNeo4jConfig(): Neo4jStoreConfig {
  if (!process.env.NEO4J_URI) throw new Error('NEO4J_URI is not set: run the live tests with `npm run test:neo4j`');
  return loadConfig({ ...process.env, ENGRAM_STORE: 'neo4j', ENGRAM_LOG_LEVEL: 'silent' }).store as Neo4jStoreConfig;
}

const run = `engram-test-${randomUUID().slice(0, 8)}`;
let counter = 0;

/** Every workspace argument gets the prefix: the proxied store acts only inside its own namespace. */
function namespaced<T extends GraphStore>(store: T, ns: (workspace: string) => string): T {
  const unscoped = new Set(['ping', 'close', 'ensureSchema']);
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || unscoped.has(String(property))) return value;
      if (property === 'workspacesNeedingEmbedding') return namespacedQueue(target, ns);
      return (workspace: string, ...rest: unknown[]) =>
        (value as (...args: unknown[]) => unknown).call(target, ns(workspace), ...rest);
    },
  });
}

/** The one cross-workspace read: this namespace's workspaces among the first many, without the prefix. */
function namespacedQueue(store: GraphStore, ns: (workspace: string) => string) {
  const prefix = ns('');
  return async (limit: number) =>
    (await store.workspacesNeedingEmbedding(1000))
      .filter((workspace) => workspace.startsWith(prefix))
      .map((workspace) => workspace.slice(prefix.length))
      .slice(0, limit);
}

/** Runs statements with a driver of their own, bypassing the adapter (inspection and cleanup). */
async function queryNeo4j(
  config: Neo4jStoreConfig,
  text: string,
  parameters: Record<string, unknown> = {},
): Promise<RecordLike[]> {
  const driver = createNeo4jDriver(config);
  try {
    return await runOn(driver, config, text, parameters);
  } finally {
    await driver.close();
  }
}

/** A workspace's memories, relationships and EdgeRefs, counted by Cypher: what an import must leave. */
export async function workspaceCounts(
  config: Neo4jStoreConfig,
  workspace: string,
): Promise<{ memories: number; edges: number; edgeRefs: number }> {
  const count = async (text: string) => toNumber((await queryNeo4j(config, text, { ws: workspace }))[0]?.get('n'), 'n');
  return {
    memories: await count('MATCH (m:Memory {workspace: $ws}) RETURN count(m) AS n'),
    edges: await count('MATCH (:Memory {workspace: $ws})-[r]->() RETURN count(r) AS n'),
    edgeRefs: await count('MATCH (k:EdgeRef {workspace: $ws}) RETURN count(k) AS n'),
  };
}

export async function runOn(
  driver: DriverLike,
  config: Neo4jStoreConfig,
  text: string,
  parameters: Record<string, unknown>,
): Promise<RecordLike[]> {
  const session = driver.session({
    defaultAccessMode: 'WRITE',
    ...(config.database ? { database: config.database } : {}),
  });
  try {
    return await session.executeWrite(async (tx) => (await tx.run(text, parameters)).records);
  } finally {
    await session.close();
  }
}

/** Deletes every Engram node whose workspace starts with the prefix (memories with their relationships). */
export async function clearNamespace(config: Neo4jStoreConfig, prefix: string, driver?: DriverLike): Promise<void> {
  const own = driver ?? createNeo4jDriver(config);
  try {
    for (const label of [
      'Memory',
      'EdgeRef',
      'WeightEvent',
      'MemoryVector',
      'VectorSpace',
      'MemoryTerm',
      'MemoryTag',
    ]) {
      // In slices, so a large test graph never makes one huge transaction.
      for (;;) {
        const [record] = await runOn(
          own,
          config,
          `MATCH (n:${label}) WHERE n.workspace STARTS WITH $prefix WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n`,
          { prefix },
        );
        const deleted = record?.get('n') as { toNumber?: () => number } | number | undefined;
        if ((typeof deleted === 'number' ? deleted : (deleted?.toNumber?.() ?? 0)) === 0) break;
      }
    }
  } finally {
    if (!driver) await own.close();
  }
}

export interface LiveNeo4jStore {
  /** The namespaced store: what tests and the app use. */
  store: GraphStore;
  /** The adapter itself, for what only it has (ensureSchema). */
  raw: Neo4jStore;
  ns: (workspace: string) => string;
  prefix: string;
  /** Closes the store and deletes its namespace. */
  cleanup(): Promise<void>;
}

/** A fresh Neo4j store in a namespace of its own, with its own driver, as the app would create it. */
export function openLiveNeo4jStore(
  config: Neo4jStoreConfig = liveNeo4jConfig(),
  options: Pick<Neo4jStoreOptions, 'expandPerRow'> = {},
): LiveNeo4jStore {
  const prefix = `${run}-${++counter}-`;
  const ns = (workspace: string) => `${prefix}${workspace}`;
  const raw = createNeo4jStore({
    driver: createNeo4jDriver(config),
    database: config.database,
    transactionTimeoutMs: config.transactionTimeoutMs,
    label: redactUri(config.uri),
    ...options,
  });
  return {
    store: namespaced(raw, ns),
    raw,
    ns,
    prefix,
    async cleanup() {
      await raw.close();
      await clearNamespace(config, prefix);
    },
  };
}
