import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { call } from './helpers.js';

/** /mcp serves the server-memory profile to a client that asks with ?profile= or the header. */
describe('/mcp with the server-memory profile', () => {
  let testApp: TestApp;
  let server: Server;
  let base: URL;
  const clients: Client[] = [];

  async function connect(path: string, headers: Record<string, string> = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(path, base), {
      requestInit: { headers: { 'x-engram-workspace': 'team', ...headers } },
    });
    const client = new Client({ name: 'server-memory-http-test', version: '0.0.0' });
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

  it('is chosen by the query parameter or the header, and writes the graph other clients read', async () => {
    const byParameter = await connect('/mcp?profile=server-memory');
    expect((await byParameter.listTools()).tools.map((tool) => tool.name)).toContain('read_graph');
    const entity = { name: 'Kafka', entityType: 'technology', observations: ['Used for the event bus'] };
    const created = await call(byParameter, 'create_entities', { entities: [entity] });
    expect(created.structured).toEqual({ entities: [entity] });

    const byHeader = await connect('/mcp', { 'x-engram-mcp-profile': 'server-memory' });
    expect((await call(byHeader, 'read_graph')).structured).toEqual({ entities: [entity], relations: [] });

    const read = await testApp.gql('{ memory(key: "Kafka") { kind content } }', undefined, { workspace: 'team' });
    expect(read.data?.memory).toEqual({ kind: 'technology', content: 'Used for the event bus' });
    const engram = await connect('/mcp');
    expect((await engram.listTools()).tools.map((tool) => tool.name)).toContain('memory_search');
  });

  it('refuses an unknown profile with a message naming the choices', async () => {
    const response = await fetch(new URL('/mcp?profile=nope', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.message).toMatch(
      /unknown MCP profile "nope"; use engram or server-memory/,
    );
  });
});
