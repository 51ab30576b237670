import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { createTestApp } from '../../helpers/app.js';
import { expectRejectedWithoutWrites, seed, useTestApp } from '../support.js';

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
