import { describe, expect, it } from 'vitest';
import { chain } from '../fixtures/graphs.js';
import { createTestApp } from '../helpers/app.js';
import { expectError, expectRejectedWithoutWrites, seed, useTestApp } from './support.js';

const api = useTestApp();

const OVERSIZE_METADATA = { note: '€'.repeat(1500) }; // 1500 characters, but 4500 bytes in UTF-8
const INJECTIONS = [
  'bad type!',
  'CAUSED_BY]->(x) DETACH DELETE x //',
  "'; DROP TABLE edges; --",
  'CAUSED_BY`',
  'A'.repeat(65),
];

describe('BAD_USER_INPUT on mutations', () => {
  interface Case {
    name: string;
    query: string;
    variables?: Record<string, unknown>;
    /** The start of the message: the argument, then the rule. */
    message: RegExp;
  }

  const cases: Case[] = [
    {
      name: 'weaken amount 0',
      query: 'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 0) { newWeight } }',
      message: /^amount: must be greater than 0/,
    },
    {
      name: 'weaken amount 1.5',
      query: 'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 1.5) { newWeight } }',
      message: /^amount: must be at most 1/,
    },
    {
      name: 'weaken amount -0.2',
      query: 'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: -0.2) { newWeight } }',
      message: /^amount: /,
    },
    {
      name: 'strengthen amount 0',
      query: 'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 0) { newWeight } }',
      message: /^amount: must be greater than 0/,
    },
    {
      name: 'strengthen amount 1.5',
      query: 'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 1.5) { newWeight } }',
      message: /^amount: must be at most 1/,
    },
    {
      name: 'setEdgeWeight weight -0.1',
      query: 'mutation($id: ID!) { setEdgeWeight(id: $id, weight: -0.1) { newWeight } }',
      variables: { id: 'EDGE_AB' },
      message: /^weight: must be between 0 and 1/,
    },
    {
      name: 'setEdgeWeight weight 1.1',
      query: 'mutation($id: ID!) { setEdgeWeight(id: $id, weight: 1.1) { newWeight } }',
      variables: { id: 'EDGE_AB' },
      message: /^weight: must be between 0 and 1/,
    },
    {
      name: 'link weight -0.1',
      query: 'mutation { link(input: { from: "chain-a", to: "chain-c", type: "CITES", weight: -0.1 }) { id } }',
      message: /^input\.weight: must be between 0 and 1/,
    },
    {
      name: 'createMemory weight 2',
      query: 'mutation { createMemory(input: { title: "t", weight: 2 }) { id } }',
      message: /^input\.weight: must be between 0 and 1/,
    },
    {
      name: 'createMemory empty title',
      query: 'mutation { createMemory(input: { title: "  " }) { id } }',
      message: /^input\.title: must not be empty/,
    },
    {
      name: 'createMemory id with spaces',
      query: 'mutation { createMemory(input: { id: "my id", title: "t" }) { id } }',
      message: /^input\.id: must start with a letter or digit/,
    },
    {
      name: 'createMemory key with a quote',
      query: `mutation { createMemory(input: { key: "k'; --", title: "t" }) { id } }`,
      message: /^input\.key: /,
    },
    {
      name: 'createMemory tag with NUL',
      query: 'mutation($t: [String!]) { createMemory(input: { title: "t", tags: $t }) { id } }',
      variables: { t: ['ok', 'bad\u0000tag'] },
      message: /^input\.tags: /,
    },
    {
      name: 'createMemory oversize metadata',
      query: 'mutation($m: JSON) { createMemory(input: { title: "t", metadata: $m }) { id } }',
      variables: { m: OVERSIZE_METADATA },
      message: /^input\.metadata: must be at most 4096 bytes/,
    },
    {
      name: 'updateMemory oversize metadata',
      query: 'mutation($m: JSON) { updateMemory(id: "chain-a", input: { metadata: $m }) { id } }',
      variables: { m: OVERSIZE_METADATA },
      message: /^input\.metadata: must be at most 4096 bytes/,
    },
    {
      name: 'link oversize metadata',
      query:
        'mutation($m: JSON) { link(input: { from: "chain-a", to: "chain-b", type: "CAUSED_BY", metadata: $m }) { id } }',
      variables: { m: OVERSIZE_METADATA },
      message: /^input\.metadata: must be at most 4096 bytes/,
    },
    {
      name: 'reason over 1000 characters',
      query:
        'mutation($r: String) { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", reason: $r) { newWeight } }',
      variables: { r: 'x'.repeat(1001) },
      message: /^reason: must be at most 1000 characters/,
    },
    {
      name: 'self-link',
      query: 'mutation { link(input: { from: "chain-a", to: "chain-a", type: "CITES" }) { id } }',
      message: /^input\.to: a memory cannot be linked to itself/,
    },
    {
      name: 'unlink with neither form',
      query: 'mutation { unlink(input: {}) { removed } }',
      message: /^input: give either id, or all of from, to and type/,
    },
    {
      name: 'unlink with both forms',
      query:
        'mutation($id: ID) { unlink(input: { id: $id, from: "chain-a", to: "chain-b", type: "CAUSED_BY" }) { removed } }',
      variables: { id: 'EDGE_AB' },
      message: /^input: give either id/,
    },
    {
      name: 'feedback with 101 via edges',
      query: 'mutation($via: [ID!]) { feedback(memoryId: "chain-a", signal: USED, via: $via) { newWeight } }',
      variables: { via: Array.from({ length: 101 }, (_, i) => `e${i}`) },
      message: /^via: must hold at most 100 edge ids/,
    },
    ...INJECTIONS.flatMap((type): Case[] => [
      {
        name: `link type ${JSON.stringify(type)}`,
        query: 'mutation($t: String!) { link(input: { from: "chain-a", to: "chain-c", type: $t }) { id } }',
        variables: { t: type },
        message: /^input\.type: must/,
      },
      {
        name: `weaken type ${JSON.stringify(type)}`,
        query: 'mutation($t: String!) { weaken(from: "chain-a", to: "chain-b", type: $t) { newWeight } }',
        variables: { t: type },
        message: /^type: must/,
      },
      {
        name: `strengthen type ${JSON.stringify(type)}`,
        query: 'mutation($t: String!) { strengthen(from: "chain-a", to: "chain-b", type: $t) { newWeight } }',
        variables: { t: type },
        message: /^type: must/,
      },
      {
        name: `unlink type ${JSON.stringify(type)}`,
        query: 'mutation($t: String) { unlink(input: { from: "chain-a", to: "chain-b", type: $t }) { removed } }',
        variables: { t: type },
        message: /^input\.type: must/,
      },
    ]),
    {
      name: 'wrong GraphQL type for amount',
      query: 'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: "a lot") { newWeight } }',
      message: /Float cannot represent/,
    },
    {
      name: 'wrong GraphQL type for a variable',
      query: 'mutation($w: Float!) { setEdgeWeight(id: "x", weight: $w) { newWeight } }',
      variables: { w: 'heavy' },
      message: /^Variable "\$w" got invalid value "heavy"; Float cannot represent/,
    },
    {
      name: 'an unknown input field in a variable',
      query: 'mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }',
      variables: { i: { title: 't', colour: 'red' } },
      message: /^Variable "\$i" got invalid value .*Field "colour" is not defined by type "CreateMemoryInput"/,
    },
    {
      name: 'a missing required argument',
      query: 'mutation { setEdgeWeight(id: "chain-a") { newWeight } }',
      message: /argument "weight" of type "Float!" is required/,
    },
    {
      name: 'unknown enum value',
      query: 'mutation { feedback(memoryId: "chain-a", signal: LOVED_IT) { newWeight } }',
      message: /Value "LOVED_IT" does not exist in "FeedbackSignal" enum/,
    },
  ];

  it.each(cases)('rejects $name, naming the argument, and writes nothing', async ({ query, variables, message }) => {
    const graph = await seed(api(), chain);
    const resolved =
      variables &&
      Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [name, value === 'EDGE_AB' ? graph.edge('a', 'b').id : value]),
      );
    await expectRejectedWithoutWrites(api(), { query, variables: resolved }, 'BAD_USER_INPUT', message);
  });

  it('stores no relation type that is not UPPER_SNAKE_CASE, whatever the input looked like', async () => {
    await seed(api(), chain);
    const types = await api().gql('{ memory(key: "chain-a") { neighbors(includePruned: true) { edge { type } } } }');
    expect(types.data?.memory.neighbors).toEqual([{ edge: { type: 'CAUSED_BY' } }]);
  });
});

describe('BAD_USER_INPUT on queries', () => {
  it.each([
    [
      'path maxHops 11',
      '{ path(from: "chain-a", to: "chain-b", maxHops: 11) { found } }',
      /^maxHops: must be between 1 and 10/,
    ],
    [
      'path maxHops 0',
      '{ path(from: "chain-a", to: "chain-b", maxHops: 0) { found } }',
      /^maxHops: must be between 1 and 10/,
    ],
    [
      'path maxHops "x"',
      '{ path(from: "chain-a", to: "chain-b", maxHops: "x") { found } }',
      /Int cannot represent non-integer value: "x"/,
    ],
    [
      'traverse maxDepth 0',
      '{ memory(key: "chain-a") { traverse(maxDepth: 0) { depth } } }',
      /^maxDepth: must be between 1 and 5/,
    ],
    [
      'traverse maxDepth 6',
      '{ memory(key: "chain-a") { traverse(maxDepth: 6) { depth } } }',
      /^maxDepth: must be between 1 and 5/,
    ],
    [
      'searchMemories limit 101',
      '{ searchMemories(query: "chain", limit: 101) { id } }',
      /^limit: must be between 1 and 100/,
    ],
    [
      'neighbors limit 101',
      '{ memory(key: "chain-a") { neighbors(limit: 101) { direction } } }',
      /^limit: must be between 1 and 100/,
    ],
    ['weightEvents limit 0', '{ weightEvents(limit: 0) { id } }', /^limit: must be between 1 and 100/],
    [
      'history limit 101',
      '{ edgesBetween(from: "chain-a", to: "chain-b") { history(limit: 101) { id } } }',
      /^limit: must be between 1 and 100/,
    ],
    [
      'neighbors types "bad type!"',
      '{ memory(key: "chain-a") { neighbors(types: ["bad type!"]) { direction } } }',
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'path types with Cypher',
      '{ path(from: "chain-a", to: "chain-b", types: ["CAUSED_BY]->(x) DETACH DELETE x //"]) { found } }',
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'edgesBetween types with SQL',
      `{ edgesBetween(from: "chain-a", to: "chain-b", types: ["'; DROP TABLE edges; --"]) { id } }`,
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'memory with id and key',
      '{ memory(id: "chain-a", key: "chain-a") { id } }',
      /^id: give exactly one of id and key/,
    ],
    ['memory with neither id nor key', '{ memory { id } }', /^id: give exactly one of id and key/],
    [
      'memory id of 257 characters',
      `{ memory(id: "${'a'.repeat(257)}") { id } }`,
      /^id: must be at most 256 characters/,
    ],
    [
      'unknown direction',
      '{ path(from: "chain-a", to: "chain-b", direction: SIDEWAYS) { found } }',
      /Value "SIDEWAYS" does not exist in "Direction" enum/,
    ],
  ])('rejects %s, naming the argument', async (_name, query, message) => {
    await seed(api(), chain);
    expectError(await api().gql(query), 'BAD_USER_INPUT', message);
  });

  it('rejects a variable of the wrong GraphQL type with BAD_USER_INPUT naming the variable', async () => {
    const response = await api().gql(
      'query($hops: Int!) { path(from: "chain-a", to: "chain-b", maxHops: $hops) { found } }',
      { hops: 'x' },
    );
    expectError(
      response,
      'BAD_USER_INPUT',
      /^Variable "\$hops" got invalid value "x"; Int cannot represent non-integer value/,
    );
  });

  it('rejects a missing required variable with BAD_USER_INPUT', async () => {
    const response = await api().gql('query($from: ID!) { path(from: $from, to: "chain-b") { found } }', {});
    expectError(response, 'BAD_USER_INPUT', /Variable "\$from" of required type "ID!" was not provided/);
  });

  it('rejects a null for a required variable with BAD_USER_INPUT', async () => {
    const response = await api().gql('query($from: ID!) { path(from: $from, to: "chain-b") { found } }', {
      from: null,
    });
    expectError(response, 'BAD_USER_INPUT', /Variable "\$from" of non-null type "ID!" must not be null/);
  });

  it('rejects a malformed x-engram-workspace header with HTTP 400', async () => {
    for (const workspace of ['bad space', '../etc', 'x'.repeat(65), '-leading-dash']) {
      const response = await api().gql('{ relationTypes { name } }', {}, { workspace });
      expect(response.status).toBe(400);
      expectError(response, 'BAD_USER_INPUT', /^x-engram-workspace: must be 1-64 letters, digits/);
    }
  });
});

describe('request errors', () => {
  it('answers a syntax error with GRAPHQL_PARSE_FAILED', async () => {
    expectError(await api().gql('{ memory(id: "a" { id }'), 'GRAPHQL_PARSE_FAILED', /^Syntax Error/);
  });

  it('answers an unknown field with GRAPHQL_VALIDATION_FAILED', async () => {
    expectError(
      await api().gql('{ memory(id: "a") { nope } }'),
      'GRAPHQL_VALIDATION_FAILED',
      /Cannot query field "nope" on type "Memory"/,
    );
  });

  it('refuses a mutation sent with GET', async () => {
    const query = encodeURIComponent('mutation { createMemory(input: { title: "t" }) { id } }');
    const response = await api().app.fetch(`http://engram.test/graphql?query=${query}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(405);
    expect((await api().gql('{ searchMemories(query: "t") { id } }')).data?.searchMemories).toEqual([]);
  });
});

describe('LIMIT_EXCEEDED', () => {
  /** neighbors(limit: 2) { memory { ... } } nested `levels` times under one memory: deep, but 2 wide. */
  const nested = (levels: number, leaf = 'title'): string =>
    levels === 0 ? leaf : `neighbors(limit: 2) { memory { ${nested(levels - 1, leaf)} } }`;

  it('accepts a query within the default limits', async () => {
    await seed(api(), chain);
    const { data, errors } = await api().gql(`{ memory(key: "chain-a") { ${nested(5)} } }`);
    expect(errors).toBeUndefined();
    expect(data?.memory.neighbors[0].memory.neighbors).toHaveLength(2);
  });

  it('rejects a query nested deeper than 12', async () => {
    expectError(
      await api().gql(`{ memory(key: "chain-a") { ${nested(7)} } }`),
      'LIMIT_EXCEEDED',
      /depth limit of 12 exceeded/,
    );
  });

  it('counts depth through fragments, so spreading them does not hide nesting', async () => {
    const fragments = Array.from({ length: 7 }, (_, index) =>
      index === 6
        ? `fragment F${index} on Memory { title }`
        : `fragment F${index} on Memory { neighbors { memory { ...F${index + 1} } } }`,
    ).join('\n');
    const response = await api().gql(`query { memory(key: "chain-a") { ...F0 } }\n${fragments}`);
    expectError(response, 'LIMIT_EXCEEDED', /depth limit of 12 exceeded/);
  });

  it('rejects a query costing more than 5000', async () => {
    /** Every memory level asks for both neighbors and traverse, doubling the breadth at each level. */
    const branching = (levels: number): string =>
      levels === 0
        ? 'id key title content kind weight createdAt updatedAt'
        : `neighbors { memory { ${branching(levels - 1)} } } traverse { memory { ${branching(levels - 1)} } }`;
    expectError(
      await api().gql(`{ memory(key: "chain-a") { ${branching(5)} } }`),
      'LIMIT_EXCEEDED',
      /Query cost \d+ is over the limit of 5000/,
    );
  });

  it('counts cost through fragments', async () => {
    const app = api();
    const leaf = 'fragment F5 on Memory { id key title content kind weight createdAt updatedAt }';
    const levels = Array.from(
      { length: 5 },
      (_, index) =>
        `fragment F${index} on Memory { neighbors { memory { ...F${index + 1} } } traverse { memory { ...F${index + 1} } } }`,
    );
    expectError(
      await app.gql(`{ memory(key: "chain-a") { ...F0 } }\n${[...levels, leaf].join('\n')}`),
      'LIMIT_EXCEEDED',
      /Query cost \d+ is over the limit of 5000/,
    );
  });

  it('accepts 15 aliases and rejects 16', async () => {
    const aliases = (count: number) =>
      `{ ${Array.from({ length: count }, (_, index) => `a${index}: relationTypes { name }`).join(' ')} }`;
    expect((await api().gql(aliases(15))).errors).toBeUndefined();
    expectError(await api().gql(aliases(16)), 'LIMIT_EXCEEDED', /Aliases limit of 15 exceeded/);
  });

  it('rejects a document of more than 2000 tokens', async () => {
    expectError(
      await api().gql(`{ relationTypes { ${'name '.repeat(2000)} } }`),
      'LIMIT_EXCEEDED',
      /Token limit of 2000 exceeded/,
    );
  });

  it('rejects a body over the size limit with HTTP 413', async () => {
    const response = await api().gql('query($big: String) { relationTypes { name } }', { big: 'x'.repeat(300_000) });
    expect(response.status).toBe(413);
    expectError(response, 'LIMIT_EXCEEDED', /too large/);
  });

  it('rejects a body over the size limit declared in content-length with HTTP 413', async () => {
    const body = JSON.stringify({ query: '{ relationTypes { name } }', variables: { big: 'x'.repeat(300_000) } });
    const response = await api().app.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'LIMIT_EXCEEDED',
    );
  });
});

describe('configured limits', () => {
  it('uses the limits set in the environment', async () => {
    const small = await createTestApp({
      env: { ENGRAM_MAX_DEPTH: '3', ENGRAM_MAX_ALIASES: '1', ENGRAM_MAX_BODY_BYTES: '200' },
    });
    try {
      expectError(
        await small.gql('{ memory(key: "a") { neighbors { memory { title } } } }'),
        'LIMIT_EXCEEDED',
        /depth limit of 3/,
      );
      expectError(
        await small.gql('{ a: relationTypes { name } b: relationTypes { name } }'),
        'LIMIT_EXCEEDED',
        /Aliases limit of 1/,
      );
      expect((await small.gql('query($pad: String) { relationTypes { name } }', { pad: 'x'.repeat(200) })).status).toBe(
        413,
      );
    } finally {
      await small.close();
    }
  });
});

describe('ENGRAM_STRICT_TYPES', () => {
  it('rejects a relation type outside the known vocabulary with BAD_USER_INPUT, and writes nothing', async () => {
    const strict = await createTestApp({ env: { ENGRAM_STRICT_TYPES: 'true' } });
    try {
      await seed(strict, chain);
      await expectRejectedWithoutWrites(
        strict,
        { query: 'mutation { link(input: { from: "chain-a", to: "chain-c", type: "made_up" }) { id } }' },
        'BAD_USER_INPUT',
        /^input\.type: "MADE_UP" is not a known relation type/,
      );
      const known = await strict.gql(
        'mutation { link(input: { from: "chain-a", to: "chain-c", type: "cites" }) { type } }',
      );
      expect(known.data?.link).toEqual({ type: 'CITES' });
    } finally {
      await strict.close();
    }
  });

  it('accepts any UPPER_SNAKE_CASE type when off (the default)', async () => {
    await seed(api(), chain);
    const { data, errors } = await api().gql(
      'mutation { link(input: { from: "chain-a", to: "chain-c", type: "made_up_2" }) { type } }',
    );
    expect(errors).toBeUndefined();
    expect(data?.link).toEqual({ type: 'MADE_UP_2' });
  });
});
