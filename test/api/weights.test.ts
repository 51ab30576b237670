import { describe, expect, it } from 'vitest';
import { chain, star } from '../fixtures/graphs.js';
import { newId, nowIso } from '../../src/domain/ids.js';
import { DEFAULT_WEIGHT_POLICY, type WeightChangeRequest } from '../../src/domain/weights.js';
import { DEFAULT_WS, countRows, expectRejectedWithoutWrites, readDb, rowsAdded, seed, useTestApp } from './support.js';

const api = useTestApp();

const BOUNDS = { floor: DEFAULT_WEIGHT_POLICY.floor, ceiling: DEFAULT_WEIGHT_POLICY.ceiling };

/** A MANUAL set of one edge weight, for seeding many events in one transaction through the port. */
const setWeight = (edgeId: string, value: number): WeightChangeRequest => ({
  eventId: newId(),
  target: { kind: 'edge', id: edgeId },
  operation: { kind: 'set', value },
  source: 'MANUAL',
  reason: null,
});

const CHANGE_FIELDS =
  'previousWeight newWeight pruned edge { id weight pruned } memory { id weight } event { id source old new delta reason revertedBy edge { id } memory { id } }';

/** Runs a weight mutation and checks it wrote exactly `events` weight events and nothing else. */
async function change(mutation: string, variables?: Record<string, unknown>, events = 1) {
  const before = countRows(api());
  const response = await api().gql(mutation, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 0, weight_events: events });
  return response.data as Record<string, any>;
}

const edgeWeight = async (id: string): Promise<number> =>
  (await api().gql('query($id: ID!) { edge(id: $id) { weight } }', { id })).data?.edge.weight;

const memoryWeight = async (ref: string): Promise<number> =>
  (await api().gql('query($id: ID) { memory(id: $id) { weight } }', { id: ref })).data?.memory.weight;

describe('weaken', () => {
  it('lowers the weight by 0.3 by default, as a CONSCIOUS event', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    const { weaken } = await change(
      `mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", reason: "user corrected it") { ${CHANGE_FIELDS} } }`,
    );
    expect(weaken).toMatchObject({
      previousWeight: 0.5,
      newWeight: 0.2,
      pruned: false,
      edge: { id: edge.id, weight: 0.2, pruned: false },
      memory: null,
      event: {
        source: 'CONSCIOUS',
        old: 0.5,
        new: 0.2,
        delta: -0.3,
        reason: 'user corrected it',
        revertedBy: null,
        edge: { id: edge.id },
        memory: null,
      },
    });
    expect(await edgeWeight(edge.id)).toBe(0.2);
  });

  it('uses the given amount and source, accepting ids, keys and a lower-case type', async () => {
    const graph = await seed(api(), chain);
    const { weaken } = await change(
      'mutation($from: ID!) { weaken(from: $from, to: "chain-c", type: "caused_by", amount: 0.15, source: AGENT) { newWeight event { source delta } } }',
      {
        from: graph.id('b'),
      },
    );
    expect(weaken).toEqual({ newWeight: 0.45, event: { source: 'AGENT', delta: -0.15 } });
  });

  it('clamps at 0 and keeps the edge', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    await change('mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }');
    const { weaken } = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 1) { previousWeight newWeight pruned event { delta } } }',
    );
    expect(weaken).toEqual({ previousWeight: 0.2, newWeight: 0, pruned: true, event: { delta: -0.2 } });
    const again = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight event { delta } } }',
    );
    expect(again.weaken).toEqual({ newWeight: 0, event: { delta: 0 } });
    expect(readDb(api().dbPath).rows.edges).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: edge.id, weight: 0 })]),
    );
  });

  it('prunes the edge at or below 0.05: hidden from neighbors, degree, path and traverse, shown with includePruned', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('b', 'c');
    const { weaken } = await change(
      'mutation { weaken(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.55) { newWeight pruned } }',
    );
    expect(weaken).toEqual({ newWeight: 0.05, pruned: true });

    const { data } = await api().gql(`{
      b: memory(key: "chain-b") {
        neighbors { memory { key } }
        all: neighbors(includePruned: true) { memory { key } edge { id pruned } }
        degree
        traverse(maxDepth: 5) { memory { key } }
      }
      path(from: "chain-a", to: "chain-e", maxHops: 10) { found }
      edgesBetween(from: "chain-b", to: "chain-c") { id pruned }
    }`);
    expect(data?.b.neighbors).toEqual([{ memory: { key: 'chain-a' } }]);
    expect(data?.b.all).toEqual([
      { memory: { key: 'chain-a' }, edge: { id: graph.edge('a', 'b').id, pruned: false } },
      { memory: { key: 'chain-c' }, edge: { id: edge.id, pruned: true } },
    ]);
    expect(data?.b.degree).toBe(1);
    expect(data?.b.traverse).toEqual([{ memory: { key: 'chain-a' } }]);
    expect(data?.path).toEqual({ found: false });
    expect(data?.edgesBetween).toEqual([{ id: edge.id, pruned: true }]);
  });

  it('is revived by strengthen above 0.05', async () => {
    const graph = await seed(api(), chain);
    await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    const { strengthen } = await change(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.1) { newWeight pruned } }',
    );
    expect(strengthen).toEqual({ newWeight: 0.1, pruned: false });
    expect((await api().gql('{ path(from: "chain-a", to: "chain-e") { found } }')).data?.path.found).toBe(true);
  });

  it('fails with NOT_FOUND on a missing edge and never creates it', async () => {
    await seed(api(), chain);
    const error = await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "chain-a", to: "chain-c", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
    );
    expect(error.message).toMatch(/No CAUSED_BY edge from "chain-a" to "chain-c"/);
    expect((await api().gql('{ edgesBetween(from: "chain-a", to: "chain-c") { id } }')).data?.edgesBetween).toEqual([]);
  });

  it('fails with NOT_FOUND naming from or to when a memory is missing, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "ghost", to: "chain-b", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      'from: no memory "ghost" in this workspace',
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { weaken(from: "chain-a", to: "ghost", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      'to: no memory "ghost" in this workspace',
    );
  });
});

describe('strengthen', () => {
  it('raises the weight by the CONSCIOUS step 0.01 by default', async () => {
    await seed(api(), chain);
    const { strengthen } = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { previousWeight newWeight event { source delta } } }',
    );
    expect(strengthen).toEqual({ previousWeight: 0.5, newWeight: 0.51, event: { source: 'CONSCIOUS', delta: 0.01 } });
  });

  it('uses the AGENT step 0.00001 and the MANUAL step 0.1 for those sources', async () => {
    await seed(api(), chain);
    const agent = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", source: AGENT) { newWeight event { source delta } } }',
    );
    expect(agent.strengthen).toEqual({ newWeight: 0.50001, event: { source: 'AGENT', delta: 0.00001 } });
    const manual = await change(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", source: MANUAL) { newWeight event { source } } }',
    );
    expect(manual.strengthen).toEqual({ newWeight: 0.7, event: { source: 'MANUAL' } });
  });

  it('uses an explicit amount whatever the source, and clamps at 1', async () => {
    await seed(api(), chain);
    const explicit = await change(
      'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CAUSED_BY", amount: 0.25, source: AGENT) { newWeight } }',
    );
    expect(explicit.strengthen.newWeight).toBe(0.75);
    const clamped = await change(
      'mutation { strengthen(from: "chain-d", to: "chain-e", type: "CAUSED_BY", amount: 0.5) { previousWeight newWeight event { delta } } }',
    );
    expect(clamped.strengthen).toEqual({ previousWeight: 0.8, newWeight: 1, event: { delta: 0.2 } });
  });

  it('fails with NOT_FOUND on a missing edge and never creates it', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { strengthen(from: "chain-b", to: "chain-a", type: "CAUSED_BY") { newWeight } }' },
      'NOT_FOUND',
      /use link to create it/,
    );
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { strengthen(from: "chain-a", to: "chain-b", type: "CITES") { newWeight } }' },
      'NOT_FOUND',
    );
  });
});

describe('setEdgeWeight', () => {
  it('sets the weight directly as a MANUAL event', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('c', 'd').id;
    const { setEdgeWeight } = await change(
      `mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.42, reason: "curated") { ${CHANGE_FIELDS} } }`,
      { id },
    );
    expect(setEdgeWeight).toMatchObject({
      previousWeight: 0.7,
      newWeight: 0.42,
      pruned: false,
      edge: { id, weight: 0.42 },
      event: { source: 'MANUAL', old: 0.7, new: 0.42, delta: -0.28, reason: 'curated' },
    });
  });

  it('accepts the bounds 0 and 1, pruning at 0', async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('c', 'd').id;
    expect(
      (await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0) { newWeight pruned } }', { id }))
        .setEdgeWeight,
    ).toEqual({ newWeight: 0, pruned: true });
    expect(
      (await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 1) { newWeight pruned } }', { id }))
        .setEdgeWeight,
    ).toEqual({ newWeight: 1, pruned: false });
  });

  it('fails with NOT_FOUND on a missing edge, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { setEdgeWeight(id: "no-such-edge", weight: 0.5) { newWeight } }' },
      'NOT_FOUND',
      /no-such-edge/,
    );
  });
});

describe('feedback', () => {
  it('USED without via strengthens the memory and all its unpruned edges by the tier step', async () => {
    const graph = await seed(api(), star);
    const { feedback } = await change(
      `mutation { feedback(memoryId: "star-hub", signal: USED, reason: "answered the question") { ${CHANGE_FIELDS} } }`,
      undefined,
      6,
    );
    const changes = feedback as {
      memory: { id: string } | null;
      edge: { id: string } | null;
      previousWeight: number;
      newWeight: number;
      event: { reason: string; source: string };
    }[];
    expect(changes).toHaveLength(6);
    expect(changes.filter((entry) => entry.memory !== null)).toEqual([
      expect.objectContaining({
        memory: { id: graph.id('hub'), weight: 0.51 },
        edge: null,
        previousWeight: 0.5,
        newWeight: 0.51,
      }),
    ]);
    const edgeIds = changes.flatMap((entry) => (entry.edge ? [entry.edge.id] : []));
    expect(edgeIds.sort()).toEqual(
      [
        graph.edge('hub', 's1'),
        graph.edge('hub', 's2'),
        graph.edge('hub', 's3'),
        graph.edge('hub', 's4'),
        graph.edge('s6', 'hub'),
      ]
        .map((edge) => edge.id)
        .sort(),
    );
    for (const entry of changes) {
      expect(entry.newWeight).toBeCloseTo(entry.previousWeight + 0.01, 12);
      expect(entry.event).toMatchObject({ reason: 'answered the question', source: 'CONSCIOUS' });
    }
    expect(await edgeWeight(graph.edge('hub', 's5').id)).toBe(0.03);
  });

  it('USED with via strengthens the memory and only the named edges', async () => {
    const graph = await seed(api(), chain);
    const via = [graph.edge('a', 'b').id];
    const { feedback } = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: USED, via: $via) { edge { id } memory { key } newWeight } }',
      { via },
      2,
    );
    expect(feedback).toEqual([
      { edge: null, memory: { key: 'chain-b' }, newWeight: 0.51 },
      { edge: { id: graph.edge('a', 'b').id }, memory: null, newWeight: 0.51 },
    ]);
    expect(await edgeWeight(graph.edge('b', 'c').id)).toBe(0.6);
  });

  it('NOT_RELEVANT without via weakens every edge touching the memory, not the memory', async () => {
    const graph = await seed(api(), chain);
    const { feedback } = await change(
      'mutation { feedback(memoryId: "chain-b", signal: NOT_RELEVANT) { edge { id weight } memory { id } } }',
      undefined,
      2,
    );
    expect(feedback).toHaveLength(2);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.49);
    expect(await edgeWeight(graph.edge('b', 'c').id)).toBe(0.59);
    expect(await memoryWeight('chain-b')).toBe(0.5);
  });

  it('NOT_RELEVANT with via weakens only the named edges', async () => {
    const graph = await seed(api(), chain);
    const { feedback } = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: NOT_RELEVANT, via: $via, source: AGENT) { newWeight event { source delta } } }',
      {
        via: [graph.edge('b', 'c').id],
      },
    );
    expect(feedback).toEqual([{ newWeight: 0.59999, event: { source: 'AGENT', delta: -0.00001 } }]);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.5);
  });

  it('NOT_USEFUL weakens only the memory, with or without via', async () => {
    const graph = await seed(api(), chain);
    const without = await change(
      'mutation { feedback(memoryId: "chain-b", signal: NOT_USEFUL) { memory { key weight } edge { id } event { delta } } }',
    );
    expect(without.feedback).toEqual([
      { memory: { key: 'chain-b', weight: 0.49 }, edge: null, event: { delta: -0.01 } },
    ]);
    const withVia = await change(
      'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: NOT_USEFUL, via: $via) { newWeight } }',
      { via: [graph.edge('a', 'b').id] },
    );
    expect(withVia.feedback).toEqual([{ newWeight: 0.48 }]);
    expect(await edgeWeight(graph.edge('a', 'b').id)).toBe(0.5);
  });

  it('fails with NOT_FOUND naming via when an edge of via is missing, and writes nothing', async () => {
    const graph = await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      {
        query: 'mutation($via: [ID!]) { feedback(memoryId: "chain-b", signal: USED, via: $via) { newWeight } }',
        variables: { via: [graph.edge('a', 'b').id, 'ghost-edge'] },
      },
      'NOT_FOUND',
      'via: no edge "ghost-edge" in this workspace',
    );
  });

  it('fails with NOT_FOUND naming memoryId for a missing memory, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { feedback(memoryId: "ghost", signal: USED) { newWeight } }' },
      'NOT_FOUND',
      'memoryId: no memory "ghost" in this workspace',
    );
  });
});

describe('revertWeightEvent', () => {
  it('restores the old weight with a new MANUAL event and marks the reverted one', async () => {
    const graph = await seed(api(), chain);
    const edge = graph.edge('a', 'b');
    const { weaken } = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { event { id } } }',
    );
    const eventId = weaken.event.id as string;
    const { revertWeightEvent } = await change(
      `mutation($id: ID!) { revertWeightEvent(id: $id) { ${CHANGE_FIELDS} } }`,
      { id: eventId },
    );
    expect(revertWeightEvent).toMatchObject({
      previousWeight: 0.2,
      newWeight: 0.5,
      edge: { id: edge.id, weight: 0.5 },
      event: { source: 'MANUAL', old: 0.2, new: 0.5, delta: 0.3, reason: `revert of ${eventId}`, revertedBy: null },
    });
    const history = await api().gql('query($id: ID!) { edge(id: $id) { history { id revertedBy } } }', { id: edge.id });
    expect(history.data?.edge.history).toEqual([
      { id: revertWeightEvent.event.id, revertedBy: null },
      { id: eventId, revertedBy: revertWeightEvent.event.id },
    ]);
  });

  it('restores a memory weight changed by feedback', async () => {
    await seed(api(), chain);
    const { feedback } = await change(
      'mutation { feedback(memoryId: "chain-c", signal: NOT_USEFUL) { event { id } } }',
    );
    const { revertWeightEvent } = await change(
      'mutation($id: ID!) { revertWeightEvent(id: $id) { memory { key weight } edge { id } } }',
      { id: feedback[0].event.id },
    );
    expect(revertWeightEvent).toEqual({ memory: { key: 'chain-c', weight: 0.5 }, edge: null });
  });

  it('fails with CONFLICT on a second revert, and writes nothing', async () => {
    await seed(api(), chain);
    const { weaken } = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { event { id } } }',
    );
    await change('mutation($id: ID!) { revertWeightEvent(id: $id) { newWeight } }', { id: weaken.event.id });
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation($id: ID!) { revertWeightEvent(id: $id) { newWeight } }', variables: { id: weaken.event.id } },
      'CONFLICT',
      /already reverted/,
    );
  });

  it('fails with NOT_FOUND for a missing event, and writes nothing', async () => {
    await seed(api(), chain);
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation { revertWeightEvent(id: "no-such-event") { newWeight } }' },
      'NOT_FOUND',
      'id: no weight event "no-such-event" in this workspace',
    );
  });

  it('fails with NOT_FOUND when the edge of the event is gone, and writes nothing', async () => {
    const graph = await seed(api(), chain);
    const { weaken } = await change(
      'mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { event { id } } }',
    );
    await api().gql('mutation($id: ID) { unlink(input: { id: $id }) { removed } }', { id: graph.edge('a', 'b').id });
    await expectRejectedWithoutWrites(
      api(),
      { query: 'mutation($id: ID!) { revertWeightEvent(id: $id) { newWeight } }', variables: { id: weaken.event.id } },
      'NOT_FOUND',
    );
  });
});

describe('weightEvents', () => {
  /** Four events: weaken a->b (CONSCIOUS), strengthen b->c (AGENT), NOT_USEFUL on chain-c (CONSCIOUS), setEdgeWeight a->b (MANUAL). */
  async function history() {
    const graph = await seed(api(), chain);
    await change('mutation { weaken(from: "chain-a", to: "chain-b", type: "CAUSED_BY") { newWeight } }');
    await change(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", source: AGENT) { newWeight } }',
    );
    await change('mutation { feedback(memoryId: "chain-c", signal: NOT_USEFUL) { newWeight } }');
    await change('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.9) { newWeight } }', {
      id: graph.edge('a', 'b').id,
    });
    return graph;
  }

  it('lists every event, newest first', async () => {
    await history();
    const { data } = await api().gql('{ weightEvents { source new at } }');
    expect(data?.weightEvents.map((event: { source: string; new: number }) => [event.source, event.new])).toEqual([
      ['MANUAL', 0.9],
      ['CONSCIOUS', 0.49],
      ['AGENT', 0.60001],
      ['CONSCIOUS', 0.2],
    ]);
    const times = data?.weightEvents.map((event: { at: string }) => event.at) as string[];
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by edge, by memory (id or key), and by source, and keeps the newest `limit`', async () => {
    const graph = await history();
    const ask = async (args: string, variables?: Record<string, unknown>) =>
      (
        await api().gql(
          `query${args.includes('$e') ? '($e: ID)' : ''} { weightEvents(${args}) { source new edge { id } memory { key } } }`,
          variables,
        )
      ).data?.weightEvents;
    expect(await ask('edgeId: $e', { e: graph.edge('a', 'b').id })).toEqual([
      { source: 'MANUAL', new: 0.9, edge: { id: graph.edge('a', 'b').id }, memory: null },
      { source: 'CONSCIOUS', new: 0.2, edge: { id: graph.edge('a', 'b').id }, memory: null },
    ]);
    expect(await ask('memoryId: "chain-c"')).toEqual([
      { source: 'CONSCIOUS', new: 0.49, edge: null, memory: { key: 'chain-c' } },
    ]);
    expect(await ask('memoryId: $e', { e: graph.id('c') })).toHaveLength(1);
    expect((await ask('source: AGENT')).map((event: { new: number }) => event.new)).toEqual([0.60001]);
    expect((await ask('source: CONSCIOUS, limit: 1')).map((event: { new: number }) => event.new)).toEqual([0.49]);
    expect(await ask('edgeId: $e, source: AGENT', { e: graph.edge('a', 'b').id })).toEqual([]);
  });

  it('returns 50 events by default', async () => {
    const graph = await seed(api(), chain);
    const sets = Array.from({ length: 52 }, (_, index) => setWeight(graph.edge('a', 'b').id, index / 100));
    await api().store.applyWeightChanges(DEFAULT_WS, sets, BOUNDS, nowIso());
    const { data } = await api().gql('{ weightEvents { new } }');
    expect(data?.weightEvents).toHaveLength(50);
    expect(data?.weightEvents[0]).toEqual({ new: 0.51 });
  });

  it('fails with NOT_FOUND naming memoryId for a missing memory', async () => {
    await history();
    const { errors } = await api().gql('{ weightEvents(memoryId: "ghost") { id } }');
    expect(errors?.[0]).toMatchObject({
      message: 'memoryId: no memory "ghost" in this workspace',
      extensions: { code: 'NOT_FOUND' },
    });
  });
});

describe('Edge.history', () => {
  it("lists the edge's own events newest first, 20 by default, fewer with limit", async () => {
    const graph = await seed(api(), chain);
    const id = graph.edge('a', 'b').id;
    const steps = Array.from(
      { length: 22 },
      (): WeightChangeRequest => ({ ...setWeight(id, 0), operation: { kind: 'delta', delta: 0.01 } }),
    );
    await api().store.applyWeightChanges(DEFAULT_WS, steps, BOUNDS, nowIso());
    await api().gql('mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY") { newWeight } }');
    const { data } = await api().gql(
      'query($id: ID!) { edge(id: $id) { all: history { new edge { id } } two: history(limit: 2) { new } } }',
      { id },
    );
    expect(data?.edge.all).toHaveLength(20);
    expect(data?.edge.all[0]).toEqual({ new: 0.72, edge: { id } });
    expect(data?.edge.all.every((event: { edge: { id: string } }) => event.edge.id === id)).toBe(true);
    expect(data?.edge.two).toEqual([{ new: 0.72 }, { new: 0.71 }]);
  });

  it('is empty for an edge whose weight never changed', async () => {
    const graph = await seed(api(), chain);
    const { data } = await api().gql('query($id: ID!) { edge(id: $id) { history { id } } }', {
      id: graph.edge('a', 'b').id,
    });
    expect(data?.edge.history).toEqual([]);
  });
});
