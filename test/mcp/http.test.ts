import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fails, ok, TOOL_NAMES } from './helpers.js';

/** /mcp on the real HTTP server: Streamable HTTP, scoped to the request's x-engram-workspace. */
describe('/mcp over Streamable HTTP', () => {
  let testApp: TestApp;
  let server: Server;
  let base: URL;
  const clients: Client[] = [];

  async function connect(workspace: string | undefined, options: { modern?: boolean } = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
      requestInit: { headers: workspace ? { 'x-engram-workspace': workspace } : {} },
    });
    const client = new Client(
      { name: 'engram-http-test', version: '0.0.0' },
      options.modern ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    server = createServer(testApp.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await testApp.close();
  });

  it('lists the same tools as stdio', async () => {
    const client = await connect('team-a');
    expect(client.getProtocolEra()).toBe('legacy');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOL_NAMES));
  });

  it("writes into the request's workspace: visible over GraphQL there, invisible elsewhere", async () => {
    const teamA = await connect('team-a');
    const created = await ok(teamA, 'memory_create', { title: 'Team A uses Kafka', key: 'kafka' });
    expect(created.memory.key).toBe('kafka');

    const there = await testApp.gql('{ memory(key: "kafka") { id title } }', undefined, { workspace: 'team-a' });
    expect(there.data?.memory).toEqual({ id: created.memory.id, title: 'Team A uses Kafka' });
    const elsewhere = await testApp.gql('{ memory(key: "kafka") { id } }', undefined, { workspace: 'team-b' });
    expect(elsewhere.data?.memory).toBeNull();

    const teamB = await connect('team-b');
    await fails(teamB, 'memory_get', { memory_id: 'kafka' }, 'NOT_FOUND');
    expect((await ok(teamA, 'memory_get', { memory_id: 'kafka' })).found).toBe(true);
  });

  it('without the header acts in the default workspace, like /graphql', async () => {
    const client = await connect(undefined);
    await ok(client, 'memory_create', { title: 'Default workspace memory', key: 'plain' });
    const read = await testApp.gql('{ memory(key: "plain") { title } }');
    expect(read.data?.memory).toEqual({ title: 'Default workspace memory' });
  });

  it('serves 2026-era clients too (version negotiation), with the same errors', async () => {
    const client = await connect('team-a', { modern: true });
    expect(client.getProtocolEra()).toBe('modern');
    expect((await ok(client, 'memory_search', { query: 'kafka' })).results.map((m: any) => m.key)).toEqual(['kafka']);
    await fails(client, 'memory_path', { source_id: 'kafka', target_id: 'kafka', max_hops: 11 }, 'BAD_USER_INPUT');
  });

  it('an invalid workspace header fails each call with BAD_USER_INPUT, as /graphql does', async () => {
    const client = await connect('not a workspace!');
    const result = await fails(client, 'relation_types', {}, 'BAD_USER_INPUT');
    expect(result.text).toMatch(/x-engram-workspace/);
  });

  it('leaves /graphql and /health alone', async () => {
    expect((await fetch(new URL('/health', base))).status).toBe(200);
    const response = await fetch(new URL('/graphql', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ relationTypes { name } }' }),
    });
    expect(response.status).toBe(200);
  });
});

describe('/mcp with API keys configured', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({
      env: { ENGRAM_API_KEYS: 'writer-key-0123456789=team-a:write,reader-key-0123456789=team-b:read' },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const listTools = (headers: Record<string, string>) =>
    testApp.app.fetch('http://engram.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('refuses a request without a key with 401 and a Bearer challenge, before any MCP work', async () => {
    const response = await listTools({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await response.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses an unknown key with 401', async () => {
    expect((await listTools({ authorization: 'Bearer not-a-key-0123456789' })).status).toBe(401);
  });

  it('serves a read key as well as a write key (no admin needed)', async () => {
    for (const key of ['writer-key-0123456789', 'reader-key-0123456789']) {
      const response = await listTools({ authorization: `Bearer ${key}` });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('memory_create');
    }
  });
});
