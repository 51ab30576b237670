import { z } from 'zod';
import { count } from '../../domain/env-rules.js';
import { isEngramError } from '../../domain/errors.js';
import { type StoreAdapter, StoreSetupError } from '../adapter.js';

/** ENGRAM_STORE=neo4j: where the server is and how long to wait for it. */
export interface Neo4jStoreConfig {
  kind: 'neo4j';
  uri: string;
  user: string;
  /** Null when NEO4J_PASSWORD is unset: connect without credentials (a server with NEO4J_AUTH=none). */
  password: string | null;
  /** Null: the server's default database. */
  database: string | null;
  connectionAcquisitionTimeoutMs: number;
  connectionTimeoutMs: number;
  maxTransactionRetryTimeMs: number;
  transactionTimeoutMs: number;
}

/**
 * Bulk commands on Neo4j: a transaction's changes are held in memory until commit and a batch runs
 * at a few thousand edges per second, so batches are smaller and get a longer transaction timeout
 * than a request (NEO4J_TRANSACTION_TIMEOUT_MS, 5 s by default, failed the first 50,000-record batch).
 */
export const NEO4J_BATCH_SIZE = 10_000;
export const NEO4J_BULK_TIMEOUT_MS = 300_000;

const neo4jEnv = z.object({
  NEO4J_URI: z
    .string()
    .regex(
      /^(neo4j|bolt)(\+s|\+ssc)?:\/\/[^\s]+$/,
      'must be a neo4j:// or bolt:// URI (neo4j+s:// or bolt+s:// for TLS, +ssc for self-signed)',
    )
    .optional(),
  NEO4J_USER: z.string().min(1).optional().default('neo4j'),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z
    .string()
    .regex(
      /^[A-Za-z][A-Za-z0-9.-]{2,62}$/,
      'must be a Neo4j database name: 3-63 letters, digits, dots or dashes, starting with a letter',
    )
    .optional(),
  NEO4J_CONNECTION_ACQUISITION_TIMEOUT_MS: count(2000),
  NEO4J_CONNECTION_TIMEOUT_MS: count(3000),
  NEO4J_MAX_TRANSACTION_RETRY_TIME_MS: count(5000, 0),
  NEO4J_TRANSACTION_TIMEOUT_MS: count(5000),
});

function fromEnv(env: z.output<typeof neo4jEnv>): Neo4jStoreConfig {
  if (env.NEO4J_URI === undefined) {
    throw new StoreSetupError(
      'NEO4J_URI is required when ENGRAM_STORE=neo4j (e.g. neo4j://localhost:7687, or neo4j+s://<id>.databases.neo4j.io for Aura)',
    );
  }
  return {
    kind: 'neo4j',
    uri: env.NEO4J_URI,
    user: env.NEO4J_USER,
    password: env.NEO4J_PASSWORD ?? null,
    database: env.NEO4J_DATABASE ?? null,
    connectionAcquisitionTimeoutMs: env.NEO4J_CONNECTION_ACQUISITION_TIMEOUT_MS,
    connectionTimeoutMs: env.NEO4J_CONNECTION_TIMEOUT_MS,
    maxTransactionRetryTimeMs: env.NEO4J_MAX_TRANSACTION_RETRY_TIME_MS,
    transactionTimeoutMs: env.NEO4J_TRANSACTION_TIMEOUT_MS,
  };
}

async function create(settings: Neo4jStoreConfig) {
  // Loaded when a Neo4j store is opened: a process on SQLite (and every test file of its suite)
  // never imports the driver, which takes about 0.2 s.
  const [{ createNeo4jDriver, redactUri }, { createNeo4jStore }] = await Promise.all([
    import('./driver.js'),
    import('./neo4j-store.js'),
  ]);
  const store = createNeo4jStore({
    driver: createNeo4jDriver(settings),
    database: settings.database,
    transactionTimeoutMs: settings.transactionTimeoutMs,
    label: `${redactUri(settings.uri)}${settings.database ? ` (database ${settings.database})` : ''}`,
  });
  // A server that refuses us (credentials, privileges, version: Neo4jSetupError, a StoreSetupError)
  // stops start-up with a message naming the variable. A server that is down does not: the gateway
  // starts, /ready answers 503, and the schema is created on the first request that reaches the server.
  try {
    await store.ensureSchema();
  } catch (error) {
    if (!isEngramError(error) || error.code !== 'UNAVAILABLE') {
      await store.close();
      throw error;
    }
  }
  return store;
}

export const neo4jAdapter = {
  kind: 'neo4j',
  envSchema: neo4jEnv,
  envDocs: {
    title: 'Store: Neo4j',
    variables: {
      NEO4J_URI: {
        text: 'where the server is; required with `ENGRAM_STORE=neo4j`',
        rule: '`neo4j://` (routing: clusters, Aura) or `bolt://` (one server); `+s` for TLS, `+ssc` for a self-signed certificate',
      },
      NEO4J_USER: { text: 'user name' },
      NEO4J_PASSWORD: { text: 'password; unset: connect without credentials (`NEO4J_AUTH=none`)' },
      NEO4J_DATABASE: {
        text: 'database name; Community edition has one, `neo4j`',
        default: "the server's default",
        rule: '3-63 letters, digits, dots or dashes, starting with a letter',
      },
      NEO4J_CONNECTION_ACQUISITION_TIMEOUT_MS: { text: 'longest wait for a pooled connection' },
      NEO4J_CONNECTION_TIMEOUT_MS: { text: 'longest wait to open a connection' },
      NEO4J_MAX_TRANSACTION_RETRY_TIME_MS: {
        text: 'how long the driver retries a transaction after transient failures (leader switch, deadlock)',
      },
      NEO4J_TRANSACTION_TIMEOUT_MS: { text: 'server-side limit for every transaction' },
    },
  },
  fromEnv,
  create,
  createForBulk: (settings: Neo4jStoreConfig) =>
    create({ ...settings, transactionTimeoutMs: Math.max(settings.transactionTimeoutMs, NEO4J_BULK_TIMEOUT_MS) }),
  importBatchSize: NEO4J_BATCH_SIZE,
} satisfies StoreAdapter<'neo4j', typeof neo4jEnv.shape, Neo4jStoreConfig>;
