import { describe, expect, it } from 'vitest';
import type { SeededGraph } from '../fixtures/graphs.js';
import { chain } from '../fixtures/graphs.js';
import { DEFAULT_WS, expectError, expectRejectedWithoutWrites, readDb, seed, useTestApp } from './support.js';

const api = useTestApp();

/** Data lives in workspace "a"; requests come from "b" or from the default workspace. */
const OUTSIDERS = [
  { label: 'workspace b', workspace: 'b' },
  { label: 'the default workspace', workspace: undefined },
];

async function seedA(): Promise<SeededGraph> {
  const graph = await seed(api(), chain, 'a');
  // One weight event in "a", so event reads and reverts have something to find.
  const response = await api().gql(
    'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { event { id } } }',
    {},
    { workspace: 'a' },
  );
  expect(response.errors).toBeUndefined();
  return graph;
}

const eventIdOfA = async (): Promise<string> =>
  (await api().gql('{ weightEvents { id } }', {}, { workspace: 'a' })).data?.weightEvents[0].id;

/** A message with the quoted name taken out, so two NOT_FOUND messages can be compared by shape. */
const shape = (message: string) => message.replace(/"[^"]*"/g, '"…"');

describe('workspaces', () => {
  it('shows data written in workspace a to requests of workspace a', async () => {
    const graph = await seedA();
    const { data } = await api().gql(
      'query($id: ID!) { memory(key: "chain-a") { id } edge(id: $id) { weight } weightEvents { old } }',
      { id: graph.edge('a', 'b').id },
      { workspace: 'a' },
    );
    expect(data).toEqual({ memory: { id: graph.id('a') }, edge: { weight: 0.2 }, weightEvents: [{ old: 0.5 }] });
  });

  it.each(OUTSIDERS)('hides everything of workspace a from $label', async ({ workspace }) => {
    const graph = await seedA();
    const { data, errors } = await api().gql(
      `query($id: ID, $ids: [ID!]!, $edge: ID!) {
        byId: memory(id: $id) { id }
        byKey: memory(key: "chain-a") { id }
        memories(ids: $ids) { id }
        searchMemories(query: "chain") { id }
        edge(id: $edge) { id }
        weightEvents { id }
        bySource: weightEvents(source: CONSCIOUS) { id }
        byEdge: weightEvents(edgeId: $edge) { id }
      }`,
      { id: graph.id('a'), ids: [graph.id('a'), 'chain-b'], edge: graph.edge('a', 'b').id },
      { workspace },
    );
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      byId: null,
      byKey: null,
      memories: [null, null],
      searchMemories: [],
      edge: null,
      weightEvents: [],
      bySource: [],
      byEdge: [],
    });
  });

  it.each(OUTSIDERS)('answers a memory of workspace a to $label exactly like a missing one', async ({ workspace }) => {
    const graph = await seedA();
    const queries = [
      'query($m: ID!) { path(from: $m, to: $m) { found } }',
      'query($m: ID!) { edgesBetween(from: $m, to: $m) { id } }',
      'query($m: ID!) { weightEvents(memoryId: $m) { id } }',
      'mutation($m: ID!) { updateMemory(id: $m, input: { title: "x" }) { id } }',
      'mutation($m: ID!) { deleteMemory(id: $m) { id } }',
      'mutation($m: ID!) { link(input: { from: $m, to: $m, type: "CITES" }) { id } }',
      'mutation($m: ID!) { feedback(memoryId: $m, signal: USED) { newWeight } }',
    ];
    for (const query of queries) {
      const foreign = await api().gql(query, { m: graph.id('a') }, { workspace });
      const missing = await api().gql(query, { m: 'no-such-memory' }, { workspace });
      const foreignError = expectError(foreign, 'NOT_FOUND');
      const missingError = expectError(missing, 'NOT_FOUND');
      expect(shape(foreignError.message)).toBe(shape(missingError.message));
      expect(foreign.data).toEqual(missing.data);
    }
  });

  it.each(OUTSIDERS)("does not let $label change workspace a's memories, edges or events", async ({ workspace }) => {
    const graph = await seedA();
    const edge = graph.edge('a', 'b').id;
    const event = await eventIdOfA();
    const a = graph.id('a');
    const b = graph.id('b');
    const attempts: [string, Record<string, unknown>, string][] = [
      ['mutation($a: ID!) { updateMemory(id: $a, input: { title: "hijacked" }) { id } }', { a }, 'NOT_FOUND'],
      ['mutation { updateMemory(id: "chain-a", input: { title: "hijacked" }) { id } }', {}, 'NOT_FOUND'],
      ['mutation($a: ID!) { deleteMemory(id: $a) { id } }', { a }, 'NOT_FOUND'],
      ['mutation($a: ID!, $b: ID!) { link(input: { from: $a, to: $b, type: "CITES" }) { id } }', { a, b }, 'NOT_FOUND'],
      [
        'mutation($a: ID!, $b: ID!) { weaken(from: $a, to: $b, type: "CAUSED_BY") { newWeight } }',
        { a, b },
        'NOT_FOUND',
      ],
      [
        'mutation($a: ID!, $b: ID!) { strengthen(from: $a, to: $b, type: "CAUSED_BY") { newWeight } }',
        { a, b },
        'NOT_FOUND',
      ],
      ['mutation($e: ID!) { setEdgeWeight(id: $e, weight: 1) { newWeight } }', { e: edge }, 'NOT_FOUND'],
      ['mutation($e: ID!) { revertWeightEvent(id: $e) { newWeight } }', { e: event }, 'NOT_FOUND'],
      ['mutation($a: ID!) { feedback(memoryId: $a, signal: USED) { newWeight } }', { a }, 'NOT_FOUND'],
      [
        'mutation($a: ID!, $b: ID!) { unlink(input: { from: $a, to: $b, type: "CAUSED_BY" }) { removed } }',
        { a, b },
        'NOT_FOUND',
      ],
    ];
    for (const [query, variables, code] of attempts) {
      await expectRejectedWithoutWrites(api(), { query, variables, workspace }, code);
    }
  });

  it('does not let another workspace unlink an edge by id, nor name it in feedback via', async () => {
    const graph = await seedA();
    await api().gql('mutation { createMemory(input: { key: "mine", title: "Mine" }) { id } }', {}, { workspace: 'b' });
    const before = readDb(api().dbPath);
    const unlinked = await api().gql(
      'mutation($e: ID) { unlink(input: { id: $e }) { removed } }',
      { e: graph.edge('a', 'b').id },
      { workspace: 'b' },
    );
    expect(unlinked.data?.unlink).toEqual({ removed: 0 });
    expect(readDb(api().dbPath)).toEqual(before);
    await expectRejectedWithoutWrites(
      api(),
      {
        query: 'mutation($via: [ID!]) { feedback(memoryId: "mine", signal: NOT_RELEVANT, via: $via) { newWeight } }',
        variables: { via: [graph.edge('a', 'b').id] },
        workspace: 'b',
      },
      'NOT_FOUND',
      /^via: no edge/,
    );
  });

  it('keeps keys and chosen ids unique per workspace only', async () => {
    for (const workspace of ['a', 'b', undefined]) {
      const response = await api().gql(
        'mutation { createMemory(input: { id: "same-id", key: "same-key", title: "T" }) { id } }',
        {},
        { workspace },
      );
      expect(response.errors).toBeUndefined();
    }
    await api().gql(
      'mutation { updateMemory(id: "same-key", input: { title: "Only in b" }) { id } }',
      {},
      { workspace: 'b' },
    );
    const titles = await Promise.all(
      ['a', 'b', DEFAULT_WS].map(
        async (workspace) =>
          (await api().gql('{ memory(key: "same-key") { title } }', {}, { workspace })).data?.memory.title,
      ),
    );
    expect(titles).toEqual(['T', 'Only in b', 'T']);
    expect(readDb(api().dbPath).counts.memories).toBe(3);
  });

  it('keeps walks inside the workspace even when ids are shared', async () => {
    for (const workspace of ['a', 'b']) {
      await api().gql(
        'mutation { x: createMemory(input: { id: "x", title: "X" }) { id } y: createMemory(input: { id: "y", title: "Y" }) { id } }',
        {},
        { workspace },
      );
    }
    await api().gql('mutation { link(input: { from: "x", to: "y", type: "CITES" }) { id } }', {}, { workspace: 'a' });
    const inA = await api().gql(
      '{ path(from: "x", to: "y") { found } memory(id: "x") { degree neighbors { memory { id } } } }',
      {},
      { workspace: 'a' },
    );
    const inB = await api().gql(
      '{ path(from: "x", to: "y") { found } memory(id: "x") { degree neighbors { memory { id } } } }',
      {},
      { workspace: 'b' },
    );
    expect(inA.data).toEqual({ path: { found: true }, memory: { degree: 1, neighbors: [{ memory: { id: 'y' } }] } });
    expect(inB.data).toEqual({ path: { found: false }, memory: { degree: 0, neighbors: [] } });
  });

  it('treats an empty workspace header as the default workspace', async () => {
    await api().gql('mutation { createMemory(input: { key: "k", title: "Default" }) { id } }');
    const response = await api().gql('{ memory(key: "k") { title } }', {}, { headers: { 'x-engram-workspace': '' } });
    expect(response.data?.memory).toEqual({ title: 'Default' });
    expect((await api().gql('{ memory(key: "k") { title } }', {}, { workspace: DEFAULT_WS })).data?.memory).toEqual({
      title: 'Default',
    });
  });
});
