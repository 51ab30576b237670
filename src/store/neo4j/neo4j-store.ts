import type { BookmarkManager } from 'neo4j-driver';
import type { GraphStore } from '../port.js';
import { createNeo4jAssociations } from './associations.js';
import type { DriverLike } from './driver.js';
import { createNeo4jReads } from './reads.js';
import { createNeo4jRecallCues } from './recall-cues.js';
import { createNeo4jRecallRecords } from './recall-records.js';
import type { ServerInfo } from './schema.js';
import { createNeo4jSearch } from './search.js';
import { createNeo4jSearchPages } from './search-pages.js';
import { createNeo4jRunner } from './transactions.js';
import { createNeo4jVectors } from './vectors.js';
import { createNeo4jWrites } from './writes.js';

export interface Neo4jStoreOptions {
  /** The process's one driver (createNeo4jDriver); the store closes it on close(). */
  driver: DriverLike;
  /** Null or absent: the server's default database. */
  database?: string | null;
  /** Server-side timeout of every transaction. */
  transactionTimeoutMs?: number;
  /** How long the schema bootstrap waits for new indexes. */
  indexWaitSeconds?: number;
  /** Shown in `description`, e.g. the URI without credentials. */
  label?: string;
  /**
   * Shared by every session of this store, so a read always sees this process's earlier writes,
   * even when it is routed to a cluster follower. Null turns causal chaining off.
   */
  bookmarkManager?: BookmarkManager | null;
  /**
   * A memory with up to this many relationships per edge asked for is read by expanding them all,
   * a larger one from the EdgeRef page indexes (reads.ts). Tests set 0 to read every memory
   * from the indexes.
   */
  expandPerRow?: number;
}

export interface Neo4jStore extends GraphStore {
  /**
   * Checks the server and creates constraints and indexes, once per store (retried after a
   * failure). Rejects with Neo4jSetupError when the server refuses (credentials, privileges,
   * version, a conflicting index) and with UNAVAILABLE when it cannot be reached.
   */
  ensureSchema(): Promise<ServerInfo>;
}

/**
 * The GraphStore over Neo4j: the runner (sessions, schema, transactions, error mapping), the reads
 * and the writes, each in its own file; every statement comes from cypher/.
 */
export function createNeo4jStore(options: Neo4jStoreOptions): Neo4jStore {
  const runner = createNeo4jRunner(options);
  const reads = createNeo4jReads(runner, options.expandPerRow);
  return {
    description: `neo4j ${options.label ?? ''}`.trim(),
    pooledReads: true,
    ensureSchema: runner.ensureSchema,
    ping: runner.ping,
    close: runner.close,
    ...reads,
    ...createNeo4jSearch(runner),
    ...createNeo4jWrites(runner, reads),
    ...createNeo4jRecallRecords(runner),
    ...createNeo4jRecallCues(runner),
    ...createNeo4jSearchPages(runner),
    ...createNeo4jVectors(runner),
    ...createNeo4jAssociations(runner),
  };
}
