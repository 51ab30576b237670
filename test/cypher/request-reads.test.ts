import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createNeo4jStore } from '../../src/store/neo4j/neo4j-store.js';
import { RequestReads, withRequestReads } from '../../src/store/request-reads.js';
import { plainMemory } from '../helpers/records.js';
import { RecordingDriver, type Responder, serverError } from './recording-driver.js';
import { answering, WS } from './tck.js';

/** Issue 27: a request's reads ride one transaction; work outside a request keeps one per call. */
async function recordingStore(respond: Responder = answering({})) {
  const driver = new RecordingDriver(async (statement) =>
    statement.name === 'serverComponents'
      ? [{ name: 'Neo4j Kernel', versions: ['5.26.0'], edition: 'community' }]
      : respond(statement),
  );
  const store = createNeo4jStore({ driver, bookmarkManager: null });
  await store.ensureSchema();
  driver.clear();
  return { driver, store };
}

describe("a request's reads in one Neo4j transaction", () => {
  it('sends every read of a request in one transaction, committed when the request ends', async () => {
    const { driver, store } = await recordingStore();
    const reads = new RequestReads();
    await withRequestReads(reads, () =>
      Promise.all([store.getMemories(WS, ['a']), store.getEdges(WS, ['e']), store.findEdge(WS, 'a', 'b', 'CITES')]),
    );
    expect(driver.transactions).toEqual(['explicit READ']);
    expect(driver.statements.map((statement) => statement.name)).toEqual(['getMemories', 'getEdges', 'findEdge']);
    await reads.end();
    expect(driver.transactions).toEqual(['explicit READ', 'commit']);
    await reads.end();
    expect(driver.transactions).toEqual(['explicit READ', 'commit']);
  });

  it('keeps one managed transaction per call outside a request', async () => {
    const { driver, store } = await recordingStore();
    await store.getMemories(WS, ['a']);
    await store.getEdges(WS, ['e']);
    expect(driver.transactions).toEqual(['managed READ', 'managed READ']);
  });

  it('ends the shared read before a write, and reads after it in a new transaction', async () => {
    const { driver, store } = await recordingStore();
    const reads = new RequestReads();
    await withRequestReads(reads, async () => {
      await store.getMemories(WS, ['a']);
      await store.createMemory(WS, plainMemory('n'), '2026-01-01T00:00:00.000Z').catch(() => null);
      await store.getMemories(WS, ['a']);
    });
    await reads.end();
    expect(driver.transactions).toEqual(['explicit READ', 'commit', 'managed WRITE', 'explicit READ', 'commit']);
  });

  it('runs a read again as a managed transaction when its statement fails in the shared one', async () => {
    let failures = 1;
    const { driver, store } = await recordingStore(async (statement) => {
      if (statement.name === 'getMemories' && statement.mode === 'READ' && failures-- > 0) {
        throw serverError('Neo.TransientError.Transaction.Terminated', 'terminated');
      }
      return [];
    });
    const reads = new RequestReads();
    await withRequestReads(reads, () => store.getMemories(WS, ['a']));
    await reads.end();
    expect(driver.transactions).toEqual(['explicit READ', 'rollback', 'managed READ']);
  });

  it('rides one transaction per GraphQL operation when the app runs on the Neo4j store', async () => {
    const { driver, store } = await recordingStore();
    const app = createApp({
      config: loadConfig({ ENGRAM_LOG_LEVEL: 'silent' }),
      store,
      logger: createLogger('silent'),
    });
    const response = await app.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ a: memory(id: "a") { id } e: edge(id: "e") { id } }' }),
    });
    expect(((await response.json()) as { data: unknown }).data).toEqual({ a: null, e: null });
    await new Promise((resolve) => setImmediate(resolve));
    expect(driver.transactions).toEqual(['explicit READ', 'commit']);
    expect(driver.statements.map((statement) => statement.name)).toEqual(['getMemories', 'getEdges']);
  });
});
