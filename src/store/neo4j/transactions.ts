import { bookmarkManager as newBookmarkManager } from 'neo4j-driver';
import { unavailable } from '../../domain/errors.js';
import { PING } from './cypher/schema.js';
import type { DriverLike, Parameters, RecordLike, SessionLike, TransactionLike } from './driver.js';
import { toEngramError } from './errors.js';
import type { Neo4jStoreOptions } from './neo4j-store.js';
import { bootstrapSchema, Neo4jSetupError, type ServerInfo } from './schema.js';

type AccessMode = 'READ' | 'WRITE';

/** Sessions, the schema bootstrap and managed transactions of one store: what every operation goes through. */
export interface Neo4jRunner {
  /** Checks the server and creates constraints and indexes once (retried after a failure). */
  ensureSchema(): Promise<ServerInfo>;
  /**
   * Schema in place, one session, one managed transaction (which the driver may re-run, so `work`
   * keeps nothing outside), errors mapped once; a uniqueness violation reads `conflictMessage`.
   */
  transaction<T>(
    mode: AccessMode,
    op: string,
    work: (tx: TransactionLike) => Promise<T>,
    conflictMessage?: string,
  ): Promise<T>;
  read<T>(op: string, work: (tx: TransactionLike) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function rows(tx: TransactionLike, text: string, parameters: Parameters): Promise<RecordLike[]> {
  return (await tx.run(text, parameters)).records;
}

export async function first(tx: TransactionLike, text: string, parameters: Parameters): Promise<RecordLike | null> {
  return (await rows(tx, text, parameters))[0] ?? null;
}

const closedError = () => unavailable(new Error('The Neo4j store is closed'));

export function createNeo4jRunner(options: Neo4jStoreOptions): Neo4jRunner {
  const driver: DriverLike = options.driver;
  const database = options.database ?? null;
  const timeout = options.transactionTimeoutMs ?? 5000;
  const bookmarks = options.bookmarkManager === undefined ? newBookmarkManager() : options.bookmarkManager;
  let closed = false;
  let schema: Promise<ServerInfo> | null = null;

  const session = (mode: AccessMode): SessionLike =>
    driver.session({
      defaultAccessMode: mode,
      ...(database ? { database } : {}),
      ...(bookmarks ? { bookmarkManager: bookmarks } : {}),
    });

  function ensureSchema(): Promise<ServerInfo> {
    if (closed) return Promise.reject(closedError());
    schema ??= bootstrapSchema({
      session,
      settings: { timeout },
      indexWaitSeconds: options.indexWaitSeconds ?? 30,
    }).catch((error: unknown) => {
      schema = null;
      throw error instanceof Neo4jSetupError ? error : toEngramError(error);
    });
    return schema;
  }

  /** A request meets a refusing server as UNAVAILABLE; only start-up reports the setup error itself. */
  async function schemaForRequest(): Promise<void> {
    try {
      await ensureSchema();
    } catch (error) {
      throw error instanceof Neo4jSetupError ? unavailable(error) : error;
    }
  }

  async function transaction<T>(
    mode: AccessMode,
    op: string,
    work: (tx: TransactionLike) => Promise<T>,
    conflictMessage?: string,
  ): Promise<T> {
    if (closed) throw closedError();
    await schemaForRequest();
    const current = session(mode);
    const settings = { timeout, metadata: { app: 'engram', op } };
    try {
      return mode === 'READ' ? await current.executeRead(work, settings) : await current.executeWrite(work, settings);
    } catch (error) {
      throw toEngramError(error, conflictMessage);
    } finally {
      await current.close().catch(() => undefined);
    }
  }

  return {
    ensureSchema,
    transaction,
    read: (op, work) => transaction('READ', op, work),

    async ping() {
      if (closed) throw closedError();
      // Auto-commit and never retried, before the (retried) schema bootstrap: a readiness probe
      // must answer within the connection timeout, not after the whole retry window.
      const current = session('READ');
      try {
        await current.run(PING, {}, { timeout, metadata: { app: 'engram', op: 'ping' } });
      } catch (error) {
        throw toEngramError(error);
      } finally {
        await current.close().catch(() => undefined);
      }
      await schemaForRequest();
    },

    async close() {
      if (closed) return;
      closed = true;
      await driver.close();
    },
  };
}
