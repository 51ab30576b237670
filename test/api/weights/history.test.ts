import { describe, expect, it, vi } from 'vitest';
import { nowIso } from '../../../src/domain/ids.js';
import type { WeightChangeRequest } from '../../../src/domain/weights.js';
import { chain } from '../../fixtures/graphs.js';
import { DEFAULT_WS, expectRejectedWithoutWrites, seed } from '../support.js';
import { BOUNDS, CHANGE_FIELDS, setWeight, useWeightApp } from './support.js';

const { api, change } = useWeightApp();

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

  it('answers an edge and a memory together with nothing, without asking the store', async () => {
    const graph = await history();
    const listed = vi.spyOn(api().store, 'listWeightEvents');
    const { data } = await api().gql(
      `query($e: ID) {
        weightEvents(edgeId: $e, memoryId: "chain-c") { id }
        weightEventsConnection(edgeId: $e, memoryId: "chain-c") { edges { node { id } } pageInfo { hasNextPage } }
      }`,
      { e: graph.edge('a', 'b').id },
    );
    expect(data).toEqual({
      weightEvents: [],
      weightEventsConnection: { edges: [], pageInfo: { hasNextPage: false } },
    });
    expect(listed).not.toHaveBeenCalled();
    // Each filter alone still reads its events.
    expect((await api().gql('{ weightEvents(memoryId: "chain-c") { id } }')).data?.weightEvents).toHaveLength(1);
    expect(listed).toHaveBeenCalledTimes(1);
    listed.mockRestore();
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
