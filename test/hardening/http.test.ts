import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadTrustedDocuments } from '../../src/plugins/use-persisted-only.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

describe('CORS and CSRF prevention', () => {
  let t: HardenedApp;
  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' } });
  });
  afterAll(() => t.close());

  it('answers a preflight from an allowed origin, with the headers Engram needs', async () => {
    const response = await t.fetch('/graphql', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization,x-engram-workspace',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/x-engram-workspace/);
    expect(response.headers.get('access-control-allow-credentials')).not.toBe('true');
  });

  it('does not allow an origin that is not listed', async () => {
    const response = await t.fetch('/graphql', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    expect(response.headers.get('access-control-allow-origin')).not.toBe('https://evil.example.net');
    expect(response.headers.get('access-control-allow-origin')).not.toBe('*');
  });

  it('sends no CORS headers at all when ENGRAM_CORS_ORIGINS is unset', async () => {
    const closed = await hardenedApp();
    try {
      const response = await closed.gql('{ __typename }', {}, { origin: 'https://app.example.com' });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
    }
  });

  it('refuses requests a browser could send cross-site without a preflight', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await t.fetch('/graphql', { method: 'POST', headers: { 'content-type': contentType }, body });
      expect(response.status, contentType).toBe(403);
      const json = (await response.json()) as { errors: { extensions: Record<string, unknown> }[] };
      expect(json.errors[0]?.extensions).toMatchObject({
        code: 'FORBIDDEN',
        retryable: false,
        reason: 'CSRF_PREVENTION',
      });
    }
    const plainGet = await t.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json' },
    });
    expect(plainGet.status).toBe(403);
  });

  it('lets JSON posts, GETs with an Engram header, and the GraphiQL page through', async () => {
    expect((await t.gql('{ __typename }')).data?.__typename).toBe('Query');
    const get = await t.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'x-engram-workspace': 'default' },
    });
    expect(get.status).toBe(200);
    const page = await t.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/graphiql/i);
    // GraphiQL itself posts JSON (content-type: application/json), which passes.
    expect((await t.gql('query IntrospectionQuery { __schema { queryType { name } } }')).errors).toBeUndefined();
  });
});

describe('request ids and structured logs', () => {
  let t: HardenedApp;
  beforeAll(async () => {
    t = await hardenedApp();
  });
  afterAll(() => t.close());

  it('echoes a client x-request-id, makes one otherwise, and refuses ids that could forge log lines', async () => {
    const given = await t.gql('{ __typename }', {}, { 'x-request-id': 'client-id-42' });
    expect(given.headers.get('x-request-id')).toBe('client-id-42');
    const made = await t.gql('{ __typename }');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const forged = await t.gql('{ __typename }', {}, { 'x-request-id': 'a\u2028"level":60' });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one line per request with id, operation, workspace, duration and outcome, and no contents', async () => {
    const secret = 'the launch code is 0000';
    await t.gql(
      'mutation Remember($input: CreateMemoryInput!) { createMemory(input: $input) { id } }',
      { input: { title: secret, content: secret, metadata: { secret } } },
      { 'x-request-id': 'log-1', 'x-engram-workspace': 'ws-log' },
    );
    await t.gql(
      'query Missing { memory(id: "nope") { id } edge(id: "nope") { id } path(from: "x", to: "y") { found } }',
      {},
      { 'x-request-id': 'log-2' },
    );
    const lines = t.logs.filter((line) => line.msg === 'request');
    expect(lines.find((line) => line.reqId === 'log-1')).toMatchObject({
      level: 30,
      method: 'POST',
      path: '/graphql',
      status: 200,
      op: 'Remember',
      opType: 'mutation',
      workspace: 'ws-log',
      outcome: 'ok',
    });
    expect(typeof lines.find((line) => line.reqId === 'log-1')?.ms).toBe('number');
    expect(lines.find((line) => line.reqId === 'log-2')).toMatchObject({
      op: 'Missing',
      workspace: 'default',
      outcome: 'error',
      codes: ['NOT_FOUND'],
    });
    expect(t.logText()).not.toContain(secret);
  });
});

describe('every error carries extensions.code and extensions.retryable', () => {
  let t: HardenedApp;
  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_MAX_BODY_BYTES: '2000' } });
  });
  afterAll(() => t.close());

  const raw = async (init: RequestInit, path = '/graphql') => {
    const response = await t.fetch(path, init);
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as { errors?: { extensions?: Record<string, unknown> }[] }) : {},
    };
  };

  it('for each kind of failure, from HTTP parsing to execution', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: [
      string,
      Promise<{ status: number; body: { errors?: { extensions?: Record<string, unknown> }[] } }>,
    ][] = [
      ['invalid JSON', raw({ method: 'POST', headers: json, body: '{"query": ' })],
      ['no query', raw({ method: 'POST', headers: json, body: '{}' })],
      ['query not a string', raw({ method: 'POST', headers: json, body: '{"query": 42}' })],
      [
        'variables not an object',
        raw({ method: 'POST', headers: json, body: '{"query": "{ __typename }", "variables": 3}' }),
      ],
      ['unknown parameter', raw({ method: 'POST', headers: json, body: '{"query": "{ __typename }", "nope": 1}' })],
      ['batch (off)', raw({ method: 'POST', headers: json, body: '[{"query": "{ __typename }"}]' })],
      [
        'body too large',
        raw({ method: 'POST', headers: json, body: JSON.stringify({ query: `{ __typename } # ${'x'.repeat(3000)}` }) }),
      ],
      ['syntax error', raw({ method: 'POST', headers: json, body: JSON.stringify({ query: '{ memory(' }) })],
      ['unknown field', raw({ method: 'POST', headers: json, body: JSON.stringify({ query: '{ nope }' }) })],
      [
        'wrong variable type',
        raw({
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            query: 'query ($n: Int!) { searchMemories(query: "a", limit: $n) { id } }',
            variables: { n: 'x' },
          }),
        }),
      ],
      [
        'rule broken',
        raw({
          method: 'POST',
          headers: json,
          body: JSON.stringify({ query: '{ searchMemories(query: "a", limit: 1000) { id } }' }),
        }),
      ],
      [
        'not found',
        raw({
          method: 'POST',
          headers: json,
          body: JSON.stringify({ query: '{ path(from: "a", to: "b") { found } }' }),
        }),
      ],
      [
        'bad workspace header',
        raw({
          method: 'POST',
          headers: { ...json, 'x-engram-workspace': '../etc' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
      ],
      [
        'mutation over GET',
        raw(
          { method: 'GET', headers: { accept: 'application/json' } },
          `/graphql?query=${encodeURIComponent('mutation { deleteMemory(id: "a") { id } }')}`,
        ),
      ],
      [
        'operation name missing',
        raw({
          method: 'POST',
          headers: json,
          body: JSON.stringify({ query: 'query A { __typename } query B { __typename }' }),
        }),
      ],
      [
        'too many aliases',
        raw({
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            query: `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: relationTypes { name }`).join(' ')} }`,
          }),
        }),
      ],
    ];
    for (const [name, pending] of cases) {
      const { status, body } = await pending;
      expect(status, name).toBeLessThan(500);
      expect(body.errors?.length ?? 0, name).toBeGreaterThan(0);
      for (const error of body.errors ?? []) {
        expect(typeof error.extensions?.code, `${name}: ${JSON.stringify(error)}`).toBe('string');
        expect(typeof error.extensions?.retryable, `${name}: ${JSON.stringify(error)}`).toBe('boolean');
        expect(error.extensions?.http, name).toBeUndefined();
      }
    }
  });
});

describe('/metrics', () => {
  it('reports requests and latency by operation, errors by code, and store latency', async () => {
    const t = await hardenedApp();
    try {
      await t.gql('query Hello { searchMemories(query: "x") { id } }');
      await t.gql('query Missing { path(from: "a", to: "b") { found } }');
      const text = await (await t.fetch('/metrics')).text();
      expect(text).toMatch(/graphql_envelop_request\{operationName="Hello",operationType="query"\} 1/);
      expect(text).toMatch(/graphql_envelop_request_duration_count\{operationName="Hello",operationType="query"\} 1/);
      expect(text).toMatch(
        /graphql_yoga_http_duration_count\{operationName="Hello",operationType="query",method="POST",statusCode="200"\} 1/,
      );
      expect(text).toMatch(/engram_graphql_errors_total\{code="NOT_FOUND"\} 1/);
      expect(text).toMatch(/engram_store_duration_seconds_count\{method="searchMemories",outcome="ok"\} 1/);
      expect(text).toMatch(/engram_store_duration_seconds_count\{method="getMemories",outcome="ok"\} 1/);
      expect(text).toMatch(/engram_store_calls_in_flight 0/);
      expect(text).toMatch(/engram_http_requests_in_flight 0/);
      expect(text).not.toMatch(/url=/);
    } finally {
      await t.close();
    }
  });

  it('caps the operation names it keeps as labels (clients choose them)', async () => {
    const t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' } });
    try {
      for (let i = 0; i < 210; i++) await t.gql(`query Op${i} { __typename }`);
      const text = await (await t.fetch('/metrics')).text();
      expect(text).toMatch(/graphql_envelop_request\{operationName="other",operationType="query"\} 10/);
      expect(text.match(/^graphql_envelop_request\{/gm)?.length).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('is off with ENGRAM_METRICS=false', async () => {
    const t = await hardenedApp({ env: { ENGRAM_METRICS: 'false' } });
    try {
      expect((await t.fetch('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('ENGRAM_PERSISTED_ONLY', () => {
  let dir: string;
  let t: HardenedApp;
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-ops-'));
    writeFileSync(join(dir, 'fragments.graphql'), 'fragment Ref on Memory { id title }\n');
    writeFileSync(join(dir, 'get.graphql'), '# comment\nquery Get($id: ID!) { memory(id: $id) { ...Ref } }\n');
    writeFileSync(
      join(dir, 'create.graphql'),
      'mutation Create($title: String!) { createMemory(input: { title: $title }) { ...Ref } }\n',
    );
    t = await hardenedApp({ env: { ENGRAM_PERSISTED_ONLY: 'true', ENGRAM_OPERATIONS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const idOf = (name: string) => [...loadTrustedDocuments(dir)].find(([, doc]) => doc.name === name)?.[0] as string;

  it('runs a trusted operation named by the sha256 of its canonical text', async () => {
    const documents = loadTrustedDocuments(dir);
    expect([...documents.values()].map((doc) => doc.name).sort()).toEqual(['Create', 'Get']);
    for (const [id, doc] of documents) expect(id).toBe(hash(doc.text));
    const created = await t.gql(
      '',
      { title: 'trusted' },
      {},
      { query: undefined, extensions: { persistedQuery: { version: 1, sha256Hash: idOf('Create') } } },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data?.createMemory.id as string;
    const read = await t.gql(
      '',
      { id },
      {},
      { query: undefined, extensions: { persistedQuery: { version: 1, sha256Hash: idOf('Get') } } },
    );
    expect(read.data?.memory).toEqual({ id, title: 'trusted' });
  });

  it('accepts the full text of a trusted operation, however it is formatted', async () => {
    const text = `query Get($id: ID!) {\n  memory(id: $id) {\n    ...Ref\n  }\n}\n\nfragment Ref on Memory {\n  id\n  title\n}`;
    expect(codes(await t.gql(text, { id: 'x' }))).toEqual([]);
  });

  it('refuses anything else with a coded error, before it runs', async () => {
    const arbitrary = await t.gql('mutation { createMemory(input: { title: "sneaky" }) { id } }');
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.errors?.[0]?.extensions).toMatchObject({ code: 'PERSISTED_QUERY_REQUIRED', retryable: false });
    const edited = await t.gql(
      'query Get($id: ID!) { memory(id: $id) { ...Ref content } } fragment Ref on Memory { id title }',
      { id: 'x' },
    );
    expect(codes(edited)).toEqual(['PERSISTED_QUERY_REQUIRED']);
    const unknown = await t.gql(
      '',
      {},
      {},
      { query: undefined, extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } },
    );
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_FOUND', retryable: false });
    expect(codes(await t.gql('', {}, {}, { query: undefined }))).toEqual(['PERSISTED_QUERY_REQUIRED']);
    expect((await t.gql('{ searchMemories(query: "sneaky") { id } }')).data ?? null).toBeNull();
  });

  it('loads the real schema/operations, and refuses to start with none or with a broken file', async () => {
    const real = await hardenedApp({ env: { ENGRAM_PERSISTED_ONLY: 'true' } });
    await real.close();
    const empty = mkdtempSync(join(tmpdir(), 'engram-ops-empty-'));
    try {
      await expect(
        hardenedApp({ env: { ENGRAM_PERSISTED_ONLY: 'true', ENGRAM_OPERATIONS_DIR: empty } }),
      ).rejects.toThrow(/holds no named operation/);
      writeFileSync(join(empty, 'broken.graphql'), 'query {');
      expect(() => loadTrustedDocuments(empty)).toThrow(ConfigError);
      expect(() => loadTrustedDocuments(empty)).toThrow(/broken\.graphql is not a valid GraphQL document/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
