import { afterEach, describe, expect, it } from 'vitest';
import { WELCOME_QUERY } from '../../src/app.js';
import type { GraphStore } from '../../src/store/port.js';
import { chain } from '../fixtures/graphs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { expectError, seed } from './support.js';

const opened: TestApp[] = [];

async function open(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const app = await createTestApp(options);
  opened.push(app);
  return app;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

const SECRET = 'secret internal detail: /var/lib/engram/engram.db row 42';

/** The real store, with `method` replaced by one that fails the way a bug would (a plain Error). */
const failing =
  (method: keyof GraphStore) =>
  (store: GraphStore): GraphStore =>
    new Proxy(store, {
      get(target, property, receiver) {
        if (property === method) return async () => Promise.reject(new Error(SECRET));
        return Reflect.get(target, property, receiver);
      },
    });

describe('error masking', () => {
  it('answers an unexpected error in a query as INTERNAL_SERVER_ERROR without its message or stack', async () => {
    // memory { neighbors } reads both in one store call (graphql/neighbors-ahead.ts).
    const api = await open({ wrapStore: failing('getMemoriesWithAdjacent') });
    await seed(api, chain);
    const response = await api.gql('{ memory(key: "chain-a") { title neighbors { memory { title } } } }');
    const error = expectError(response, 'INTERNAL_SERVER_ERROR');
    expect(error.message).toBe('Unexpected error.');
    expect(error.extensions?.retryable).toBe(false);
    const body = JSON.stringify(response);
    expect(body).not.toContain('secret');
    expect(body).not.toContain('engram.db');
    expect(body).not.toMatch(/stack|originalError|\bat .+\.ts:\d+/);
    expect(response.data).toEqual({ memory: null });
  });

  it('answers an unexpected error in a mutation the same way', async () => {
    const api = await open({ wrapStore: failing('applyWeightChanges') });
    await seed(api, chain);
    const response = await api.gql(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }',
    );
    expectError(response, 'INTERNAL_SERVER_ERROR', 'Unexpected error.');
    expect(JSON.stringify(response)).not.toContain('secret');
  });

  it('answers UNAVAILABLE, retryable, when the store is closed', async () => {
    const api = await open();
    await api.store.close();
    const error = expectError(await api.gql('{ memory(key: "chain-a") { title } }'), 'UNAVAILABLE', /safe to retry/);
    expect(error.extensions?.retryable).toBe(true);
  });
});

describe('GraphiQL', () => {
  const page = (api: TestApp) =>
    api.app.fetch('http://engram.test/graphql', { method: 'GET', headers: { accept: 'text/html' } });

  it('serves a self-contained GraphiQL page that loads nothing from a CDN', async () => {
    const api = await open();
    const response = await page(api);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('Engram');
    for (const cdn of ['unpkg.com', 'cdn.jsdelivr.net', 'cdnjs.cloudflare.com', 'esm.sh'])
      expect(html.includes(cdn), cdn).toBe(false);
  });

  it('sends the ~9 MB page brotli- or gzip-compressed when the browser accepts it', async () => {
    const api = await open();
    const plain = await (await page(api)).arrayBuffer();
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const response = await api.app.fetch('http://engram.test/graphql', {
        headers: { accept: 'text/html', 'accept-encoding': acceptEncoding as string },
      });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      const sent = (await response.arrayBuffer()).byteLength;
      console.log(`[graphiql] ${plain.byteLength} bytes plain, ${sent} bytes ${encoding}`);
      expect(sent).toBeLessThan(plain.byteLength / 3);
    }
  });

  it('opens with a read-only welcome query, so the README tour still creates its memories after it', async () => {
    const api = await open();
    const html = await (await page(api)).text();
    expect(html).toContain('query Explore');
    expect(html).not.toContain('createMemory');
    const welcome = await api.gql(WELCOME_QUERY);
    expect(welcome.errors).toBeUndefined();
    const tourStep1 = await api.gql(`mutation {
      pg: createMemory(input: { key: "postgres-choice", title: "We chose Postgres", kind: "decision", tags: ["db"] }) { id }
      acid: createMemory(input: { key: "need-acid", title: "We need ACID transactions", kind: "fact" }) { id }
      audit: createMemory(input: { key: "audit-trail", title: "Auditors ask for a full trail", kind: "fact" }) { id }
    }`);
    expect(tourStep1.errors).toBeUndefined();
    expect(await api.gql(WELCOME_QUERY)).toMatchObject({ data: { searchMemories: [{ key: 'postgres-choice' }] } });
  });

  it('is off with ENGRAM_GRAPHIQL=false', async () => {
    const api = await open({ env: { ENGRAM_GRAPHIQL: 'false' } });
    const response = await page(api);
    expect(response.status).not.toBe(200);
    expect(response.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await response.text()).not.toMatch(/<html/i);
  });
});

describe('GET /', () => {
  it('answers a page linking the API, GraphiQL, the explorer, MCP and the probes', async () => {
    const api = await open();
    const response = await api.app.fetch('http://engram.test/');
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const path of ['/graphql', '/explore', '/mcp', '/health', '/ready', '/metrics'])
      expect(html, path).toContain(`href="${path}"`);
  });

  it('links only what is on', async () => {
    const api = await open({ env: { ENGRAM_EXPLORER: 'false', ENGRAM_METRICS: 'false' } });
    const html = await (await api.app.fetch('http://engram.test/')).text();
    expect(html).not.toContain('/explore');
    expect(html).not.toContain('/metrics');
  });
});

describe('field suggestions', () => {
  const typos = [
    '{ memry(id: "a") { id } }',
    '{ memory(id: "a") { titel } }',
    '{ path(from: "a", to: "b", maxHop: 3) { found } }',
  ];

  it('are given while GraphiQL is on', async () => {
    const api = await open();
    const response = await api.gql(typos[0] as string);
    expectError(response, 'GRAPHQL_VALIDATION_FAILED', /Did you mean "memory"\?/);
  });

  it('are never given with ENGRAM_GRAPHIQL=false, whatever was misspelt', async () => {
    const api = await open({ env: { ENGRAM_GRAPHIQL: 'false' } });
    const requests: [string, Record<string, unknown>?][] = [
      ...typos.map((typo): [string] => [typo]),
      ['{ memory(id: "a") { ... on Memroy { id } } }'],
      ['mutation { createMemory(input: { title: "x", tagz: ["a"] }) { id } }'],
      ['{ path(from: "a", to: "b", direction: BOTHH) { found } }'],
      ['query($d: Direction!) { path(from: "a", to: "b", direction: $d) { found } }', { d: 'OUTGOIN' }],
      ['mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }', { i: { title: 'x', tagz: ['a'] } }],
    ];
    for (const [query, variables] of requests) {
      const response = await api.gql(query, variables);
      expect(response.errors?.length, query).toBeGreaterThan(0);
      const text = JSON.stringify(response.errors);
      expect(text, query).not.toMatch(/Did you mean/);
      expect(text, query).toContain('[Suggestion hidden]');
    }
  });
});

describe('health and readiness', () => {
  it('answers /health with 200', async () => {
    const api = await open();
    expect((await api.app.fetch('http://engram.test/health')).status).toBe(200);
  });

  it('answers /ready with 200 while the store answers, and 503 once it is closed', async () => {
    const api = await open();
    expect((await api.app.fetch('http://engram.test/ready')).status).toBe(200);
    await api.store.close();
    const down = await api.app.fetch('http://engram.test/ready');
    expect(down.status).toBe(503);
    expect(await down.text()).not.toMatch(/database|sqlite|engram\.db/i);
    expect((await api.app.fetch('http://engram.test/health')).status).toBe(200);
  });
});
