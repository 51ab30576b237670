import neo4j, { type AuthToken, type BookmarkManager } from 'neo4j-driver';

/**
 * The small part of neo4j-driver the store uses. The real Driver satisfies it; tests pass a
 * recording driver that captures every statement instead of talking to a server.
 */
export interface RecordLike {
  get(key: string): unknown;
}

export interface QueryResultLike {
  records: RecordLike[];
}

export type Parameters = Record<string, unknown>;

export interface TransactionLike {
  run(query: string, parameters?: Parameters): PromiseLike<QueryResultLike>;
}

/** A transaction the caller begins and ends: statements may be sent before BEGIN is answered. */
export interface ExplicitTransactionLike extends TransactionLike {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface TransactionSettings {
  /** Server-side transaction timeout, milliseconds. */
  timeout?: number;
  /** Shown by SHOW TRANSACTIONS and in the query log. */
  metadata?: Record<string, unknown>;
}

export interface SessionSettings {
  database?: string;
  defaultAccessMode: 'READ' | 'WRITE';
  bookmarkManager?: BookmarkManager;
}

export interface SessionLike {
  executeRead<T>(work: (tx: TransactionLike) => Promise<T>, settings?: TransactionSettings): Promise<T>;
  executeWrite<T>(work: (tx: TransactionLike) => Promise<T>, settings?: TransactionSettings): Promise<T>;
  /** Begins a transaction without waiting for the server: its BEGIN goes out with the first statement. */
  beginTransaction(settings?: TransactionSettings): ExplicitTransactionLike;
  /** Auto-commit, never retried: used by ping, which must fail fast. */
  run(query: string, parameters?: Parameters, settings?: TransactionSettings): PromiseLike<QueryResultLike>;
  close(): Promise<void>;
}

export interface DriverLike {
  session(settings: SessionSettings): SessionLike;
  close(): Promise<void>;
}

export interface Neo4jConnectionSettings {
  uri: string;
  user: string;
  /** Null connects without credentials (a server started with NEO4J_AUTH=none). */
  password: string | null;
  connectionAcquisitionTimeoutMs: number;
  connectionTimeoutMs: number;
  maxTransactionRetryTimeMs: number;
}

/**
 * The one driver of the process: created at start-up, closed on shutdown. Waits are bounded so a
 * store that is down answers UNAVAILABLE within seconds instead of hanging requests.
 */
export function createNeo4jDriver(settings: Neo4jConnectionSettings): DriverLike {
  const auth: AuthToken =
    settings.password === null
      ? { scheme: 'none', credentials: '' }
      : neo4j.auth.basic(settings.user, settings.password);
  return neo4j.driver(settings.uri, auth, {
    connectionAcquisitionTimeout: settings.connectionAcquisitionTimeoutMs,
    connectionTimeout: settings.connectionTimeoutMs,
    maxTransactionRetryTime: settings.maxTransactionRetryTimeMs,
    userAgent: 'engram',
  });
}

/** `neo4j+s://user:secret@host:7687` → `neo4j+s://host:7687`: the label may be logged, credentials never. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-z0-9+]+:\/\/)[^@/]*@/i, '$1');
}
