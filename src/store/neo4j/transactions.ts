import { bookmarkManager as newBookmarkManager } from 'neo4j-driver';
import { isEngramError, unavailable } from '../../domain/errors.js';
import { currentRequestReads, type RequestReads } from '../request-reads.js';
import { PING } from './cypher/schema.js';
import type {
  DriverLike,
  ExplicitTransactionLike,
  Parameters,
  RecordLike,
  SessionLike,
  TransactionLike,
} from './driver.js';
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

/**
 * `work` that neither begins an attempt nor lets one commit once the request's deadline has
 * passed: its client was answered UNAVAILABLE then, and a write that waited out the deadline (on
 * a lock, or in the driver's back-off between re-runs) must not land after that answer. Throwing
 * in the transaction function rolls it back, and the driver re-runs only on its own errors.
 * Only a COMMIT already sent when the deadline passes can still land.
 */
function beforeDeadline<T>(
  work: (tx: TransactionLike) => Promise<T>,
  deadline: AbortSignal,
): (tx: TransactionLike) => Promise<T> {
  return async (tx) => {
    deadline.throwIfAborted();
    const result = await work(tx);
    deadline.throwIfAborted();
    return result;
  };
}

/** A request's read transaction and its session (request-reads.ts). */
interface SharedRead {
  session: SessionLike;
  tx: ExplicitTransactionLike;
}

/** Ends a request's read transaction and gives its connection back; never rejects. */
async function endShared(shared: SharedRead, how: 'commit' | 'rollback'): Promise<void> {
  try {
    await (how === 'commit' ? shared.tx.commit() : shared.tx.rollback());
  } catch {
    // A read transaction has nothing to lose: a failed end only returns its connection later.
  } finally {
    await shared.session.close().catch(() => undefined);
  }
}

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

  /** One session, one managed transaction, which the driver re-runs on transient failures. */
  async function managed<T>(
    mode: AccessMode,
    op: string,
    work: (tx: TransactionLike) => Promise<T>,
    conflictMessage?: string,
  ): Promise<T> {
    if (closed) throw closedError();
    await schemaForRequest();
    const current = session(mode);
    const settings = { timeout, metadata: { app: 'engram', op } };
    const deadline = currentRequestReads()?.deadline;
    const attempt = deadline ? beforeDeadline(work, deadline) : work;
    try {
      return mode === 'READ'
        ? await current.executeRead(attempt, settings)
        : await current.executeWrite(attempt, settings);
    } catch (error) {
      throw toEngramError(error, conflictMessage);
    } finally {
      await current.close().catch(() => undefined);
    }
  }

  /**
   * Every read of one GraphQL request in one transaction (request-reads.ts), begun by its first
   * read with BEGIN sent together with that statement, and committed when execution is over: a
   * request that reads five times costs one BEGIN and one COMMIT instead of five of each, and its
   * loader batches ride the same transaction. Neo4j reads at read-committed isolation, so a later
   * statement still sees what other transactions committed meanwhile; a write of the request runs
   * in its own transaction and ends the shared one as it starts (without waiting for that COMMIT),
   * so the reads after it begin anew (with the write's bookmark). A statement that fails ends the shared transaction, and its work runs
   * again as a managed read, which the driver retries on transient failures; an error the work
   * itself throws (a domain error) passes through and leaves the transaction open.
   */
  async function sharedRead<T>(reads: RequestReads, op: string, work: (tx: TransactionLike) => Promise<T>): Promise<T> {
    if (closed) throw closedError();
    await schemaForRequest();
    let shared = reads.get<SharedRead>(runner);
    if (!shared) {
      const readSession = session('READ');
      const fresh: SharedRead = {
        session: readSession,
        tx: readSession.beginTransaction({ timeout, metadata: { app: 'engram', op: 'request' } }),
      };
      reads.set(runner, fresh, () => endShared(fresh, 'commit'));
      shared = fresh;
    }
    try {
      return await work(shared.tx);
    } catch (error) {
      if (isEngramError(error)) throw error;
      // The transaction is done for: later reads of the request begin another.
      if (reads.get(runner) === shared) reads.forget(runner);
      void endShared(shared, 'rollback');
      return managed('READ', op, work);
    }
  }

  async function transaction<T>(
    mode: AccessMode,
    op: string,
    work: (tx: TransactionLike) => Promise<T>,
    conflictMessage?: string,
  ): Promise<T> {
    const reads = currentRequestReads();
    if (reads && mode === 'READ') return sharedRead(reads, op, work);
    // The shared read's COMMIT is sent now but not waited for: it wrote nothing the write could need.
    void reads?.endOf(runner);
    return managed(mode, op, work, conflictMessage);
  }

  const runner: Neo4jRunner = {
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
  return runner;
}
