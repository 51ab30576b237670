import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { EngramError } from '../../src/domain/errors.js';
import { createStore } from '../../src/store/create-store.js';
import type { GraphStore } from '../../src/store/port.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The real neo4j-driver (not the recording one) pointed at a port nobody listens on: what a user
 * sees when Neo4j is down. These run here because they need no server, only its absence.
 */

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  return typeof address === 'object' && address ? address.port : 1;
}

const opened: { store?: GraphStore; app?: TestApp }[] = [];

afterEach(async () => {
  for (const { store, app } of opened.splice(0)) {
    await app?.close();
    await store?.close();
  }
});

describe.each(['bolt', 'neo4j'])('a %s:// server that is down', (scheme) => {
  async function downStore(): Promise<GraphStore> {
    const config = loadConfig({
      ENGRAM_LOG_LEVEL: 'silent',
      ENGRAM_STORE: 'neo4j',
      NEO4J_URI: `${scheme}://127.0.0.1:${await closedPort()}`,
      NEO4J_PASSWORD: 'not-used',
      NEO4J_MAX_TRANSACTION_RETRY_TIME_MS: '200',
      NEO4J_CONNECTION_TIMEOUT_MS: '1000',
    });
    const store = await createStore(config);
    opened.push({ store });
    return store;
  }

  it('does not stop start-up: the store is created and describes itself without credentials', async () => {
    const started = Date.now();
    const store = await downStore();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(store.description).toMatch(new RegExp(`^neo4j ${scheme}://127\\.0\\.0\\.1:\\d+$`));
  });

  it('answers ping and reads with UNAVAILABLE, fast', async () => {
    const store = await downStore();
    const started = Date.now();
    const failures = await Promise.all(
      [store.ping(), store.getMemories('ws', ['m1']), store.deleteMemory('ws', 'm1')].map((call) =>
        call.catch((error: unknown) => error),
      ),
    );
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(EngramError);
      expect((failure as EngramError).code).toBe('UNAVAILABLE');
      expect((failure as EngramError).message).not.toMatch(/127\.0\.0\.1/);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('makes /ready answer 503 without naming the host, and GraphQL answer UNAVAILABLE', async () => {
    const store = await downStore();
    const app = await createTestApp({ wrapStore: () => store });
    opened.push({ app });
    const ready = await app.app.fetch('http://engram.test/ready');
    expect(ready.status).toBe(503);
    expect(await ready.text()).not.toMatch(/127\.0\.0\.1|neo4j|bolt/i);
    const response = await app.gql('{ memory(id: "m1") { id } }');
    expect(response.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    expect(JSON.stringify(response)).not.toMatch(/127\.0\.0\.1/);
  });
});
