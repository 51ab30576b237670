import { describe, expect, it } from 'vitest';
import { KNOWN_RELATION_TYPES } from '../../src/domain/relations.js';
import { chain, parallel, star } from '../fixtures/graphs.js';
import { countRows, expectError, expectRejectedWithoutWrites, readDb, rowsAdded, seed, useTestApp } from './support.js';

const api = useTestApp();

const EDGE_FIELDS = 'id type from { key } to { key } weight pruned metadata createdAt updatedAt lastConfirmedAt';

const createPair = () =>
  api().gql(`mutation {
    a: createMemory(input: { key: "a", title: "A" }) { id }
    b: createMemory(input: { key: "b", title: "B" }) { id }
  }`);

describe('edge', () => {
  it('answers an edge by id with its ends, weight and timestamps', async () => {
    const graph = await seed(api(), chain);
    const stored = graph.edge('a', 'b');
    const { data, errors } = await api().gql(`query($id: ID!) { edge(id: $id) { ${EDGE_FIELDS} } }`, { id: stored.id });
    expect(errors).toBeUndefined();
    expect(data?.edge).toEqual({
      id: stored.id,
      type: 'CAUSED_BY',
      from: { key: 'chain-a' },
      to: { key: 'chain-b' },
      weight: 0.5,
      pruned: false,
      metadata: null,
      createdAt: stored.createdAt,
      updatedAt: stored.updatedAt,
      lastConfirmedAt: null,
    });
  });

  it('says whether the edge is pruned (weight at or below 0.05)', async () => {
    const graph = await seed(api(), star);
    const pruned = async (to: string, from = 'hub') =>
      (await api().gql('query($id: ID!) { edge(id: $id) { pruned } }', { id: graph.edge(from, to).id })).data?.edge
        .pruned;
    expect(await pruned('s4')).toBe(false);
    expect(await pruned('s5')).toBe(true);
    expect(await pruned('hub', 's7')).toBe(true);
  });

  it('answers null for an id that does not exist', async () => {
    const missing = await api().gql('{ edge(id: "no-such-edge") { id } }');
    expect(missing).toMatchObject({ status: 200, data: { edge: null } });
    expect(missing.errors).toBeUndefined();
  });
});

describe('edgesBetween', () => {
  it('answers the edges joining two memories in both directions, strongest first', async () => {
    await seed(api(), parallel);
    const { data, errors } = await api().gql(
      '{ edgesBetween(from: "parallel-a", to: "parallel-b") { type weight from { key } } }',
    );
    expect(errors).toBeUndefined();
    expect(data?.edgesBetween).toEqual([
      { type: 'EXTENDS', weight: 0.8, from: { key: 'parallel-a' } },
      { type: 'CONTRADICTS', weight: 0.6, from: { key: 'parallel-b' } },
      { type: 'CITES', weight: 0.4, from: { key: 'parallel-a' } },
    ]);
    const reversed = await api().gql('{ edgesBetween(from: "parallel-b", to: "parallel-a") { type } }');
    expect(reversed.data?.edgesBetween.map((edge: { type: string }) => edge.type)).toEqual([
      'EXTENDS',
      'CONTRADICTS',
      'CITES',
    ]);
  });

  it('keeps only the given types, normalising their case', async () => {
    await seed(api(), parallel);
    const { data } = await api().gql(
      '{ edgesBetween(from: "parallel-a", to: "parallel-b", types: ["cites", "contradicts"]) { type } }',
    );
    expect(data?.edgesBetween).toEqual([{ type: 'CONTRADICTS' }, { type: 'CITES' }]);
  });

  it('includes pruned edges, flagged as pruned', async () => {
    await seed(api(), star);
    const { data } = await api().gql('{ edgesBetween(from: "star-hub", to: "star-s5") { weight pruned } }');
    expect(data?.edgesBetween).toEqual([{ weight: 0.03, pruned: true }]);
  });

  it('answers an empty list for two memories that are not joined', async () => {
    await seed(api(), chain);
    expect((await api().gql('{ edgesBetween(from: "chain-a", to: "chain-c") { id } }')).data?.edgesBetween).toEqual([]);
  });

  it('fails with NOT_FOUND naming the argument of a missing memory', async () => {
    await seed(api(), chain);
    expectError(
      await api().gql('{ edgesBetween(from: "chain-a", to: "nope") { id } }'),
      'NOT_FOUND',
      'to: no memory "nope" in this workspace',
    );
    expectError(
      await api().gql('{ edgesBetween(from: "nope", to: "chain-a") { id } }'),
      'NOT_FOUND',
      'from: no memory "nope" in this workspace',
    );
  });
});

describe('relationTypes', () => {
  it('lists the known vocabulary with descriptions and inverses', async () => {
    const { data } = await api().gql('{ relationTypes { name description inverse } }');
    const types = data?.relationTypes as { name: string; description: string; inverse: string | null }[];
    expect(types.map((type) => type.name)).toEqual(KNOWN_RELATION_TYPES.map((type) => type.name));
    // DESIGN.md's 16, and the association recall feedback learns.
    expect(types).toHaveLength(17);
    expect(types.find((type) => type.name === 'CAUSED_BY')).toMatchObject({ inverse: 'CAUSES' });
    expect(types.find((type) => type.name === 'RECALLED_WITH')).toMatchObject({ inverse: 'RECALLED_WITH' });
    for (const type of types) {
      expect(type.name).toMatch(/^[A-Z][A-Z0-9_]{0,63}$/);
      expect(type.description.length).toBeGreaterThan(10);
    }
  });
});

describe('link', () => {
  it('creates an edge at the default weight 0.5, never confirmed, without a weight event', async () => {
    await createPair();
    const before = countRows(api());
    const { data, errors } = await api().gql(
      `mutation { link(input: { from: "a", to: "b", type: "CAUSED_BY" }) { ${EDGE_FIELDS} } }`,
    );
    expect(errors).toBeUndefined();
    expect(data?.link).toMatchObject({
      type: 'CAUSED_BY',
      from: { key: 'a' },
      to: { key: 'b' },
      weight: 0.5,
      pruned: false,
      metadata: null,
      lastConfirmedAt: null,
    });
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 1, weight_events: 0 });
  });

  it('normalises a lower-case or dashed relation type to UPPER_SNAKE_CASE', async () => {
    await createPair();
    const lower = await api().gql('mutation { link(input: { from: "a", to: "b", type: "caused_by" }) { id type } }');
    expect(lower.data?.link.type).toBe('CAUSED_BY');
    const dashed = await api().gql('mutation { link(input: { from: "a", to: "b", type: "Caused-By" }) { id type } }');
    expect(dashed.data?.link).toEqual(lower.data?.link);
  });

  it('starts a new edge at the given weight and stores its metadata', async () => {
    await createPair();
    const { data } = await api().gql(
      'mutation { link(input: { from: "a", to: "b", type: "CITES", weight: 0.9, metadata: { page: 12 } }) { weight metadata } }',
    );
    expect(data?.link).toEqual({ weight: 0.9, metadata: { page: 12 } });
  });

  it('confirms an existing edge on relink: same id, lastConfirmedAt set, metadata merged, no duplicate', async () => {
    await createPair();
    const first = await api().gql(
      'mutation { link(input: { from: "a", to: "b", type: "CITES", metadata: { page: 12, by: "ann" } }) { id lastConfirmedAt } }',
    );
    const before = countRows(api());
    const again = await api().gql(
      `mutation { link(input: { from: "a", to: "b", type: "cites", metadata: { page: 13, note: "2nd ed." } }) { ${EDGE_FIELDS} } }`,
    );
    expect(again.errors).toBeUndefined();
    expect(again.data?.link.id).toBe(first.data?.link.id);
    expect(first.data?.link.lastConfirmedAt).toBeNull();
    expect(again.data?.link.lastConfirmedAt).toEqual(expect.any(String));
    expect(again.data?.link.metadata).toEqual({ page: 13, by: 'ann', note: '2nd ed.' });
    expect(again.data?.link.weight).toBe(0.5);
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 0, weight_events: 0 });
    const stored = readDb(api().dbPath).rows.edges as { last_confirmed_at: string | null }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.last_confirmed_at).toBe(again.data?.link.lastConfirmedAt);
  });

  it('holds the merged metadata of 300 relinks, each adding a 4,000-byte key, to 4096 bytes', async () => {
    await createPair();
    const relink = `mutation($m: JSON) { link(input: { from: "a", to: "b", type: "CITES", metadata: $m }) { id } }`;
    expect((await api().gql(relink, { m: { k0: 'x'.repeat(4000) } })).errors).toBeUndefined();
    let refused = 0;
    for (let k = 1; k < 300; k++) {
      const response = await api().gql(relink, { m: { [`k${k}`]: 'x'.repeat(4000) } });
      expectError(response, 'BAD_USER_INPUT', /^input\.metadata: .*merged.*at most 4096 bytes/);
      refused++;
    }
    expect(refused).toBe(299);
    const [stored] = readDb(api().dbPath).rows.edges as { metadata: string; last_confirmed_at: string | null }[];
    expect(Buffer.byteLength(stored?.metadata ?? '', 'utf8')).toBeLessThanOrEqual(4096);
    expect(JSON.parse(stored?.metadata ?? 'null')).toEqual({ k0: 'x'.repeat(4000) });
    // Nothing of a refused relink was written: not even the confirmation time.
    expect(stored?.last_confirmed_at).toBeNull();
    await expectRejectedWithoutWrites(
      api(),
      { query: relink, variables: { m: { k1: 'y'.repeat(4000) } } },
      'BAD_USER_INPUT',
      /merged/,
    );
  });

  it('sets a new weight on relink with one MANUAL weight event', async () => {
    await createPair();
    await api().gql('mutation { link(input: { from: "a", to: "b", type: "CITES" }) { id } }');
    const before = countRows(api());
    const { data } = await api().gql(
      'mutation { link(input: { from: "a", to: "b", type: "CITES", weight: 0.7, reason: "re-read" }) { weight history { source old new delta reason } } }',
    );
    expect(data?.link).toEqual({
      weight: 0.7,
      history: [{ source: 'MANUAL', old: 0.5, new: 0.7, delta: 0.2, reason: 're-read' }],
    });
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 0, weight_events: 1 });
  });

  it('writes no weight event when a relink names the weight the edge already has', async () => {
    await createPair();
    await api().gql('mutation { link(input: { from: "a", to: "b", type: "CITES", weight: 0.6 }) { id } }');
    const before = countRows(api());
    const { data } = await api().gql(
      'mutation { link(input: { from: "a", to: "b", type: "CITES", weight: 0.6 }) { weight lastConfirmedAt } }',
    );
    expect(data?.link.weight).toBe(0.6);
    expect(data?.link.lastConfirmedAt).toEqual(expect.any(String));
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 0, weight_events: 0 });
  });

  it('treats the reverse direction as a different edge', async () => {
    await createPair();
    const forward = await api().gql('mutation { link(input: { from: "a", to: "b", type: "CITES" }) { id } }');
    const backward = await api().gql('mutation { link(input: { from: "b", to: "a", type: "CITES" }) { id } }');
    expect(backward.data?.link.id).not.toBe(forward.data?.link.id);
    expect(countRows(api()).edges).toBe(2);
  });

  it('rejects linking a memory to itself, by id or by key, and writes nothing', async () => {
    const { data } = await createPair();
    await expectRejectedWithoutWrites(
      api(),
      {
        query: 'mutation($a: ID!) { link(input: { from: $a, to: "a", type: "CITES" }) { id } }',
        variables: { a: data?.a.id },
      },
      'BAD_USER_INPUT',
      'input.to: a memory cannot be linked to itself',
    );
  });

  it('fails with NOT_FOUND naming the missing end, and writes nothing', async () => {
    await createPair();
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { link(input: { from: "ghost", to: "b", type: "CITES" }) { id } }' },
      'NOT_FOUND',
      /^input\.from: no memory "ghost"/,
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { link(input: { from: "a", to: "ghost", type: "CITES" }) { id } }' },
      'NOT_FOUND',
      /^input\.to: no memory "ghost"/,
    );
  });
});

describe('unlink', () => {
  it('removes an edge by id and answers it as it was', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('b', 'c');
    const before = countRows(api());
    const { data, errors } = await api().gql(
      'mutation($id: ID) { unlink(input: { id: $id }) { removed edges { id type weight from { key } to { key } } } }',
      {
        id: edge.id,
      },
    );
    expect(errors).toBeUndefined();
    expect(data?.unlink).toEqual({
      removed: 1,
      edges: [{ id: edge.id, type: 'CAUSED_BY', weight: 0.6, from: { key: 'chain-b' }, to: { key: 'chain-c' } }],
    });
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: -1, weight_events: 0 });
    expect((await api().gql('query($id: ID!) { edge(id: $id) { id } }', { id: edge.id })).data?.edge).toBeNull();
  });

  it('removes an edge by (from, to, type), accepting keys and a lower-case type', async () => {
    const graph = await seed(api(), parallel);
    const { data } = await api().gql(
      'mutation { unlink(input: { from: "parallel-a", to: "parallel-b", type: "cites" }) { removed edges { id } } }',
    );
    expect(data?.unlink).toEqual({ removed: 1, edges: [{ id: graph.edge('a', 'b', 'CITES').id }] });
    const left = await api().gql('{ edgesBetween(from: "parallel-a", to: "parallel-b") { type } }');
    expect(left.data?.edgesBetween).toEqual([{ type: 'EXTENDS' }, { type: 'CONTRADICTS' }]);
  });

  it('answers removed 0 when nothing matched, and writes nothing', async () => {
    await seed(api(), chain);
    const before = readDb(api().dbPath);
    const byId = await api().gql('mutation { unlink(input: { id: "no-such-edge" }) { removed edges { id } } }');
    const byTriple = await api().gql(
      'mutation { unlink(input: { from: "chain-b", to: "chain-a", type: "CAUSED_BY" }) { removed edges { id } } }',
    );
    expect(byId.data?.unlink).toEqual({ removed: 0, edges: [] });
    expect(byTriple.data?.unlink).toEqual({ removed: 0, edges: [] });
    expect(readDb(api().dbPath)).toEqual(before);
  });

  it('keeps the weight history of an unlinked edge', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }');
    await api().gql('mutation($id: ID) { unlink(input: { id: $id }) { removed } }', { id: graph.edge('a', 'b').id });
    const events = await api().gql('query($id: ID) { weightEvents(edgeId: $id) { new } }', {
      id: graph.edge('a', 'b').id,
    });
    expect(events.data?.weightEvents).toEqual([{ new: 0.51 }]);
  });

  it('rejects neither form, both forms, or a partial triple with BAD_USER_INPUT, and writes nothing', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('a', 'b').id;
    for (const input of [
      '{}',
      `{ id: "${id}", from: "chain-a" }`,
      `{ id: "${id}", from: "chain-a", to: "chain-b", type: "CAUSED_BY" }`,
      '{ from: "chain-a", to: "chain-b" }',
    ]) {
      await expectRejectedWithoutWrites(
        api(),
        { query: `mutation { unlink(input: ${input}) { removed } }` },
        'BAD_USER_INPUT',
        /^input: give either id, or all of from, to and type/,
      );
    }
  });

  it('fails with NOT_FOUND when the triple names a missing memory, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { unlink(input: { from: "chain-a", to: "ghost", type: "CAUSED_BY" }) { removed } }' },
      'NOT_FOUND',
      /^input\.to: no memory "ghost"/,
    );
  });
});
