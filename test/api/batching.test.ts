import { describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/domain/ids.js';
import type { NewMemory } from '../../src/domain/types.js';
import type { GraphStore, ImportEdge } from '../../src/store/port.js';
import { chain } from '../fixtures/graphs.js';
import { countingStore, type TestApp } from '../helpers/app.js';
import { DEFAULT_WS, seed, useCountingApp, useTestApp, withoutShortestPath } from './support.js';

const { api, calls, reset } = useCountingApp();

const newMemory = (key: string): NewMemory => ({
  id: newId(),
  key,
  title: `Memory ${key}`,
  content: null,
  kind: null,
  tags: [],
  weight: 0.5,
  metadata: null,
});

const newEdge = (fromId: string, toId: string): ImportEdge => ({
  id: newId(),
  fromId,
  toId,
  type: 'RELATED_TO',
  weight: 0.5,
  metadata: null,
});

/**
 * `count` memories m0..m(count-1), each linked to two others (m(i) -> m(i+1), m(i) -> m(i+2), wrapping
 * round), and every edge with one weight event. Seeded through the port in two transactions, then
 * the counters reset.
 */
async function seedRing(app: TestApp, count: number): Promise<{ memoryIds: string[]; edgeIds: string[] }> {
  const memories = Array.from({ length: count }, (_, index) => newMemory(`m${index}`));
  const memoryIds = memories.map((memory) => memory.id);
  const edges = memoryIds.flatMap((id, index) =>
    [1, 2].map((step) => newEdge(id, memoryIds[(index + step) % count] as string)),
  );
  await app.store.importBatch(DEFAULT_WS, { memories, edges }, nowIso());
  const edgeIds = edges.map((edge) => edge.id);
  await app.store.applyWeightChanges(
    DEFAULT_WS,
    edgeIds.map((id) => ({
      eventId: newId(),
      target: { kind: 'edge', id },
      operation: { kind: 'delta', delta: 0.1 },
      source: 'AGENT',
      reason: null,
    })),
    { floor: 0, ceiling: 1 },
    nowIso(),
  );
  reset();
  return { memoryIds, edgeIds };
}

/** `count` separate chains of `length` memories each, so every level of a walk from the heads meets new memories. */
async function seedChains(app: TestApp, count: number, length: number): Promise<string[]> {
  const chains = Array.from({ length: count }, (_, chainIndex) =>
    Array.from({ length }, (_, position) => newMemory(`c${chainIndex}-${position}`)),
  );
  const edges = chains.flatMap((members) =>
    members.slice(1).map((memory, index) => newEdge((members[index] as NewMemory).id, memory.id)),
  );
  await app.store.importBatch(DEFAULT_WS, { memories: chains.flat(), edges }, nowIso());
  reset();
  return chains.map((members) => (members[0] as NewMemory).id);
}

/** Port calls made so far, without zero entries, by method name. */
const snapshot = (): Record<string, number> => Object.fromEntries([...calls()].sort(([a], [b]) => a.localeCompare(b)));

async function run(query: string, variables?: Record<string, unknown>) {
  reset();
  const response = await api().gql(query, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return { data: response.data as Record<string, any>, calls: snapshot() };
}

const NEIGHBORS_QUERY =
  'query($ids: [ID!]!) { memories(ids: $ids) { neighbors { memory { title } edge { weight } } } }';

describe('DataLoader batching', () => {
  it('answers the neighbors of 50 memories with 1 getMemoriesWithAdjacent', async () => {
    const { memoryIds } = await seedRing(api(), 50);
    const { data, calls: counted } = await run(NEIGHBORS_QUERY, { ids: memoryIds });
    expect(data.memories).toHaveLength(50);
    for (const memory of data.memories) expect(memory.neighbors).toHaveLength(4);
    expect(counted).toEqual({ getMemoriesWithAdjacent: 1 });
  });

  it('reads neighbors asked through a fragment ahead too, and gives the answer the field reads alone', async () => {
    const { memoryIds } = await seedRing(api(), 10);
    const variables = { id: memoryIds[3] };
    const ahead = await run(
      'query($id: ID) { memory(id: $id) { ...Near } } fragment Near on Memory { ... on Memory { neighbors(limit: 3, types: ["related_to"], minWeight: 0.1) { memory { id title } edge { id weight } direction } } }',
      variables,
    );
    expect(ahead.calls).toEqual({ getMemoriesWithAdjacent: 1 });
    // A directive on the field turns the look-ahead off: the field reads its own neighbours.
    const alone = await run(
      'query($id: ID) { memory(id: $id) { neighbors(limit: 3, types: ["related_to"], minWeight: 0.1) @include(if: true) { memory { id title } edge { id weight } direction } } }',
      variables,
    );
    expect(alone.calls).toEqual({ getMemories: 1, getAdjacent: 1 });
    expect(ahead.data.memory.neighbors).toHaveLength(3);
    expect(ahead.data).toEqual(alone.data);
  });

  it('reads nothing ahead for neighbors arguments the field refuses', async () => {
    const { memoryIds } = await seedRing(api(), 5);
    const response = await api().gql(
      'query($id: ID) { memory(id: $id) { title neighbors(limit: 1000) { edge { id } } } }',
      {
        id: memoryIds[0],
      },
    );
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(snapshot()).toEqual({ getMemories: 1 });
  });

  it('costs the same store calls for 1 and 10 memories, and one more where the answer could outgrow a call', async () => {
    const { memoryIds } = await seedRing(api(), 100);
    for (const size of [1, 10]) {
      const { calls: counted } = await run(NEIGHBORS_QUERY, { ids: memoryIds.slice(0, size) });
      expect(counted, `${size} memories`).toEqual({ getMemoriesWithAdjacent: 1 });
    }
    // 100 memories x 20 neighbours could exceed ENGRAM_ROWS_PER_CALL (1,000): the memories, then
    // their edges in bounded parts (here one, as the ring has 400).
    const { calls: counted } = await run(NEIGHBORS_QUERY, { ids: memoryIds });
    expect(counted).toEqual({ getAdjacent: 1, getMemories: 1 });
  });

  it('costs one more getAdjacent per level of nested neighbors', async () => {
    const heads = await seedChains(api(), 30, 4);
    const one = await run(
      'query($ids: [ID!]!) { memories(ids: $ids) { neighbors(direction: OUTGOING) { memory { title } } } }',
      { ids: heads },
    );
    expect(one.calls).toEqual({ getMemoriesWithAdjacent: 1 });
    // Small limits keep 30 memories' neighbors of neighbors under ENGRAM_MAX_COST (it counts list fan-out).
    const two = await run(
      'query($ids: [ID!]!) { memories(ids: $ids) { neighbors(direction: OUTGOING, limit: 3) { memory { neighbors(direction: OUTGOING, limit: 3) { memory { title } } } } } }',
      { ids: heads },
    );
    expect(two.data.memories[29].neighbors[0].memory.neighbors[0].memory.title).toBe('Memory c29-2');
    expect(two.calls).toEqual({ getMemoriesWithAdjacent: 1, getAdjacent: 1 });
    const three = await run(
      'query($ids: [ID!]!) { memories(ids: $ids) { neighbors(limit: 3) { memory { neighbors(limit: 3) { memory { neighbors(limit: 3) { memory { title } } } } } } } }',
      { ids: heads },
    );
    expect(three.calls).toEqual({ getMemoriesWithAdjacent: 1, getAdjacent: 2 });
  });

  it('shares one getAdjacent between memories asking the same question, and uses one per distinct question', async () => {
    const { memoryIds } = await seedRing(api(), 20);
    const { calls: counted } = await run(
      'query($ids: [ID!]!) { memories(ids: $ids) { a: neighbors { edge { id } } b: neighbors { edge { id } } out: neighbors(direction: OUTGOING) { edge { id } } } }',
      { ids: memoryIds },
    );
    expect(counted).toEqual({ getMemoriesWithAdjacent: 1, getAdjacent: 1 });
  });

  it('counts the degree of N memories with 1 countAdjacent', async () => {
    const { memoryIds } = await seedRing(api(), 40);
    const { data, calls: counted } = await run('query($ids: [ID!]!) { memories(ids: $ids) { degree } }', {
      ids: memoryIds,
    });
    expect(data.memories.every((memory: { degree: number }) => memory.degree === 4)).toBe(true);
    expect(counted).toEqual({ countAdjacent: 1, getMemories: 1 });
  });

  it('reads the history of N edges with 1 getEdgeHistories', async () => {
    const { memoryIds } = await seedRing(api(), 25);
    const { data, calls: counted } = await run(
      'query($ids: [ID!]!) { memories(ids: $ids) { neighbors { edge { history { delta source } } } } }',
      { ids: memoryIds },
    );
    expect(data.memories[0].neighbors[0].edge.history).toEqual([{ delta: 0.1, source: 'AGENT' }]);
    expect(counted).toEqual({ getEdgeHistories: 1, getMemoriesWithAdjacent: 1 });
  });

  it('reads the edges of N weight events with 1 getEdges', async () => {
    const { edgeIds } = await seedRing(api(), 20);
    const { data, calls: counted } = await run('{ weightEvents(limit: 40) { edge { id from { key } } } }');
    expect(new Set(data.weightEvents.map((event: { edge: { id: string } }) => event.edge.id))).toEqual(
      new Set(edgeIds),
    );
    expect(counted).toEqual({ getEdges: 1, getMemories: 1, listWeightEvents: 1 });
  });

  it('finds a path with one shortestPath call when the store offers it, else one expandFrontier per level', async () => {
    await seed(api(), chain);
    const found = await run(
      '{ path(from: "chain-a", to: "chain-e") { hops steps { memory { title } edgeToNext { weight } } } }',
    );
    expect(found.data.path.hops).toBe(4);
    // SQLite's adjacency index answers in one call; Neo4j (npm run test:neo4j) has no one-call search.
    const offered = typeof api().store.shortestPath === 'function';
    expect(found.calls.shortestPath).toBe(offered ? 1 : undefined);
    expect(found.calls.expandFrontier ?? 0).toBe(offered ? 0 : 4);
  });

  it('traverses with one expandFrontier per depth level', async () => {
    await seed(api(), chain);
    const walked = await run(
      '{ memory(key: "chain-a") { traverse(maxDepth: 3) { memory { title } via { weight } } } }',
    );
    expect(walked.data.memory.traverse).toHaveLength(3);
    expect(walked.calls.expandFrontier).toBe(3);
  });

  it('never shares a cache between requests', async () => {
    const { memoryIds } = await seedRing(api(), 5);
    const query = 'query($id: ID) { memory(id: $id) { title } }';
    await run(query, { id: memoryIds[0] });
    const second = await run(query, { id: memoryIds[0] });
    expect(second.calls).toEqual({ getMemories: 1 });
    await api().gql('mutation($id: ID!) { updateMemory(id: $id, input: { title: "Renamed" }) { id } }', {
      id: memoryIds[0],
    });
    expect((await run(query, { id: memoryIds[0] })).data.memory.title).toBe('Renamed');
  });
});

describe('DataLoader batching, level-by-level path search', () => {
  let counter: ReturnType<typeof countingStore> | undefined;
  /** Without the store's one-call shortestPath, so path runs the bidirectional BFS of services/walks.ts. */
  const bfs = useTestApp({
    wrapStore: (store: GraphStore) => {
      counter = countingStore(withoutShortestPath(store));
      return counter.store;
    },
  });

  async function expansions(query: string): Promise<{ data: Record<string, any>; expandFrontier: number }> {
    counter?.reset();
    const response = await bfs().gql(query);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return { data: response.data as Record<string, any>, expandFrontier: counter?.calls.get('expandFrontier') ?? 0 };
  }

  it('expands the frontier with one expandFrontier per BFS level', async () => {
    await seed(bfs(), chain);
    const found = await expansions(
      '{ path(from: "chain-a", to: "chain-e") { hops steps { memory { title } edgeToNext { weight } } } }',
    );
    expect(found.data.path.hops).toBe(4);
    expect(found.expandFrontier).toBe(4);
    expect((await expansions('{ path(from: "chain-a", to: "chain-c") { hops } }')).expandFrontier).toBe(2);
    const missed = await expansions('{ path(from: "chain-a", to: "chain-e", maxHops: 2) { found } }');
    expect(missed.data.path.found).toBe(false);
    expect(missed.expandFrontier).toBe(2);
    expect((await expansions('{ path(from: "chain-a", to: "chain-a") { hops } }')).expandFrontier).toBe(0);
  });
});
