import Database from 'better-sqlite3';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/index.js';
import { type HardenedApp, hardenedApp } from './support.js';

/** Values no argument should trip over: wrong types, huge and broken strings, injection-looking text, extreme numbers. */
const BAD_VALUES: unknown[] = [
  null,
  '',
  '   ',
  'x'.repeat(70_000),
  'a\u0000b',
  '\ud800',
  'a\udfffb',
  '\u202egnp.exe',
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  'MATCH (n) DETACH DELETE n',
  'CAUSED_BY`]->(x) DETACH DELETE x //',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template-injection text, sent as data on purpose
  '${7*7}{{7*7}}',
  'caused_by',
  42,
  -1,
  0,
  -0,
  1.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  true,
  [],
  ['m-a', null],
  Array.from({ length: 1000 }, () => 'm-a'),
  {},
  { nested: { deeper: ['\u0000'] } },
];

/**
 * Codes a bad input may earn; anything else (INTERNAL_SERVER_ERROR above all) is a bug.
 * GRAPHQL_VALIDATION_FAILED: graphql-js's answer to null for a non-null variable.
 */
const CLIENT_CODES = new Set([
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'LIMIT_EXCEEDED',
  'GRAPHQL_VALIDATION_FAILED',
]);

/** A valid value for an argument or input field, by name first, then by type. */
function valid(name: string, type: GraphQLInputType, field: string): unknown {
  if (isNonNullType(type)) return valid(name, type.ofType, field);
  if (isListType(type)) return [valid(name, type.ofType, field)];
  if (isEnumType(type)) return type.getValues()[0]?.name;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
        .map((f) => [f.name, valid(f.name, f.type, field)]),
    );
  }
  const byName: Record<string, unknown> = {
    from: 'm-a',
    to: 'm-b',
    memoryId: 'm-a',
    type: 'CAUSED_BY',
    title: 'a title',
    query: 'alpha',
    weight: 0.5,
    amount: 0.1,
    edgeId: 'e-ab',
  };
  if (name in byName) return byName[name];
  if (name === 'id') return /edge|EdgeWeight/i.test(field) ? 'e-ab' : 'm-a';
  const scalar = getNamedType(type).name;
  return scalar === 'Int'
    ? 5
    : scalar === 'Float'
      ? 0.5
      : scalar === 'Boolean'
        ? false
        : scalar === 'JSON'
          ? {}
          : scalar === 'ID'
            ? 'm-a'
            : 'alpha';
}

interface Case {
  field: string;
  operation: 'query' | 'mutation';
  /** argument name, or argument.inputField */
  target: string;
  document: string;
  variables: Record<string, unknown>;
}

/** One case per (root field, argument or input field, bad value); the other arguments stay valid. */
function cases(): Case[] {
  const all: Case[] = [];
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const;
  for (const [operation, root] of roots) {
    for (const field of Object.values(root?.getFields() ?? {}) as GraphQLField<unknown, unknown>[]) {
      const selection = 'getFields' in getNamedType(field.type) ? ' { __typename }' : '';
      const document = `${operation} (${field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ') || '$unused: Int'}) { result: ${field.name}${
        field.args.length ? `(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : ''
      }${selection} }`;
      const baseline = (skip?: GraphQLArgument) =>
        Object.fromEntries(
          field.args
            .filter((a) => a !== skip && (isNonNullType(a.type) || a.name === 'id'))
            .map((a) => [a.name, valid(a.name, a.type, field.name)]),
        );
      for (const arg of field.args) {
        const named = getNamedType(arg.type);
        const targets: [string, (value: unknown) => Record<string, unknown>][] = [
          [arg.name, (value) => ({ ...baseline(arg), [arg.name]: value })],
        ];
        if (isInputObjectType(named) && !isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type)) {
          for (const inputField of Object.values(named.getFields())) {
            targets.push([
              `${arg.name}.${inputField.name}`,
              (value) => ({
                ...baseline(arg),
                [arg.name]: { ...(valid(arg.name, arg.type, field.name) as object), [inputField.name]: value },
              }),
            ]);
          }
        }
        for (const [target, build] of targets) {
          for (const value of BAD_VALUES)
            all.push({ field: field.name, operation, target, document, variables: build(value) });
        }
      }
    }
  }
  return all;
}

describe('bad-input sweep over every argument of every operation', () => {
  let t: HardenedApp;
  let db: Database.Database;
  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' }, logLevel: 'silent' });
    db = new Database(t.dbPath, { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    db.close();
    await t.close();
  });

  const snapshot = (ws: string) =>
    JSON.stringify(
      ['memories', 'edges', 'weight_events'].map((table) =>
        db.prepare(`SELECT * FROM ${table} WHERE workspace = ? ORDER BY rid`).all(ws),
      ),
    );

  it('answers each with a coded client error or a correct result: never a 500, never a partial write', {
    timeout: 120_000,
  }, async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(500);
    const problems: string[] = [];
    let n = 0;
    const seed = (ws: string) =>
      t.store.importBatch(
        ws,
        {
          memories: ['m-a', 'm-b'].map((id) => ({
            id,
            key: `key-${id}`,
            title: `alpha ${id}`,
            content: null,
            kind: null,
            tags: [],
            weight: 0.5,
            metadata: null,
          })),
          edges: [{ id: 'e-ab', fromId: 'm-a', toId: 'm-b', type: 'CAUSED_BY', weight: 0.5, metadata: null }],
        },
        '2026-01-01T00:00:00.000Z',
      );
    // Queries share one workspace (they write nothing: checked at the end). Mutations share one
    // while each leaves it as seeded (a refused mutation must), and move to a fresh one after any
    // that changed it: every mutation starts from the seeded state, without seeding thousands.
    await seed('sweep-read');
    const readsBefore = snapshot('sweep-read');
    let writable = '';
    let seeded = '';
    for (const c of all) {
      if (c.operation === 'mutation' && !writable) {
        writable = `sweep-${n++}`;
        await seed(writable);
        seeded = snapshot(writable);
      }
      const ws = c.operation === 'query' ? 'sweep-read' : writable;
      const response = await t.gql(c.document, c.variables, { 'x-engram-workspace': ws });
      const label = `${c.operation} ${c.field} ${c.target}=${JSON.stringify(c.variables).slice(0, 120)}`;
      const codes = (response.errors ?? []).map((e) => String(e.extensions?.code));
      if (response.status >= 500) problems.push(`HTTP ${response.status}: ${label}`);
      const unexpected = codes.filter((code) => !CLIENT_CODES.has(code));
      if (unexpected.length) problems.push(`${unexpected.join(',')} (${response.errors?.[0]?.message}): ${label}`);
      if (c.operation === 'mutation' && snapshot(ws) !== seeded) {
        if (codes.length > 0) problems.push(`partial write: ${label}`);
        writable = '';
      }
      if (codes.length === 0 && response.data?.result === undefined) problems.push(`no data and no error: ${label}`);
      if ((response.errors ?? []).some((e) => typeof e.extensions?.retryable !== 'boolean'))
        problems.push(`error without retryable: ${label}`);
    }
    if (snapshot('sweep-read') !== readsBefore) problems.push('a query changed the database');
    expect(problems.slice(0, 30)).toEqual([]);
  });

  it('stores accepted odd text exactly as sent (injection-looking text is data, not code)', async () => {
    for (const text of [
      "'; DROP TABLE memories; --",
      'MATCH (n) DETACH DELETE n',
      '<script>alert(1)</script>',
      'emoji 🧠 and 中文',
      'line\nbreak\ttab',
    ]) {
      const created = await t.gql(
        `mutation ($c: String) { createMemory(input: { title: "odd", content: $c }) { id content } }`,
        { c: text },
        { 'x-engram-workspace': 'odd' },
      );
      expect(created.data?.createMemory.content).toBe(text);
      const read = await t.gql(
        `query ($id: ID!) { memory(id: $id) { content } }`,
        { id: created.data?.createMemory.id },
        { 'x-engram-workspace': 'odd' },
      );
      expect(read.data?.memory.content).toBe(text);
    }
    expect((db.prepare(`SELECT COUNT(*) AS n FROM memories WHERE workspace = 'odd'`).get() as { n: number }).n).toBe(5);
  });
});
