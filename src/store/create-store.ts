import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import type { GraphStore } from './port.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';

/** The one place that knows which adapters exist. */
export async function createStore(config: Config): Promise<GraphStore> {
  switch (config.store.kind) {
    case 'sqlite':
      return createSqliteStore({ path: config.store.path, busyTimeoutMs: config.store.busyTimeoutMs });
    case 'neo4j':
      throw new ConfigError('ENGRAM_STORE=neo4j: the Neo4j store is not available in this build yet; use ENGRAM_STORE=sqlite');
  }
}
