import { int, Neo4jError } from 'neo4j-driver';
import { StoreSetupError } from '../adapter.js';
import {
  AWAIT_INDEXES,
  MARK_MIGRATION_DONE,
  MIGRATIONS,
  MIGRATIONS_DONE,
  SCHEMA,
  SERVER_COMPONENTS,
} from './cypher/schema.js';
import type { SessionLike, TransactionLike, TransactionSettings } from './driver.js';
import { classifyNeo4jError } from './errors.js';

/** The server answered but cannot be used as configured; retrying will not help. The message names what to change. */
export class Neo4jSetupError extends StoreSetupError {
  override name = 'Neo4jSetupError';
}

export interface ServerInfo {
  version: string;
  edition: string;
}

export interface SchemaDeps {
  session(mode: 'READ' | 'WRITE'): SessionLike;
  settings: TransactionSettings;
  /** How long start-up waits for new indexes to come online. */
  indexWaitSeconds: number;
}

/** 5.23 brought the `CALL (x) { ... }` scope clause the statements use; 2025.x and later are calendar-versioned. */
export function isSupportedVersion(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return major > 5 || (major === 5 && minor >= 23);
}

const MISCONFIGURED_MESSAGES: Record<string, string> = {
  'Neo.ClientError.Security.Unauthorized': 'Neo4j rejected the credentials: check NEO4J_USER and NEO4J_PASSWORD',
  'Neo.ClientError.Security.CredentialsExpired':
    'The Neo4j password of NEO4J_USER has expired: change it on the server, then NEO4J_PASSWORD',
  'Neo.ClientError.Security.TokenExpired': 'The Neo4j credentials have expired: check NEO4J_USER and NEO4J_PASSWORD',
  'Neo.ClientError.Security.Forbidden':
    'NEO4J_USER may not create the indexes and constraints Engram needs: grant it schema privileges (or run Engram once as an admin)',
  'Neo.ClientError.Database.DatabaseNotFound':
    'NEO4J_DATABASE names a database the server does not have (Community edition has only "neo4j")',
};

async function once<T>(
  session: SessionLike,
  mode: 'READ' | 'WRITE',
  work: (tx: TransactionLike) => Promise<T>,
  settings: TransactionSettings,
): Promise<T> {
  try {
    return mode === 'READ' ? await session.executeRead(work, settings) : await session.executeWrite(work, settings);
  } finally {
    await session.close().catch(() => undefined);
  }
}

function setupError(error: unknown, what: string): unknown {
  const kind = classifyNeo4jError(error);
  if (kind === 'unavailable' || !(error instanceof Neo4jError)) return error;
  const known = MISCONFIGURED_MESSAGES[error.code];
  if (known) return new Neo4jSetupError(known, { cause: error });
  return new Neo4jSetupError(`${what} failed (${error.code}); an existing index or constraint may be in the way`, {
    cause: error,
  });
}

/**
 * Checks the server and creates Engram's constraints and indexes, idempotently (IF NOT EXISTS), one
 * statement per transaction. Replicas starting together may race on the same statement; a schema
 * failure is therefore tried once more, which then finds the rule in place.
 */
export async function bootstrapSchema(deps: SchemaDeps): Promise<ServerInfo> {
  const settings = { ...deps.settings, metadata: { app: 'engram', op: 'bootstrapSchema' } };
  // Creating a constraint over an existing graph scans it, and waiting for indexes takes what it
  // takes: both get the index wait on top of the usual transaction timeout.
  const slow = { ...settings, timeout: deps.indexWaitSeconds * 1000 + (deps.settings.timeout ?? 0) };
  let info: ServerInfo = { version: 'unknown', edition: 'unknown' };
  try {
    const { records } = await once(deps.session('READ'), 'READ', async (tx) => tx.run(SERVER_COMPONENTS, {}), settings);
    const kernel = records.find((record) => record.get('name') === 'Neo4j Kernel') ?? records[0];
    if (kernel) {
      const versions = kernel.get('versions');
      const version =
        Array.isArray(versions) && typeof versions[0] === 'string' && /^\d/.test(versions[0]) ? versions[0] : 'unknown';
      info = { version, edition: String(kernel.get('edition') ?? 'unknown') };
    }
  } catch (error) {
    // Credentials and database problems stop here; a user who may not list components goes on unchecked.
    if (classifyNeo4jError(error) === 'unavailable') throw error;
    if (
      error instanceof Neo4jError &&
      error.code !== 'Neo.ClientError.Security.Forbidden' &&
      MISCONFIGURED_MESSAGES[error.code]
    ) {
      throw setupError(error, 'Reading the server version');
    }
  }
  if (info.version !== 'unknown' && !isSupportedVersion(info.version)) {
    throw new Neo4jSetupError(
      `Engram needs Neo4j 5.23 or newer (5.26 LTS or 2025.x recommended); the server runs ${info.version}`,
    );
  }

  for (const { name, text } of SCHEMA) {
    for (let attempt = 1; ; attempt++) {
      try {
        await once(deps.session('WRITE'), 'WRITE', async (tx) => tx.run(text, {}), slow);
        break;
      } catch (error) {
        const schemaRace = error instanceof Neo4jError && error.code.startsWith('Neo.ClientError.Schema.');
        if (schemaRace && attempt === 1) continue;
        throw setupError(error, `Creating ${name}`);
      }
    }
  }

  try {
    await once(
      deps.session('READ'),
      'READ',
      async (tx) => tx.run(AWAIT_INDEXES, { timeoutSeconds: int(deps.indexWaitSeconds) }),
      slow,
    );
  } catch (error) {
    // Indexes over a large existing graph may still be populating: they come online by themselves.
    if (classifyNeo4jError(error) === 'unavailable') throw error;
  }
  await runMigrations(deps, slow);
  return info;
}

/** Each migration not yet marked done (see MIGRATIONS), in order. */
async function runMigrations(deps: SchemaDeps, settings: TransactionSettings): Promise<void> {
  const { records } = await once(deps.session('READ'), 'READ', async (tx) => tx.run(MIGRATIONS_DONE, {}), settings);
  const done = new Set(records.map((record) => record.get('name') as string));
  for (const { name, text } of MIGRATIONS) {
    if (done.has(name)) continue;
    const session = deps.session('WRITE');
    try {
      await session.run(text, {}, settings);
    } finally {
      await session.close().catch(() => undefined);
    }
    await once(deps.session('WRITE'), 'WRITE', async (tx) => tx.run(MARK_MIGRATION_DONE, { name }), settings);
  }
}
