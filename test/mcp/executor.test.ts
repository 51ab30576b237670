import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../src/app.js';
import { createLogger } from '../../src/logger.js';
import { createInProcessExecutor, type Execute } from '../../src/mcp/execute.js';
import { buildServer } from '../../src/mcp/server.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { call, fails, ok } from './helpers.js';

/** The tool layer in-process (no child process): how failures outside GraphQL are reported. */
describe('tool results', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function connect(execute: Execute): Promise<Client> {
    const server = buildServer({ execute, logger: createLogger('silent') });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'engram-unit', version: '0.0.0' });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return client;
  }

  async function appClient(env: Record<string, string> = {}): Promise<{ client: Client; testApp: TestApp }> {
    const testApp = await createTestApp({ env });
    cleanups.push(() => testApp.close());
    const execute = createInProcessExecutor((url, init) => testApp.app.fetch(url, init), {
      [WORKSPACE_HEADER]: 'unit',
    });
    return { client: await connect(execute), testApp };
  }

  it('runs through the app in the executor workspace', async () => {
    const { client, testApp } = await appClient();
    await ok(client, 'memory_create', { title: 'Scoped', key: 'scoped' });
    expect(
      (await testApp.gql('{ memory(key: "scoped") { title } }', undefined, { workspace: 'unit' })).data?.memory,
    ).toEqual({ title: 'Scoped' });
  });

  it('works when the server runs only its trusted operations (the tools send schema/operations documents)', async () => {
    const { client, testApp } = await appClient({ ENGRAM_PERSISTED_ONLY: 'true' });
    const arbitrary = await testApp.gql('{ relationTypes { name } }');
    expect(arbitrary.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_REQUIRED');
    await ok(client, 'memory_create', { title: 'Trusted', key: 'trusted' });
    expect((await ok(client, 'memory_get', { memory_id: 'trusted' })).found).toBe(true);
  });

  it('a body over the server limit is LIMIT_EXCEEDED, not a crash', async () => {
    const { client } = await appClient({ ENGRAM_MAX_BODY_BYTES: '2000' });
    await fails(client, 'memory_create', { title: 'Big', content: 'x'.repeat(5000) }, 'LIMIT_EXCEEDED');
  });

  it('an executor that throws gives INTERNAL_SERVER_ERROR with no internals', async () => {
    const client = await connect(async () => {
      throw new Error('socket hang up at /secret/path');
    });
    const result = await fails(client, 'relation_types', {}, 'INTERNAL_SERVER_ERROR');
    expect(result.text).not.toMatch(/secret/);
  });

  it('arguments of the wrong type are rejected by the input schema as an isError result', async () => {
    const { client } = await appClient();
    const result = await call(client, 'memory_path', { source_id: 'a', target_id: 'b', max_hops: 'four' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/max_hops/);
  });
});
