import { describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/domain/ids.js';
import { chain, library, star } from '../fixtures/graphs.js';
import {
  countRows,
  DEFAULT_WS,
  expectError,
  expectRejectedWithoutWrites,
  rowsAdded,
  seed,
  useTestApp,
} from './support.js';

const api = useTestApp();

const MEMORY_FIELDS = 'id key title content kind tags weight metadata createdAt updatedAt';

describe('createMemory', () => {
  it('creates a memory with the defaults of the contract and writes no weight event', async () => {
    const before = countRows(api());
    const { data, errors } = await api().gql(
      `mutation { createMemory(input: { title: "We chose Postgres" }) { ${MEMORY_FIELDS} } }`,
    );
    expect(errors).toBeUndefined();
    const memory = data?.createMemory;
    expect(memory).toMatchObject({
      key: null,
      title: 'We chose Postgres',
      content: null,
      kind: null,
      tags: [],
      weight: 0.5,
      metadata: null,
    });
    expect(memory.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(new Date(memory.createdAt).toISOString()).toBe(memory.createdAt);
    expect(memory.updatedAt).toBe(memory.createdAt);
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 1, edges: 0, weight_events: 0 });
  });

  it('stores every given field, including a chosen id, weight and JSON metadata', async () => {
    const input = {
      id: 'decision:2024/pg',
      key: 'postgres-choice',
      title: 'We chose Postgres',
      content: 'Line one\nLine two',
      kind: 'decision',
      tags: ['database', 'architecture'],
      weight: 0.8,
      metadata: { source: 'adr-7', scores: [1, 2.5], nested: { ok: true } },
    };
    const created = await api().gql(
      `mutation($input: CreateMemoryInput!) { createMemory(input: $input) { ${MEMORY_FIELDS} } }`,
      { input },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createMemory).toMatchObject(input);

    const read = await api().gql(`{ memory(id: "decision:2024/pg") { ${MEMORY_FIELDS} } }`);
    expect(read.data?.memory).toEqual(created.data?.createMemory);
  });

  it('accepts metadata just under 4096 bytes', async () => {
    const metadata = { note: '€'.repeat(1300) }; // 3900 bytes in UTF-8 plus the JSON punctuation
    const { data, errors } = await api().gql(
      'mutation($m: JSON) { createMemory(input: { title: "t", metadata: $m }) { metadata } }',
      { m: metadata },
    );
    expect(errors).toBeUndefined();
    expect(data?.createMemory.metadata).toEqual(metadata);
  });

  it('fails with CONFLICT when the key is taken in the workspace, and writes nothing', async () => {
    await api().gql('mutation { createMemory(input: { key: "taken", title: "First" }) { id } }');
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { createMemory(input: { key: "taken", title: "Second" }) { id } }' },
      'CONFLICT',
      /key/,
    );
  });

  it('fails with CONFLICT when the chosen id is taken in the workspace, and writes nothing', async () => {
    await api().gql('mutation { createMemory(input: { id: "m-1", title: "First" }) { id } }');
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { createMemory(input: { id: "m-1", title: "Second" }) { id } }' },
      'CONFLICT',
      /id/,
    );
  });
});

describe('memory', () => {
  it('finds a memory by id, by key, and by its key given as id', async () => {
    const graph = await seed(api(), chain);
    const byId = await api().gql('query($id: ID) { memory(id: $id) { id key title } }', { id: graph.id('a') });
    const byKey = await api().gql('{ memory(key: "chain-a") { id key title } }');
    const keyAsId = await api().gql('{ memory(id: "chain-a") { id key title } }');
    const expected = { id: graph.id('a'), key: 'chain-a', title: 'Chain A' };
    expect(byId.data?.memory).toEqual(expected);
    expect(byKey.data?.memory).toEqual(expected);
    expect(keyAsId.data?.memory).toEqual(expected);
  });

  it('answers null, without an error, for an id or key that does not exist', async () => {
    await seed(api(), chain);
    const byId = await api().gql('{ memory(id: "no-such-memory") { id } }');
    const byKey = await api().gql('{ memory(key: "no-such-key") { id } }');
    for (const answer of [byId, byKey]) {
      expect(answer).toMatchObject({ status: 200, data: { memory: null } });
      expect(answer.errors).toBeUndefined();
    }
  });

  it('does not answer a key lookup with a memory whose id merely equals the key', async () => {
    await api().gql('mutation { createMemory(input: { id: "handle-1", title: "Chosen id" }) { id } }');
    const { data, errors } = await api().gql('{ memory(key: "handle-1") { id } }');
    expect(errors).toBeUndefined();
    expect(data?.memory).toBeNull();
  });

  it('rejects both id and key, or neither, with BAD_USER_INPUT naming the argument', async () => {
    const both = expectError(
      await api().gql('{ memory(id: "a", key: "b") { id } }'),
      'BAD_USER_INPUT',
      /exactly one of id and key/,
    );
    expect(both.message).toMatch(/^id: /);
    const neither = expectError(await api().gql('{ memory { id } }'), 'BAD_USER_INPUT', /exactly one of id and key/);
    expect(neither.extensions?.argument).toBe('id');
  });
});

describe('memories', () => {
  it('answers in the order of ids, with null where a memory is missing, and accepts keys', async () => {
    const graph = await seed(api(), chain);
    const ids = [graph.id('c'), 'missing-1', 'chain-a', graph.id('e'), 'missing-2', graph.id('c')];
    const { data, errors } = await api().gql('query($ids: [ID!]!) { memories(ids: $ids) { id key } }', { ids });
    expect(errors).toBeUndefined();
    expect(data?.memories).toEqual([
      { id: graph.id('c'), key: 'chain-c' },
      null,
      { id: graph.id('a'), key: 'chain-a' },
      { id: graph.id('e'), key: 'chain-e' },
      null,
      { id: graph.id('c'), key: 'chain-c' },
    ]);
  });

  it('answers an empty list for no ids', async () => {
    expect((await api().gql('{ memories(ids: []) { id } }')).data?.memories).toEqual([]);
  });

  it('rejects more than 100 ids with BAD_USER_INPUT naming ids', async () => {
    const ids = Array.from({ length: 101 }, (_, index) => `m-${index}`);
    expectError(
      await api().gql('query($ids: [ID!]!) { memories(ids: $ids) { id } }', { ids }),
      'BAD_USER_INPUT',
      /^ids: .*100/,
    );
  });
});

describe('searchMemories', () => {
  const search = (args: string) => api().gql(`{ searchMemories(${args}) { key } }`);
  const keys = (response: Awaited<ReturnType<typeof search>>) =>
    (response.data!.searchMemories as { key: string }[]).map((memory) => memory.key);

  it('ranks title matches before content matches', async () => {
    await seed(api(), library);
    const found = keys(await search('query: "postgres"'));
    expect(found).toHaveLength(3);
    expect(found.slice(0, 2).sort()).toEqual(['library-pg-hypothesis', 'library-pg-title']);
    expect(found[2]).toBe('library-pg-content');
  });

  it('searches tags, and matches the last word as a prefix', async () => {
    await seed(api(), library);
    expect(keys(await search('query: "sharding"'))).toEqual(['library-sharding']);
    expect(keys(await search('query: "cach"'))).toEqual(['library-redis']);
  });

  it('keeps only the given kinds', async () => {
    await seed(api(), library);
    expect(keys(await search('query: "postgres", kinds: ["experiment"]'))).toEqual(['library-pg-content']);
    expect(keys(await search('query: "postgres", kinds: ["decision", "hypothesis"]')).sort()).toEqual([
      'library-pg-hypothesis',
      'library-pg-title',
    ]);
  });

  it('keeps only memories carrying one of the given tags', async () => {
    await seed(api(), library);
    expect(keys(await search('query: "postgres", tags: ["scaling"]'))).toEqual(['library-pg-hypothesis']);
    expect(keys(await search('query: "postgres", tags: ["database"]')).sort()).toEqual([
      'library-pg-content',
      'library-pg-title',
    ]);
  });

  it('returns at most `limit` memories, 20 by default', async () => {
    await seed(api(), library);
    expect(keys(await search('query: "postgres", limit: 1'))).toHaveLength(1);
    const zebras = Array.from({ length: 25 }, (_, index) => ({
      id: newId(),
      key: `zebra-${index}`,
      title: `Zebra sighting ${index}`,
      content: null,
      kind: null,
      tags: [],
      weight: 0.5,
      metadata: null,
    }));
    await api().store.importBatch(DEFAULT_WS, { memories: zebras, edges: [] }, nowIso());
    expect(keys(await search('query: "zebra"'))).toHaveLength(20);
    expect(keys(await search('query: "zebra", limit: 100'))).toHaveLength(25);
  });

  it('treats query syntax as plain words and finds nothing in punctuation alone', async () => {
    await seed(api(), library);
    expect(keys(await search('query: "postgres AND NOT \\"redis\\" OR title:*"'))).toContain('library-pg-title');
    expect((await search('query: "!!! ***"')).data?.searchMemories).toEqual([]);
  });

  it('rejects an empty query and a limit outside 1..100 with BAD_USER_INPUT naming the argument', async () => {
    expectError(await search('query: "   "'), 'BAD_USER_INPUT', /^query: /);
    expectError(await search('query: "x", limit: 0'), 'BAD_USER_INPUT', /^limit: must be between 1 and 100/);
    expectError(await search('query: "x", limit: 101'), 'BAD_USER_INPUT', /^limit: must be between 1 and 100/);
  });
});

describe('updateMemory', () => {
  it('changes only the fields given, by id or key, and clears a field set to null', async () => {
    const created = await api().gql(
      'mutation { createMemory(input: { key: "k1", title: "Old", content: "Body", kind: "fact", tags: ["a"], metadata: { v: 1 } }) { id createdAt updatedAt } }',
    );
    const { id, createdAt } = created.data!.createMemory;
    const { data, errors } = await api().gql(
      `mutation { updateMemory(id: "k1", input: { title: "New", content: null, tags: ["b", "c"] }) { ${MEMORY_FIELDS} } }`,
    );
    expect(errors).toBeUndefined();
    expect(data?.updateMemory).toMatchObject({
      id,
      key: 'k1',
      title: 'New',
      content: null,
      kind: 'fact',
      tags: ['b', 'c'],
      metadata: { v: 1 },
      createdAt,
    });
    expect(data?.updateMemory.updatedAt >= createdAt).toBe(true);
  });

  it('moves the key, freeing the old one', async () => {
    await api().gql('mutation { createMemory(input: { key: "old-key", title: "T" }) { id } }');
    const moved = await api().gql('mutation { updateMemory(id: "old-key", input: { key: "new-key" }) { key } }');
    expect(moved.data?.updateMemory.key).toBe('new-key');
    expect((await api().gql('{ memory(key: "old-key") { id } }')).data?.memory).toBeNull();
    const reused = await api().gql('mutation { createMemory(input: { key: "old-key", title: "Other" }) { key } }');
    expect(reused.errors).toBeUndefined();
  });

  it('makes the new title searchable', async () => {
    await api().gql('mutation { createMemory(input: { key: "k", title: "Giraffe" }) { id } }');
    await api().gql('mutation { updateMemory(id: "k", input: { title: "Okapi" }) { id } }');
    expect((await api().gql('{ searchMemories(query: "giraffe") { key } }')).data?.searchMemories).toEqual([]);
    expect((await api().gql('{ searchMemories(query: "okapi") { key } }')).data?.searchMemories).toEqual([
      { key: 'k' },
    ]);
  });

  it('fails with NOT_FOUND for a missing memory, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { updateMemory(id: "missing", input: { title: "x" }) { id } }' },
      'NOT_FOUND',
      'id: no memory "missing" in this workspace',
    );
  });

  it('rejects a null title with BAD_USER_INPUT naming input.title, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { updateMemory(id: "chain-a", input: { title: null }) { id } }' },
      'BAD_USER_INPUT',
      /input\.title/,
    );
  });

  it('fails with CONFLICT when the new key is taken, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { updateMemory(id: "chain-a", input: { key: "chain-b", title: "x" }) { id } }' },
      'CONFLICT',
      /key/,
    );
  });
});

describe('deleteMemory', () => {
  it('removes the memory and every edge touching it, and says how many', async () => {
    const graph = await seed(api(), star);
    const before = countRows(api());
    const { data, errors } = await api().gql('mutation { deleteMemory(id: "star-hub") { id deleted edgesRemoved } }');
    expect(errors).toBeUndefined();
    // Seven edges touch the hub, pruned ones included; s1 -> s2 does not.
    expect(data?.deleteMemory).toEqual({ id: graph.id('hub'), deleted: true, edgesRemoved: 7 });
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: -1, edges: -7, weight_events: 0 });
    expect((await api().gql('{ memory(key: "star-hub") { id } }')).data?.memory).toBeNull();
    const s1 = await api().gql('{ memory(key: "star-s1") { neighbors { memory { key } } } }');
    expect(s1.data?.memory.neighbors).toEqual([{ memory: { key: 'star-s2' } }]);
  });

  it('keeps the weight history of the removed edges', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }');
    await api().gql('mutation { deleteMemory(id: "chain-a") { deleted } }');
    const events = await api().gql('query($e: ID) { weightEvents(edgeId: $e) { old new edgeId edge { id } } }', {
      e: graph.edge('a', 'b').id,
    });
    expect(events.data?.weightEvents).toEqual([{ old: 0.5, new: 0.2, edgeId: graph.edge('a', 'b').id, edge: null }]);
  });

  it('reports 0 edges removed for an isolated memory', async () => {
    await api().gql('mutation { createMemory(input: { key: "alone", title: "Alone" }) { id } }');
    const { data } = await api().gql('mutation { deleteMemory(id: "alone") { deleted edgesRemoved } }');
    expect(data?.deleteMemory).toEqual({ deleted: true, edgesRemoved: 0 });
  });

  it('fails with NOT_FOUND for a missing memory, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { deleteMemory(id: "missing") { id } }' },
      'NOT_FOUND',
      'id: no memory "missing" in this workspace',
    );
  });
});
