import type { Plugin } from 'graphql-yoga';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { useMcp } from '../../src/plugins/use-mcp.js';
import { minimalYoga } from './support.js';

// The headers of every request that reaches /graphql: the ones the MCP tools send through the app.
const graphqlHeaders: Headers[] = [];
const recordGraphql: Plugin = {
  onRequest({ request, url }) {
    if (url.pathname === '/graphql') graphqlHeaders.push(request.headers);
  },
};
// As createApp does, the tools run their operations through this very app's fetch.
const fetch: ReturnType<typeof minimalYoga> = minimalYoga([
  recordGraphql,
  useMcp({
    logger: pino({ level: 'silent' }),
    maxBodyBytes: 2000,
    fetch: (url, init) => fetch(new URL(url).pathname, init),
  }),
]);

async function rpc(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  // Streamable HTTP answers one server-sent event; anything else (an HTTP refusal) is plain JSON.
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return { status: response.status, body: JSON.parse(data ? data.slice('data: '.length) : text) };
}

describe('useMcp', () => {
  it('serves the Engram tools at /mcp over Streamable HTTP', async () => {
    const { status, body } = await rpc('tools/list', {});
    expect(status).toBe(200);
    const names = (body.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['memory_create', 'memory_recall', 'relation_types']));
  });

  it("runs a tool's operation through the app's /graphql with the caller's workspace and credentials only", async () => {
    graphqlHeaders.length = 0;
    const { body } = await rpc(
      'tools/call',
      { name: 'relation_types', arguments: {} },
      { 'x-engram-workspace': 'lab', authorization: 'Bearer k', cookie: 'session=1' },
    );
    expect(graphqlHeaders).toHaveLength(1);
    expect(graphqlHeaders[0]?.get('x-engram-workspace')).toBe('lab');
    expect(graphqlHeaders[0]?.get('authorization')).toBe('Bearer k');
    expect(graphqlHeaders[0]?.has('cookie')).toBe(false);
    // minimalYoga's schema has no relationTypes: the app's own validation answered, as an isError result.
    expect(body.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    });
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const { status, body } = await rpc('tools/list', { pad: 'x'.repeat(2000) });
    expect(status).toBe(413);
    expect(body.error.message).toMatch(/Payload Too Large/);
  });
});
