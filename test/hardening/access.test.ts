import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findApiKey, parseApiKeyList } from '../../src/auth/api-keys.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { schema } from '../../src/graphql/index.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

const WRITER = 'writer-key-aaaaaaaaaaaa';
const READER = 'reader-key-bbbbbbbbbbbb';
const ADMIN = 'admin-key-cccccccccccccc';
const OTHER = 'other-team-key-dddddddd';
const KEYS = `${WRITER}=team-a:write,${READER}=team-a:read,${ADMIN}=team-a:admin,${OTHER}=team-b:write`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const CREATE = `mutation Create($input: CreateMemoryInput!) { createMemory(input: $input) { id title } }`;

describe('API keys configuration', () => {
  it('parses KEY=WORKSPACE:ROLE entries and sha256 keys, keeping only hashes', () => {
    const hex = createHash('sha256').update(WRITER).digest('hex');
    const keys = parseApiKeyList(`sha256:${hex}=team-a:write, ${READER}=team-b:read`);
    expect(keys.map((key) => [key.workspace, key.role])).toEqual([
      ['team-a', 'write'],
      ['team-b', 'read'],
    ]);
    expect(JSON.stringify(keys)).not.toContain(READER);
    expect(findApiKey(keys, WRITER)?.workspace).toBe('team-a');
    expect(findApiKey(keys, READER)?.role).toBe('read');
    expect(findApiKey(keys, `${READER}x`)).toBeNull();
  });

  it('refuses short keys, bad roles, bad workspaces and duplicates, never quoting the key', () => {
    const bad = {
      'short=team-a:write': /at least 16 characters/,
      [`${WRITER}=team-a:owner`]: /role must be read, write or admin/,
      [`${WRITER}=bad space:write`]: /workspace must be 1-64/,
      [`${WRITER}=team-a:write,${WRITER}=team-b:read`]: /configured twice/,
      'sha256:abc=team-a:read': /64 hex digits/,
    };
    for (const [value, message] of Object.entries(bad)) {
      const attempt = () => loadConfig({ ENGRAM_API_KEYS: value });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(message);
      try {
        attempt();
      } catch (error) {
        expect((error as Error).message).not.toContain(WRITER);
      }
    }
  });

  it('reads ENGRAM_API_KEYS_FILE with plain and sha256 keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-keys-'));
    try {
      const file = join(dir, 'keys.json');
      const hex = createHash('sha256').update(OTHER).digest('hex');
      writeFileSync(
        file,
        JSON.stringify([
          { key: WRITER, workspace: 'team-a', role: 'write' },
          { sha256: hex, workspace: 'team-b', role: 'read' },
        ]),
      );
      const config = loadConfig({ ENGRAM_API_KEYS_FILE: file });
      expect(findApiKey(config.apiKeys, OTHER)).toMatchObject({ workspace: 'team-b', role: 'read' });
      writeFileSync(file, '{"not": "an array"}');
      expect(() => loadConfig({ ENGRAM_API_KEYS_FILE: file })).toThrow(/must hold a JSON array/);
      writeFileSync(file, `[{"key": "${WRITER}", oops`);
      expect(() => loadConfig({ ENGRAM_API_KEYS_FILE: file })).toThrow(/cannot read/);
      expect(() => loadConfig({ ENGRAM_API_KEYS_FILE: file })).not.toThrow(WRITER);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('with API keys', () => {
  let t: HardenedApp;
  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_API_KEYS: KEYS } });
  });
  afterAll(() => t.close());

  it('answers a request without credentials with UNAUTHENTICATED (401, WWW-Authenticate)', async () => {
    const response = await t.gql('{ relationTypes { name } }');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(codes(response)).toEqual(['UNAUTHENTICATED']);
    expect(response.errors?.[0]?.extensions?.retryable).toBe(false);
    // No silent default workspace, with or without a workspace header.
    expect((await t.gql('{ relationTypes { name } }', {}, { 'x-engram-workspace': 'team-a' })).status).toBe(401);
  });

  it('refuses wrong, malformed and other-scheme credentials', async () => {
    for (const authorization of [
      `Bearer ${WRITER}x`,
      `Bearer ${WRITER.slice(0, -1)}`,
      `Basic ${WRITER}`,
      'Bearer',
      `Bearer ${WRITER} extra`,
      WRITER,
    ]) {
      const response = await t.gql('{ relationTypes { name } }', {}, { authorization });
      expect(response.status, authorization).toBe(401);
      expect(codes(response)).toEqual(['UNAUTHENTICATED']);
    }
  });

  it('takes the workspace from the key, and refuses a header naming another one', async () => {
    const created = await t.gql(CREATE, { input: { id: 'k-1', title: 'from team a' } }, bearer(WRITER));
    expect(created.errors).toBeUndefined();
    const sameHeader = await t.gql(
      `{ memory(id: "k-1") { title } }`,
      {},
      { ...bearer(READER), 'x-engram-workspace': 'team-a' },
    );
    expect(sameHeader.data?.memory.title).toBe('from team a');
    const otherTeam = await t.gql(`{ memory(id: "k-1") { title } }`, {}, bearer(OTHER));
    expect(otherTeam.data?.memory).toBeNull();
    const forbidden = await t.gql(
      `{ memory(id: "k-1") { title } }`,
      {},
      { ...bearer(OTHER), 'x-engram-workspace': 'team-a' },
    );
    expect(forbidden.status).toBe(403);
    expect(codes(forbidden)).toEqual(['FORBIDDEN']);
    expect(forbidden.data ?? null).toBeNull();
  });

  it('lets a read key read but refuses every Mutation field with FORBIDDEN, before validation and without writing', async () => {
    const mutationFields = Object.values(schema.getMutationType()?.getFields() ?? {});
    expect(mutationFields.length).toBeGreaterThanOrEqual(10);
    expect((await t.gql(`{ memory(id: "k-1") { id } }`, {}, bearer(READER))).data?.memory.id).toBe('k-1');
    for (const field of mutationFields) {
      const response = await t.gql(`mutation { ${callWithPlaceholders(field)} }`, {}, bearer(READER));
      expect(codes(response), field.name).toEqual(['FORBIDDEN']);
    }
    const count = await t.gql(
      `{ memories(ids: ["k-1"]) { id } searchMemories(query: "team") { id } }`,
      {},
      bearer(READER),
    );
    expect(count.data?.searchMemories).toHaveLength(1);
    // The write and admin keys may write.
    expect((await t.gql(CREATE, { input: { title: 'admin writes' } }, bearer(ADMIN))).errors).toBeUndefined();
  });

  it('never writes a key into the log', async () => {
    await t.gql('{ relationTypes { name } }', {}, bearer(`${WRITER}-wrong`));
    await t.gql('{ relationTypes { name } }', {}, bearer(WRITER));
    const text = t.logText();
    expect(text).toContain('"workspace":"team-a"');
    for (const key of [WRITER, READER, ADMIN, OTHER]) expect(text).not.toContain(key);
  });

  it('guards /metrics with an admin key', async () => {
    expect((await t.fetch('/metrics')).status).toBe(401);
    expect((await t.fetch('/metrics', { headers: bearer(WRITER) })).status).toBe(403);
    const metrics = await t.fetch('/metrics', { headers: bearer(ADMIN) });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('engram_graphql_errors_total');
    // Probes stay open.
    expect((await t.fetch('/health')).status).toBe(200);
    expect((await t.fetch('/ready')).status).toBe(200);
  });
});

describe('without API keys (local use)', () => {
  it('keeps the header mode: the workspace comes from x-engram-workspace, everyone may write', async () => {
    const t = await hardenedApp();
    try {
      expect(
        (await t.gql(CREATE, { input: { id: 'h-1', title: 'in ws-x' } }, { 'x-engram-workspace': 'ws-x' })).errors,
      ).toBeUndefined();
      expect((await t.gql(`{ memory(id: "h-1") { id } }`, {}, { 'x-engram-workspace': 'ws-x' })).data?.memory.id).toBe(
        'h-1',
      );
      expect((await t.gql(`{ memory(id: "h-1") { id } }`)).data?.memory).toBeNull();
      expect((await t.fetch('/metrics')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('production mode', () => {
  let t: HardenedApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('turns GraphiQL, introspection and suggestions off by default, for NODE_ENV or ENGRAM_MODE', () => {
    for (const env of [{ NODE_ENV: 'production' }, { ENGRAM_MODE: 'production' }] as const) {
      const config = loadConfig(env);
      expect(config).toMatchObject({
        mode: 'production',
        graphiql: false,
        introspection: false,
        unmaskedErrors: false,
        csrfPrevention: true,
      });
    }
    expect(loadConfig({})).toMatchObject({ mode: 'development', graphiql: true, introspection: true });
    expect(loadConfig({ NODE_ENV: 'production', ENGRAM_GRAPHIQL: 'true' })).toMatchObject({
      graphiql: true,
      introspection: true,
    });
    expect(loadConfig({ NODE_ENV: 'production', ENGRAM_INTROSPECTION: 'true' })).toMatchObject({
      graphiql: false,
      introspection: true,
    });
  });

  it('refuses to start with development-only settings, naming each one', () => {
    const attempt = () =>
      loadConfig({ NODE_ENV: 'production', ENGRAM_UNMASKED_ERRORS: 'true', ENGRAM_CSRF_PREVENTION: 'false' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /Refusing to start in production mode[\s\S]*ENGRAM_UNMASKED_ERRORS=true[\s\S]*ENGRAM_CSRF_PREVENTION=false/,
    );
    expect(() => loadConfig({ ENGRAM_UNMASKED_ERRORS: 'true', ENGRAM_CSRF_PREVENTION: 'false' })).not.toThrow();
  });

  it('refuses introspection, hides suggestions and serves no GraphiQL', async () => {
    t = await hardenedApp({ env: { NODE_ENV: 'production' } });
    const introspection = await t.gql('{ __schema { types { name } } }');
    expect(introspection.data ?? null).toBeNull();
    expect(new Set(codes(introspection))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
    expect(introspection.errors?.[0]?.message).toMatch(/introspection/i);
    expect(new Set(codes(await t.gql('{ __type(name: "Memory") { name } }')))).toEqual(
      new Set(['GRAPHQL_VALIDATION_FAILED']),
    );
    expect((await t.gql('{ __typename }')).data?.__typename).toBe('Query');
    const typo = await t.gql('{ relationType { name } }');
    expect(typo.errors?.[0]?.message).not.toMatch(/Did you mean/);
    const page = await t.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(await page.text()).not.toMatch(/graphiql/i);
  });

  it('masks unexpected errors (no message, no stack) and logs them with the request id', async () => {
    t = await hardenedApp({
      env: { NODE_ENV: 'production' },
      wrapStore: (store) => ({
        ...store,
        description: store.description,
        searchMemories: async () => Promise.reject(new Error('secret internal detail /var/db')),
      }),
    });
    const response = await t.gql('{ searchMemories(query: "x") { id } }', {}, { 'x-request-id': 'req-mask-1' });
    expect(response.status).toBeLessThan(500);
    expect(codes(response)).toEqual(['INTERNAL_SERVER_ERROR']);
    expect(JSON.stringify(response)).not.toContain('secret internal detail');
    const logged = t.logs.find((line) => line.msg === 'unexpected error');
    expect(logged?.reqId).toBe('req-mask-1');
    expect(logged?.err?.message).toBe('secret internal detail /var/db');
  });

  it('shows the internal message only with ENGRAM_UNMASKED_ERRORS in development', async () => {
    t = await hardenedApp({
      env: { ENGRAM_UNMASKED_ERRORS: 'true' },
      wrapStore: (store) => ({ ...store, searchMemories: async () => Promise.reject(new Error('internal detail')) }),
    });
    const response = await t.gql('{ searchMemories(query: "x") { id } }');
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      internalMessage: 'internal detail',
    });
  });
});

/** A call of a Mutation field with valid-looking literal arguments (the scope check comes before their rules). */
function callWithPlaceholders(field: GraphQLField<unknown, unknown>): string {
  const args = field.args
    .filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)
    .map((arg) => `${arg.name}: ${literal(arg.type)}`);
  return `${field.name}${args.length ? `(${args.join(', ')})` : ''}${selectionFor(field.type)}`;
}

function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) return `[${literal(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0]?.name ?? 'X';
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  const name = (type as { name: string }).name;
  return name === 'Float' ? '0.5' : name === 'Int' ? '1' : name === 'Boolean' ? 'true' : name === 'JSON' ? '{}' : '"x"';
}

function selectionFor(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  return 'getFields' in named ? ' { __typename }' : '';
}
