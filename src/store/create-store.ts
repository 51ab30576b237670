import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { isEngramError } from '../domain/errors.js';
import { createNeo4jDriver, redactUri } from './neo4j/driver.js';
import { createNeo4jStore } from './neo4j/neo4j-store.js';
import { Neo4jSetupError } from './neo4j/schema.js';
import type { GraphStore } from './port.js';
import { createSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';

/** The SQLite store's options from its configuration (the server, the bench servers and the tests' apps share them). */
export function sqliteStoreOptions(settings: Extract<Config['store'], { kind: 'sqlite' }>): SqliteStoreOptions {
  return {
    path: settings.path,
    busyTimeoutMs: settings.busyTimeoutMs,
    cacheSizeMb: settings.cacheSizeMb,
    adjacencyIndex: { maxBytes: settings.indexMaxMb * 1024 * 1024, idleMs: settings.indexIdleSeconds * 1000 },
  };
}

/** The one place that knows which adapters exist. */
export async function createStore(config: Config): Promise<GraphStore> {
  switch (config.store.kind) {
    case 'sqlite':
      return createSqliteStore(sqliteStoreOptions(config.store));
    case 'neo4j': {
      const settings = config.store;
      const store = createNeo4jStore({
        driver: createNeo4jDriver(settings),
        database: settings.database,
        transactionTimeoutMs: settings.transactionTimeoutMs,
        label: `${redactUri(settings.uri)}${settings.database ? ` (database ${settings.database})` : ''}`,
      });
      // A server that refuses us (credentials, privileges, version) stops start-up with a message
      // naming the variable. A server that is down does not: the gateway starts, /ready answers 503,
      // and the schema is created on the first request that reaches the server.
      try {
        await store.ensureSchema();
      } catch (error) {
        if (error instanceof Neo4jSetupError) {
          await store.close();
          throw new ConfigError(`Invalid configuration: ${error.message}`);
        }
        if (!isEngramError(error) || error.code !== 'UNAVAILABLE') {
          await store.close();
          throw error;
        }
      }
      return store;
    }
  }
}
