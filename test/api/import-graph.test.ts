import { describe, expect, it } from 'vitest';
import { readDb, useCountingApp } from './support.js';

const IMPORT = `
  mutation Import($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {
    importGraph(memories: $memories, edges: $edges) { memories edges }
  }
`;

const MEMORIES = [
  {
    id: 'm1',
    key: 'postgres-choice',
    title: 'We chose Postgres',
    kind: 'decision',
    tags: ['db'],
    weight: 0.7,
    metadata: { by: 'team' },
  },
  { id: 'm2', title: 'We need ACID transactions' },
];
const EDGES = [{ from: 'm1', to: 'm2', type: 'caused_by', weight: 0.6, metadata: { source: 'import' } }];

describe('importGraph', () => {
  const { api, calls, reset } = useCountingApp();

  it('creates memories and the edges between them in one call, with defaults and normalised types', async () => {
    const result = await api().gql(IMPORT, { memories: MEMORIES, edges: EDGES });
    expect(result.errors).toBeUndefined();
    expect(result.data?.importGraph).toEqual({ memories: 2, edges: 1 });

    const read = await api().gql(`{
      memory(key: "postgres-choice") { id title kind tags weight metadata neighbors { direction edge { type weight metadata } memory { id title weight } } }
    }`);
    expect(read.data?.memory).toEqual({
      id: 'm1',
      title: 'We chose Postgres',
      kind: 'decision',
      tags: ['db'],
      weight: 0.7,
      metadata: { by: 'team' },
      neighbors: [
        {
          direction: 'OUTGOING',
          edge: { type: 'CAUSED_BY', weight: 0.6, metadata: { source: 'import' } },
          memory: { id: 'm2', title: 'We need ACID transactions', weight: 0.5 },
        },
      ],
    });
  });

  it('is idempotent: the same call twice duplicates nothing, keeps the edge and writes no weight event', async () => {
    await api().gql(IMPORT, { memories: MEMORIES, edges: EDGES });
    const before = readDb(api().dbPath);
    const again = await api().gql(IMPORT, { memories: MEMORIES, edges: EDGES });
    expect(again.data?.importGraph).toEqual({ memories: 2, edges: 1 });
    const after = readDb(api().dbPath);
    expect(after.counts).toEqual({ memories: 2, edges: 1, weight_events: 0 });
    expect((after.rows.edges[0] as { id: string }).id).toBe((before.rows.edges[0] as { id: string }).id);
  });

  it('links to memories already in the workspace, and replaces the weight of an existing edge', async () => {
    await api().gql(IMPORT, { memories: MEMORIES });
    const result = await api().gql(IMPORT, {
      memories: [{ id: 'm3', title: 'Third' }],
      edges: [
        { from: 'm3', to: 'm1', type: 'VALIDATES' },
        { ...EDGES[0], weight: 0.2 },
      ],
    });
    expect(result.data?.importGraph).toEqual({ memories: 1, edges: 2 });
    const between = await api().gql(
      `{ a: edgesBetween(from: "m1", to: "m2") { weight } b: edgesBetween(from: "m3", to: "m1") { type weight } }`,
    );
    expect(between.data).toEqual({ a: [{ weight: 0.2 }], b: [{ type: 'VALIDATES', weight: 0.5 }] });
  });

  it.each([
    [
      'a bad relation type',
      { memories: MEMORIES, edges: [{ from: 'm1', to: 'm2', type: 'not valid!' }] },
      /type: must be UPPER_SNAKE_CASE/,
    ],
    [
      'a self-link',
      { memories: MEMORIES, edges: [{ from: 'm1', to: 'm1', type: 'CITES' }] },
      /edges\[0\]\.to: a memory cannot be linked to itself/,
    ],
    ['an empty title', { memories: [{ id: 'x', title: '  ' }] }, /title: must not be empty/],
    ['a weight above 1', { memories: [{ id: 'x', title: 'X', weight: 2 }] }, /weight: must be between 0 and 1/],
    ['a bad memory id', { memories: [{ id: 'has space', title: 'X' }] }, /id: must start with a letter or digit/],
    [
      'more than 1000 records',
      {
        memories: Array.from({ length: 600 }, (_, at) => ({ id: `m${at}`, title: 'M' })),
        edges: Array.from({ length: 401 }, (_, at) => ({ from: 'm0', to: `m${at + 1}`, type: 'CITES' })),
      },
      /memories: at most 1000 records/,
    ],
  ])('rejects %s with BAD_USER_INPUT before any store work', async (_name, variables, message) => {
    reset();
    const result = await api().gql(IMPORT, variables);
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toMatch(message);
    expect(calls().get('importBatch')).toBeUndefined();
    expect(readDb(api().dbPath).counts).toEqual({ memories: 0, edges: 0, weight_events: 0 });
  });

  it('answers NOT_FOUND naming the edge whose memory is neither sent nor stored, and writes nothing', async () => {
    const result = await api().gql(IMPORT, {
      memories: MEMORIES,
      edges: [EDGES[0], { from: 'm2', to: 'ghost', type: 'CITES' }],
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(result.errors?.[0]?.message).toMatch(/^edges\[1\]: to: no memory "ghost"/);
    expect(readDb(api().dbPath).counts).toEqual({ memories: 0, edges: 0, weight_events: 0 });
  });

  it('answers CONFLICT when two memories claim one key, and writes nothing', async () => {
    const result = await api().gql(IMPORT, {
      memories: [
        { id: 'a', key: 'same', title: 'A' },
        { id: 'b', key: 'same', title: 'B' },
      ],
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(result.errors?.[0]?.message).toMatch(/memories\[1\]: key "same" is already used by memory "a"/);
    expect(readDb(api().dbPath).counts.memories).toBe(0);
  });

  it('is one store write for the whole call', async () => {
    reset();
    await api().gql(IMPORT, { memories: MEMORIES, edges: EDGES });
    expect(calls().get('importBatch')).toBe(1);
  });

  it('acts in the workspace of the request only', async () => {
    await api().gql(IMPORT, { memories: MEMORIES, edges: EDGES }, { workspace: 'elsewhere' });
    expect((await api().gql('{ memory(id: "m1") { id } }')).data?.memory).toBeNull();
    expect((await api().gql('{ memory(id: "m1") { id } }', {}, { workspace: 'elsewhere' })).data?.memory).toEqual({
      id: 'm1',
    });
  });
});
