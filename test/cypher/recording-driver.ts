import { int, isInt, isRetryableError, Neo4jError, Record as Neo4jRecord, Node, Relationship } from 'neo4j-driver';
import type {
  DriverLike,
  ExplicitTransactionLike,
  Parameters,
  QueryResultLike,
  SessionLike,
  SessionSettings,
  TransactionLike,
  TransactionSettings,
} from '../../src/store/neo4j/driver.js';

/** One statement as the store sent it. */
export interface CapturedStatement {
  /** READ / WRITE for managed transactions, AUTOCOMMIT for session.run. */
  mode: 'READ' | 'WRITE' | 'AUTOCOMMIT';
  /** The statement's name, from its `// engram:<name>` first line. */
  name: string;
  text: string;
  parameters: Parameters;
  database: string | undefined;
  /** The transaction metadata's `op` (which port method). */
  op: string | undefined;
  /** Which attempt of a retried transaction function sent it (1 for the first). */
  attempt: number;
}

export type Row = Record<string, unknown>;

/** Answers one statement with rows (keys → values); may throw a Neo4jError to simulate the server. */
export type Responder = (statement: CapturedStatement) => Row[] | Promise<Row[]>;

const statementName = (text: string): string => /^\/\/ engram:(\S+)/.exec(text)?.[1] ?? 'unnamed';

function toRecords(rows: Row[]): QueryResultLike {
  return { records: rows.map((row) => new Neo4jRecord(Object.keys(row), Object.values(row))) };
}

/**
 * A stand-in for neo4j-driver's Driver that implements exactly the surface the store uses
 * (session → executeRead / executeWrite / run / close), captures every statement with its
 * parameters, and answers with canned records from a responder. Like the real driver, a
 * transaction function that fails with a retryable error is run again (up to `maxAttempts`),
 * which is how tests check that the store's transaction functions are safe to run twice.
 */
export class RecordingDriver implements DriverLike {
  readonly statements: CapturedStatement[] = [];
  readonly sessions: SessionSettings[] = [];
  /** Each transaction as it begins ("managed READ", "explicit READ") and each explicit end ("commit", "rollback"). */
  readonly transactions: string[] = [];
  closed = false;
  maxAttempts = 3;

  constructor(public respond: Responder = () => []) {}

  session(settings: SessionSettings): SessionLike {
    this.sessions.push(settings);
    return new RecordingSession(this, settings);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  clear(): void {
    this.statements.length = 0;
    this.sessions.length = 0;
    this.transactions.length = 0;
  }

  async capture(statement: Omit<CapturedStatement, 'name'>): Promise<QueryResultLike> {
    if (this.closed)
      throw new Neo4jError('Pool is closed, it is no more able to serve requests.', 'N/A', '50N42', 'closed');
    const captured: CapturedStatement = { ...statement, name: statementName(statement.text) };
    this.statements.push(captured);
    return toRecords(await this.respond(captured));
  }
}

class RecordingSession implements SessionLike {
  private open = true;

  constructor(
    private readonly driver: RecordingDriver,
    private readonly settings: SessionSettings,
  ) {}

  executeRead<T>(work: (tx: TransactionLike) => Promise<T>, config?: TransactionSettings): Promise<T> {
    return this.execute('READ', work, config);
  }

  executeWrite<T>(work: (tx: TransactionLike) => Promise<T>, config?: TransactionSettings): Promise<T> {
    return this.execute('WRITE', work, config);
  }

  beginTransaction(config?: TransactionSettings): ExplicitTransactionLike {
    if (!this.open) throw new Neo4jError('Cannot begin a transaction on a closed session.', 'N/A', '50N42', 'closed');
    const mode = this.settings.defaultAccessMode;
    this.driver.transactions.push(`explicit ${mode}`);
    return {
      ...this.transaction(mode, config, 1),
      commit: async () => {
        this.driver.transactions.push('commit');
      },
      rollback: async () => {
        this.driver.transactions.push('rollback');
      },
    };
  }

  run(query: string, parameters: Parameters = {}, config?: TransactionSettings): Promise<QueryResultLike> {
    return this.driver.capture({
      mode: 'AUTOCOMMIT',
      text: query,
      parameters,
      database: this.settings.database,
      op: config?.metadata?.op as string | undefined,
      attempt: 1,
    });
  }

  async close(): Promise<void> {
    this.open = false;
  }

  /** A transaction whose statements are captured with its mode, op and attempt. */
  private transaction(
    mode: 'READ' | 'WRITE',
    config: TransactionSettings | undefined,
    attempt: number,
  ): TransactionLike {
    return {
      run: (query, parameters = {}) =>
        this.driver.capture({
          mode,
          text: query,
          parameters,
          database: this.settings.database,
          op: config?.metadata?.op as string | undefined,
          attempt,
        }),
    };
  }

  private async execute<T>(
    mode: 'READ' | 'WRITE',
    work: (tx: TransactionLike) => Promise<T>,
    config?: TransactionSettings,
  ): Promise<T> {
    if (!this.open) throw new Neo4jError('Cannot begin a transaction on a closed session.', 'N/A', '50N42', 'closed');
    for (let attempt = 1; ; attempt++) {
      this.driver.transactions.push(`managed ${mode}`);
      const tx = this.transaction(mode, config, attempt);
      try {
        return await work(tx);
      } catch (error) {
        if (!isRetryableError(error) || attempt >= this.driver.maxAttempts) throw error;
      }
    }
  }
}

// ---- canned values, built from the driver's own types ------------------------------------------

let identity = 0;
const nextIdentity = () => int(++identity);

export function memoryNode(properties: Row): Node {
  const id = nextIdentity();
  return new Node(id, ['Memory'], properties, `4:test:${id.toString()}`);
}

export function eventNode(properties: Row): Node {
  const id = nextIdentity();
  return new Node(id, ['WeightEvent'], properties, `4:test:${id.toString()}`);
}

export function relationship(type: string, properties: Row): Relationship {
  const id = nextIdentity();
  return new Relationship(id, int(0), int(0), type, properties, `5:test:${id.toString()}`);
}

export function serverError(code: string, message = 'simulated server error'): Neo4jError {
  return new Neo4jError(message, code, '50N42', 'simulated');
}

/** Parameters as a snapshot shows them: Integers as `int(n)`, everything else as JSON. */
function printable(value: unknown): unknown {
  if (isInt(value)) return `int(${value.toString()})`;
  if (Array.isArray(value)) return value.map(printable);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value as Row).map(([key, inner]) => [key, printable(inner)]));
  }
  return value;
}

/** TCK-style rendering of what a call sent: mode, name, the Cypher, the parameters. */
export function renderStatements(statements: readonly CapturedStatement[]): string {
  return statements
    .map((statement) =>
      [
        `# ${statement.mode} ${statement.name}${statement.op ? ` (op ${statement.op})` : ''}${statement.attempt > 1 ? ` attempt ${statement.attempt}` : ''}`,
        '```cypher',
        statement.text,
        '```',
        '```json',
        JSON.stringify(printable(statement.parameters), null, 2),
        '```',
      ].join('\n'),
    )
    .join('\n\n');
}
