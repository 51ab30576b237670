import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/inputs.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

/** `[[[ ... 1 ... ]]]`, `levels` deep, as GraphQL or JSON text. */
const nestedLists = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** `{a: {a: ... 1}}` as a value `levels` objects deep. */
const nestedObject = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

/** Codes a hostile request may earn: the client's fault, never the server's. */
const CLIENT_CODES = ['BAD_USER_INPUT', 'LIMIT_EXCEEDED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST'];

const CREATE = 'mutation ($m: JSON) { createMemory(input: { title: "deep", metadata: $m }) { id } }';

describe('hostile requests (production mode)', () => {
  let t: HardenedApp;
  beforeAll(async () => {
    t = await hardenedApp({
      env: { ENGRAM_MODE: 'production', ENGRAM_RATE_POINTS_PER_SECOND: '0' },
      logLevel: 'debug',
    });
  });
  afterAll(() => t.close());

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const response = await t.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      json: JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions?: Record<string, any> }[] },
    };
  };
  const memoryCount = async () =>
    ((await t.gql('{ searchMemories(query: "deep", limit: 100) { id } }')).data!.searchMemories as unknown[]).length;

  it(`refuses metadata nested deeper than ${LIMITS.metadataDepth} levels with BAD_USER_INPUT, as a variable or a literal, and writes nothing`, async () => {
    const ok = await t.gql(CREATE, { m: nestedObject(LIMITS.metadataDepth) });
    expect(ok.errors).toBeUndefined();
    const before = await memoryCount();

    const oneTooDeep = await t.gql(CREATE, { m: nestedObject(LIMITS.metadataDepth + 1) });
    expect(codes(oneTooDeep)).toEqual(['BAD_USER_INPUT']);
    expect(oneTooDeep.errors?.[0]?.message).toMatch(/nested/);

    // Thousands of levels, as a raw JSON body (JSON.stringify itself would overflow on the way out).
    for (const levels of [2_050, 5_000, 100_000]) {
      const deep = await post(`{"query": ${JSON.stringify(CREATE)}, "variables": {"m": ${nestedLists(levels)}}}`);
      expect(
        deep.json.errors?.map((e) => e.extensions?.code),
        `${levels} levels`,
      ).toEqual(['BAD_USER_INPUT']);
    }
    const literal = await t.gql(
      `mutation { createMemory(input: { title: "deep", metadata: ${JSON.stringify(nestedObject(LIMITS.metadataDepth + 1)).replace(/"/g, '')} }) { id } }`,
    );
    expect(codes(literal)).toEqual(['BAD_USER_INPUT']);
    const linkLiteral = await t.gql(
      `mutation { link(input: { from: "a", to: "b", type: "X", metadata: ${nestedLists(40)} }) { id } }`,
    );
    expect(codes(linkLiteral)).toEqual(['BAD_USER_INPUT']);
    expect(await memoryCount()).toBe(before);
  });

  it('refuses a document nested deeper than the nesting limit with LIMIT_EXCEEDED before parsing it (list literals under the token limit)', async () => {
    for (const levels of [990, 1_600, 1_990]) {
      const ids = await t.gql(`{ memories(ids: ${nestedLists(levels)}) { id } }`);
      expect(codes(ids), `ids, ${levels} levels`).toEqual(['LIMIT_EXCEEDED']);
      expect(ids.errors?.[0]?.message).toMatch(/nested/);
      const metadata = await t.gql(
        `mutation { createMemory(input: { title: "deep", metadata: ${nestedLists(levels)} }) { id } }`,
      );
      expect(codes(metadata), `metadata, ${levels} levels`).toEqual(['LIMIT_EXCEEDED']);
    }
    // Brackets inside strings and comments are text, not nesting.
    const text = await t.gql(`{ searchMemories(query: "${'['.repeat(400)}") { id } } # ${'{'.repeat(500)}`);
    expect(text.errors).toBeUndefined();
  });

  it('never answers a deep document or value with INTERNAL_SERVER_ERROR, and logs no stack for them', async () => {
    const answers = [
      await post(JSON.stringify({ query: `{ memories(ids: ${nestedLists(1_990)}) { id } }` })),
      await post(`{"query": ${JSON.stringify(CREATE)}, "variables": {"m": ${nestedLists(5_000)}}}`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(500);
      for (const error of answer.json.errors ?? []) expect(CLIENT_CODES).toContain(error.extensions?.code);
    }
    expect(t.logText()).not.toMatch(/Maximum call stack|RangeError|INTERNAL_SERVER_ERROR/);
    expect(t.logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('answers a subscription with a client error: Engram has no subscriptions', async () => {
    for (const query of ['subscription { x }', 'subscription S { memory(id: "a") { id } }']) {
      const response = await post(JSON.stringify({ query }), { accept: 'application/graphql-response+json' });
      expect(response.status, query).toBeGreaterThanOrEqual(400);
      expect(response.status, query).toBeLessThan(500);
      expect(
        response.json.errors?.map((e) => e.extensions?.code),
        query,
      ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(response.json.errors?.[0]?.message).toMatch(/subscription/i);
      expect(response.json.errors?.[0]?.extensions?.retryable).toBe(false);
    }
    // Over plain application/json too (status 200 there, as for every validation error), still coded.
    const legacy = await post(JSON.stringify({ query: 'subscription { x }' }));
    expect(legacy.json.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('never echoes the body of a request it cannot parse (no extensions.originalError)', async () => {
    const secret = 'sk-live-do-not-echo';
    for (const body of [
      `{"query": "{ __typename }", "variables": {"key": "${secret}`,
      `{"query": "${secret}`,
      `${secret}`,
    ]) {
      const response = await post(body);
      expect(response.status, response.text).toBe(400);
      expect(response.json.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expect(response.json.errors?.[0]?.extensions).not.toHaveProperty('originalError');
      expect(response.text).not.toContain(secret);
    }
  });

  it('refuses multipart/form-data (no uploads) with 415 and a coded error, and writes nothing', async () => {
    const before = await memoryCount();
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: CREATE, variables: { m: null } }));
    form.set('map', JSON.stringify({ 0: ['variables.m'] }));
    form.set('0', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    // The workspace header makes it a preflighted request, so CSRF prevention lets it through to here.
    const response = await t.fetch('/graphql', {
      method: 'POST',
      headers: { 'x-engram-workspace': 'default' },
      body: form,
    });
    expect(response.status).toBe(415);
    const json = (await response.json()) as {
      data?: unknown;
      errors?: { message: string; extensions?: Record<string, any> }[];
    };
    expect(json.data).toBeUndefined();
    expect(json.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', retryable: false });
    expect(json.errors?.[0]?.message).toMatch(/multipart|upload/i);
    expect(await memoryCount()).toBe(before);
  });

  it('codes every answer above as a client error', () => {
    const logged = t.logs.filter((line) => line.msg === 'request').flatMap((line) => (line.codes ?? []) as string[]);
    expect(logged.length).toBeGreaterThan(10);
    for (const code of logged) expect(CLIENT_CODES).toContain(code);
  });
});
