import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { EngramError } from '../../src/domain/errors.js';
import { SCHEMA } from '../../src/store/neo4j/cypher/schema.js';
import { createNeo4jStore } from '../../src/store/neo4j/neo4j-store.js';
import { isSupportedVersion, Neo4jSetupError } from '../../src/store/neo4j/schema.js';
import { RequestReads, withRequestReads } from '../../src/store/request-reads.js';
import { RecordingDriver, serverError } from './recording-driver.js';
import { answering, describeEverySentStatement, expectCode, useRecordingStore, WS } from './tck.js';

/** TCK (see tck.ts): Start-up, lifecycle and driver failures of the Neo4j store. */

const tck = useRecordingStore();

describe('start-up and lifecycle', () => {
  it('bootstraps once: server check, one transaction per schema statement, then a bounded wait for indexes', async () => {
    const fresh = new RecordingDriver(
      answering({ serverComponents: () => [{ name: 'Neo4j Kernel', versions: ['5.26.0'], edition: 'community' }] }),
    );
    const created = createNeo4jStore({ driver: fresh, database: 'engram', bookmarkManager: null });
    expect(await created.ensureSchema()).toEqual({ version: '5.26.0', edition: 'community' });
    await created.ensureSchema();
    await created.ping();
    expect(fresh.statements.map((statement) => `${statement.mode} ${statement.name}`)).toMatchInlineSnapshot(`
      [
        "READ serverComponents",
        "WRITE schema:engram_memory_id",
        "WRITE schema:engram_memory_key",
        "WRITE schema:engram_edge_ref_id",
        "WRITE schema:engram_edge_ref_triple",
        "WRITE schema:engram_edge_ref_from_rank",
        "WRITE schema:engram_edge_ref_to_rank",
        "WRITE schema:engram_edge_ref_from_type_rank",
        "WRITE schema:engram_edge_ref_to_type_rank",
        "WRITE schema:engram_weight_event_id",
        "WRITE schema:engram_weight_event_edge",
        "WRITE schema:engram_weight_event_memory",
        "WRITE schema:engram_weight_event_at",
        "WRITE schema:engram_weight_event_at_id",
        "WRITE schema:engram_weight_event_edge_at_id",
        "WRITE schema:engram_weight_event_memory_at_id",
        "WRITE schema:engram_weight_event_source_at_id",
        "WRITE schema:engram_weight_event_edge_source_at_id",
        "WRITE schema:engram_weight_event_memory_source_at_id",
        "WRITE schema:engram_recall_created_id",
        "WRITE schema:engram_recall_id",
        "WRITE schema:engram_recall_created",
        "WRITE schema:engram_recall_expiry",
        "WRITE schema:engram_search_pages_id",
        "WRITE schema:engram_search_pages_expiry",
        "WRITE schema:engram_memory_kind_created",
        "WRITE schema:engram_memory_vector",
        "WRITE schema:engram_vector_space",
        "WRITE schema:engram_memory_term_memory",
        "WRITE schema:engram_memory_term_term",
        "WRITE schema:engram_memory_tag",
        "WRITE schema:engram_memory_tag_memory",
        "WRITE schema:engram_recall_cue_key",
        "WRITE schema:engram_recall_cue_memory",
        "WRITE schema:engram_recall_cue_id",
        "WRITE schema:engram_memory_embedding_queue",
        "WRITE schema:engram_memory_text_by_workspace",
        "WRITE schema:engram_memory_text",
        "READ awaitIndexes",
        "READ migrationsDone",
        "AUTOCOMMIT queueEmbeddingBacklog",
        "WRITE markMigrationDone",
        "AUTOCOMMIT copyEdgeWeightsToRefs",
        "WRITE markMigrationDone",
        "AUTOCOMMIT fillTagIndex",
        "WRITE markMigrationDone",
        "AUTOCOMMIT ping",
      ]
    `);
    expect(fresh.statements.every((statement) => statement.database === 'engram')).toBe(true);
    expect(fresh.statements.find((statement) => statement.name === 'awaitIndexes')?.parameters).toEqual({
      timeoutSeconds: int(30),
    });
    expect(fresh.sessions.every((session) => session.database === 'engram')).toBe(true);
  });

  it('refuses a server older than 5.23, naming the version', async () => {
    const old = new RecordingDriver(
      answering({ serverComponents: () => [{ name: 'Neo4j Kernel', versions: ['5.20.0'], edition: 'enterprise' }] }),
    );
    const created = createNeo4jStore({ driver: old, bookmarkManager: null });
    await expect(created.ensureSchema()).rejects.toThrow(Neo4jSetupError);
    await expect(created.ensureSchema()).rejects.toThrow(/5\.23 or newer.*5\.20\.0/);
    await expectCode(created.getMemories(WS, ['m1']), 'UNAVAILABLE');
  });

  it.each([
    ['5.23.0', true],
    ['5.26.12', true],
    ['5.27-aura', true],
    ['2025.06.0', true],
    ['5.22.0', false],
    ['4.4.30', false],
  ])('treats server version %s as supported: %s', (version, supported) => {
    expect(isSupportedVersion(version)).toBe(supported);
  });

  it('turns rejected credentials into a setup error naming NEO4J_USER and NEO4J_PASSWORD, and UNAVAILABLE for callers', async () => {
    const refusing = new RecordingDriver(() => {
      throw serverError(
        'Neo.ClientError.Security.Unauthorized',
        'The client is unauthorized due to authentication failure.',
      );
    });
    const created = createNeo4jStore({ driver: refusing, bookmarkManager: null });
    await expect(created.ensureSchema()).rejects.toThrow(/NEO4J_USER and NEO4J_PASSWORD/);
    const error = await expectCode(created.ping(), 'UNAVAILABLE');
    expect(error.message).not.toMatch(/unauthorized/i);
  });

  it('tries a schema statement once more when another replica created the same rule first', async () => {
    let raced = false;
    const racing = new RecordingDriver((statement) => {
      if (statement.name === 'schema:engram_memory_key' && !raced) {
        raced = true;
        throw serverError('Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists');
      }
      return [];
    });
    await createNeo4jStore({ driver: racing, bookmarkManager: null }).ensureSchema();
    expect(racing.statements.filter((statement) => statement.name === 'schema:engram_memory_key')).toHaveLength(2);
  });

  it('answers UNAVAILABLE while the server is down, and bootstraps once it is back', async () => {
    let down = true;
    const flaky = new RecordingDriver(() => {
      if (down) throw serverError('ServiceUnavailable', 'Could not perform discovery. No routing servers available.');
      return [];
    });
    const created = createNeo4jStore({ driver: flaky, bookmarkManager: null });
    await expectCode(created.ping(), 'UNAVAILABLE');
    down = false;
    await expect(created.ping()).resolves.toBeUndefined();
    const afterRecovery = flaky.statements.slice(
      flaky.statements.findLastIndex((statement) => statement.name === 'ping'),
    );
    expect(afterRecovery.map((statement) => statement.name)).toEqual(
      [
        'ping',
        'serverComponents',
        ...SCHEMA.map((entry) => entry.name),
        'awaitIndexes',
        'migrationsDone',
        'queueEmbeddingBacklog',
        'markMigrationDone',
        'copyEdgeWeightsToRefs',
        'markMigrationDone',
        'fillTagIndex',
        'markMigrationDone',
      ].map((name) => (name.startsWith('engram_') ? `schema:${name}` : name)),
    );
  });

  it('pings with one auto-commit statement (never retried) in the configured database', async () => {
    await tck.store.ping();
    expect(tck.driver.statements).toHaveLength(1);
    expect(tck.driver.statements[0]).toMatchObject({
      mode: 'AUTOCOMMIT',
      name: 'ping',
      database: 'engram',
      op: 'ping',
    });
  });

  it('closes the driver once; afterwards every call is UNAVAILABLE and sends nothing', async () => {
    await tck.store.close();
    await tck.store.close();
    expect(tck.driver.closed).toBe(true);
    await expectCode(tck.store.ping(), 'UNAVAILABLE');
    await expectCode(tck.store.getMemories(WS, ['m1']), 'UNAVAILABLE');
    expect(tck.driver.statements).toEqual([]);
  });

  it('uses managed transactions: reads in executeRead, writes in executeWrite, each named in its metadata', async () => {
    await tck.store.getMemories(WS, ['m1']);
    await tck.store.deleteMemory(WS, 'm1');
    expect(tck.driver.statements.map((statement) => [statement.mode, statement.op])).toEqual([
      ['READ', 'getMemories'],
      ['WRITE', 'deleteMemory'],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('driver failures', () => {
  it.each([
    ['the server is unreachable', serverError('ServiceUnavailable', 'Could not perform discovery')],
    ['the session expired', serverError('SessionExpired')],
    ['a transaction timed out', serverError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration')],
    ['a lock wait timed out', serverError('Neo.TransientError.Transaction.LockAcquisitionTimeout')],
    [
      'the pool had no connection in time',
      serverError('N/A', 'Connection acquisition timed out in 2000 ms. Pool status: Active conn count = 100'),
    ],
    ['the database is not found', serverError('Neo.ClientError.Database.DatabaseNotFound')],
  ])('maps "%s" to UNAVAILABLE, with no server text in the message', async (_label, failure) => {
    tck.driver.respond = () => {
      throw failure;
    };
    const error = await expectCode(tck.store.getMemories(WS, ['m1']), 'UNAVAILABLE');
    expect(error.message).toBe('The store is unavailable or timed out; the request is safe to retry.');
    expect(error.cause).toBe(failure);
  });

  it('leaves a statement error unmapped (a bug, masked and logged upstream)', async () => {
    const failure = serverError('Neo.ClientError.Statement.SyntaxError');
    tck.driver.respond = () => {
      throw failure;
    };
    await expect(tck.store.getMemories(WS, ['m1'])).rejects.toBe(failure);
  });
});

// ---------------------------------------------------------------------------------------------------
describe("a request's deadline", () => {
  /** A store call made inside a request whose deadline `controller` ends. */
  const inRequest = <T>(controller: AbortController, call: () => Promise<T>) =>
    withRequestReads(new RequestReads(controller.signal), call);
  const passed = () =>
    new EngramError('UNAVAILABLE', 'deadline passed', { extensions: { reason: 'DEADLINE_EXCEEDED' } });

  it('fails a write whose statements return after it, so the driver rolls it back instead of committing', async () => {
    const controller = new AbortController();
    const reason = passed();
    tck.driver.respond = () => {
      controller.abort(reason);
      return [];
    };
    await expect(inRequest(controller, () => tck.store.deleteMemory(WS, 'm1'))).rejects.toBe(reason);
    expect(tck.driver.statements.map((statement) => statement.op)).toEqual(['deleteMemory']);
  });

  it('starts no re-run of a failed attempt once it has passed', async () => {
    const controller = new AbortController();
    const reason = passed();
    tck.driver.respond = () => {
      controller.abort(reason);
      throw serverError('Neo.TransientError.Transaction.LockAcquisitionTimeout');
    };
    await expect(inRequest(controller, () => tck.store.deleteMemory(WS, 'm1'))).rejects.toBe(reason);
    expect(tck.driver.statements.map((statement) => statement.attempt)).toEqual([1]);
  });

  it('leaves a write that ends within it alone, re-runs included', async () => {
    const controller = new AbortController();
    let calls = 0;
    tck.driver.respond = () => {
      calls++;
      if (calls === 1) throw serverError('Neo.TransientError.Transaction.LockAcquisitionTimeout');
      return [];
    };
    await expect(inRequest(controller, () => tck.store.deleteMemory(WS, 'm1'))).resolves.toBeNull();
    expect(tck.driver.statements.map((statement) => statement.attempt)).toEqual([1, 2]);
  });
});

describeEverySentStatement(tck.everyStatement, 1);
