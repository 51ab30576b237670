import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AdjacencyQuery,
  DegreeQuery,
  FrontierQuery,
  GraphStore,
  LinkRequest,
  SearchQuery,
  WeightEventFilter,
} from '../../src/store/port.js';
import type { AdjustmentSource, Json, NewMemory, WeightEventRecord } from '../../src/domain/types.js';
import type { WeightChangeRequest, WeightOperation } from '../../src/domain/weights.js';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import { EngramError, type ErrorCode } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import {
  chain,
  cycle,
  disconnected,
  library,
  parallel,
  seedGraph,
  star,
  type SeededGraph,
} from '../fixtures/graphs.js';

/** What the backend holds, read directly (not through the port), so the suite can check what was stored. */
export interface StoreInspector {
  countRows(kind: 'memories' | 'edges' | 'weight_events', workspace: string): Promise<number>;
  rawMemory(workspace: string, id: string): Promise<RawMemory | null>;
  rawEdge(workspace: string, id: string): Promise<RawEdge | null>;
  /** Every edge of the workspace, ordered by id. */
  rawEdges(workspace: string): Promise<RawEdge[]>;
  /** Every weight event of the workspace, ordered by id. */
  rawWeightEvents(workspace: string): Promise<RawWeightEvent[]>;
}

export interface RawMemory {
  id: string;
  key: string | null;
  title: string;
  content: string | null;
  weight: number;
}

export interface RawEdge {
  id: string;
  fromId: string;
  toId: string;
  type: string;
  weight: number;
  metadata: Json | null;
  lastConfirmedAt: string | null;
}

export interface RawWeightEvent {
  id: string;
  edgeId: string | null;
  memoryId: string | null;
  source: string;
  old: number;
  new: number;
  delta: number;
  reason: string | null;
  revertedBy: string | null;
}

export interface StoreUnderTest {
  store: GraphStore;
  inspect: StoreInspector;
  cleanup(): Promise<void>;
}

export interface GraphStoreHarness {
  /** A fresh, empty, migrated store and an inspector reading the same backend. */
  create(): Promise<StoreUnderTest>;
}

const WS = 'ws-a';
const OTHER = 'ws-b';
// Later than the wall-clock times seedGraph uses, so what a test writes at T1..T4 is the newest.
const T0 = '2099-01-01T00:00:00.000Z';
const T1 = '2099-01-01T00:00:01.000Z';
const T2 = '2099-01-01T00:00:02.000Z';
const T3 = '2099-01-01T00:00:03.000Z';
const T4 = '2099-01-01T00:00:04.000Z';
const POLICY = DEFAULT_WEIGHT_POLICY;
const THRESHOLD = POLICY.pruneThreshold;
const BOUNDS = { floor: POLICY.floor, ceiling: POLICY.ceiling };

const adjacency = (query: Partial<AdjacencyQuery> = {}): AdjacencyQuery => ({
  direction: 'BOTH',
  types: null,
  minWeight: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  limitPerMemory: null,
  ...query,
});

const degree = (query: Partial<DegreeQuery> = {}): DegreeQuery => ({
  direction: 'BOTH',
  types: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  ...query,
});

const frontier = (query: Partial<FrontierQuery> = {}): FrontierQuery => ({
  direction: 'BOTH',
  types: null,
  pruneThreshold: THRESHOLD,
  budget: 100,
  ...query,
});

const search = (text: string, query: Partial<Omit<SearchQuery, 'text'>> = {}): SearchQuery => ({
  text,
  kinds: null,
  tags: null,
  limit: 20,
  ...query,
});

const eventFilter = (filter: Partial<WeightEventFilter> = {}): WeightEventFilter => ({
  edgeId: null,
  memoryId: null,
  source: null,
  limit: 50,
  ...filter,
});

const newMemory = (fields: Partial<NewMemory> = {}): NewMemory => ({
  id: newId(),
  key: null,
  title: 'A memory',
  content: null,
  kind: null,
  tags: [],
  weight: POLICY.defaultMemoryWeight,
  metadata: null,
  ...fields,
});

const linkRequest = (fromId: string, toId: string, type: string, fields: Partial<LinkRequest> = {}): LinkRequest => ({
  id: newId(),
  fromId,
  toId,
  type,
  weight: null,
  defaultWeight: POLICY.defaultEdgeWeight,
  metadata: null,
  reason: null,
  eventId: newId(),
  ...fields,
});

const edgeChange = (
  id: string,
  operation: WeightOperation,
  fields: Partial<Omit<WeightChangeRequest, 'target' | 'operation'>> = {},
): WeightChangeRequest => ({
  eventId: newId(),
  target: { kind: 'edge', id },
  operation,
  source: 'CONSCIOUS',
  reason: null,
  ...fields,
});

const memoryChange = (
  id: string,
  operation: WeightOperation,
  fields: Partial<Omit<WeightChangeRequest, 'target' | 'operation'>> = {},
): WeightChangeRequest => ({ ...edgeChange(id, operation, fields), target: { kind: 'memory', id } });

const delta = (value: number): WeightOperation => ({ kind: 'delta', delta: value });
const set = (value: number): WeightOperation => ({ kind: 'set', value });

const byId = <T extends { id: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const sortedIds = (ids: readonly string[]): string[] => [...ids].sort();

/** Resolves to the error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(EngramError);
  expect((error as EngramError).code).toBe(code);
}

/**
 * Registers the shared GraphStore contract: every backend's test file calls this with a harness that
 * makes a fresh store and an inspector over the same backend.
 */
export function runGraphStoreContract(name: string, harness: GraphStoreHarness): void {
  describe(`GraphStore contract: ${name}`, () => {
    let store: GraphStore;
    let inspect: StoreInspector;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, inspect, cleanup } = await harness.create());
    });

    afterEach(async () => {
      await cleanup();
    });

    const seed = (fixture: Parameters<typeof seedGraph>[2], workspace = WS): Promise<SeededGraph> =>
      seedGraph(store, workspace, fixture);

    const createMemory = (fields: Partial<NewMemory> = {}, workspace = WS, now = T0) =>
      store.createMemory(workspace, newMemory(fields), now);

    const link = (
      fromId: string,
      toId: string,
      type: string,
      fields: Partial<LinkRequest> = {},
      workspace = WS,
      now = T0,
    ) => store.linkEdge(workspace, linkRequest(fromId, toId, type, fields), now);

    const weightOf = async (workspace: string, edgeId: string): Promise<number | undefined> =>
      (await inspect.rawEdge(workspace, edgeId))?.weight;

    // ---------------------------------------------------------------------------------------------
    describe('ping and close', () => {
      it('describes itself with a non-empty label', () => {
        expect(typeof store.description).toBe('string');
        expect(store.description.length).toBeGreaterThan(0);
      });

      it('answers ping while open', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });

      it('closes idempotently', async () => {
        await store.close();
        await expect(store.close()).resolves.toBeUndefined();
      });

      it('rejects ping with UNAVAILABLE once closed', async () => {
        await store.close();
        await expectCode(store.ping(), 'UNAVAILABLE');
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('getMemories', () => {
      it('returns every field as it was created', async () => {
        const input = newMemory({
          key: 'postgres-choice',
          title: 'Postgres as the primary store',
          content: 'Chosen for transactions.',
          kind: 'decision',
          tags: ['database', 'architecture', 'adr'],
          weight: 0.75,
          metadata: { source: 'meeting', votes: 3, nested: { ok: true, list: [1, 'two', null] } },
        });
        await store.createMemory(WS, input, T1);
        const [found] = await store.getMemories(WS, [input.id]);
        expect(found).toEqual({ ...input, createdAt: T1, updatedAt: T1 });
      });

      it('answers in key order with null for missing references, repeating duplicates', async () => {
        const g = await seed(chain);
        const missing = newId();
        const result = await store.getMemories(WS, [g.id('c'), missing, g.id('a'), g.id('c')]);
        expect(result.map((memory) => memory?.id ?? null)).toEqual([g.id('c'), null, g.id('a'), g.id('c')]);
      });

      it('returns an empty list for no references', async () => {
        await seed(chain);
        expect(await store.getMemories(WS, [])).toEqual([]);
      });

      it('resolves a reference by key', async () => {
        const g = await seed(chain);
        const result = await store.getMemories(WS, ['chain-b', g.id('d'), 'no-such-key']);
        expect(result.map((memory) => memory?.id ?? null)).toEqual([g.id('b'), g.id('d'), null]);
      });

      it('prefers the memory whose id matches over the one whose key matches', async () => {
        const byIdMemory = await createMemory({ title: 'Matched by id' });
        const byKeyMemory = await createMemory({ title: 'Matched by key', key: byIdMemory.id });
        const [found] = await store.getMemories(WS, [byIdMemory.id]);
        expect(found?.id).toBe(byIdMemory.id);
        expect(byKeyMemory.key).toBe(byIdMemory.id);
      });

      it('falls back to the key when no id matches, even when the key looks like an id', async () => {
        const key = newId();
        const memory = await createMemory({ key });
        const [found] = await store.getMemories(WS, [key]);
        expect(found?.id).toBe(memory.id);
      });

      it('keeps the memories of another workspace invisible, by id and by key', async () => {
        const g = await seed(chain, OTHER);
        const result = await store.getMemories(WS, [g.id('a'), 'chain-a']);
        expect(result).toEqual([null, null]);
        expect((await store.getMemories(OTHER, [g.id('a')]))[0]?.id).toBe(g.id('a'));
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('getEdges', () => {
      it('returns every field as it was created', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const request = linkRequest(a.id, b.id, 'CITES', { weight: 0.65, metadata: { page: 12, quote: 'it "works"' } });
        await store.linkEdge(WS, request, T1);
        const [edge] = await store.getEdges(WS, [request.id]);
        expect(edge).toMatchObject({
          id: request.id,
          fromId: a.id,
          toId: b.id,
          type: 'CITES',
          weight: 0.65,
          metadata: { page: 12, quote: 'it "works"' },
          createdAt: T1,
          updatedAt: T1,
        });
      });

      it('answers in key order with null for missing ids', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b').id;
        const cd = g.edge('c', 'd').id;
        const result = await store.getEdges(WS, [cd, newId(), ab]);
        expect(result.map((edge) => edge?.id ?? null)).toEqual([cd, null, ab]);
      });

      it('keeps the edges of another workspace invisible', async () => {
        const g = await seed(chain, OTHER);
        expect(await store.getEdges(WS, [g.edge('a', 'b').id])).toEqual([null]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('getAdjacent', () => {
      it('lists OUTGOING edges with the memory at the other end', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'OUTGOING' }));
        expect(hub).toBeDefined();
        expect(sortedIds(hub!.map((adjacent) => adjacent.neighbor.id))).toEqual(
          sortedIds([g.id('s1'), g.id('s2'), g.id('s3'), g.id('s4')]),
        );
        for (const adjacent of hub!) {
          expect(adjacent.direction).toBe('OUTGOING');
          expect(adjacent.edge.fromId).toBe(g.id('hub'));
          expect(adjacent.edge.toId).toBe(adjacent.neighbor.id);
        }
        const s1 = hub!.find((adjacent) => adjacent.neighbor.id === g.id('s1'));
        expect(s1?.neighbor).toEqual(g.memories.s1);
        expect(s1?.edge).toMatchObject({ id: g.edge('hub', 's1').id, type: 'CITES', weight: 0.9 });
      });

      it('lists INCOMING edges with the memory they come from', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'INCOMING' }));
        expect(hub).toHaveLength(1);
        expect(hub![0]).toMatchObject({
          direction: 'INCOMING',
          neighbor: { id: g.id('s6') },
          edge: { id: g.edge('s6', 'hub').id },
        });
      });

      it('lists both directions for BOTH, each marked relative to the asked memory', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'BOTH' }));
        expect(hub).toHaveLength(5);
        const directions = Object.fromEntries(hub!.map((adjacent) => [adjacent.neighbor.id, adjacent.direction]));
        expect(directions).toEqual({
          [g.id('s1')]: 'OUTGOING',
          [g.id('s2')]: 'OUTGOING',
          [g.id('s3')]: 'OUTGOING',
          [g.id('s4')]: 'OUTGOING',
          [g.id('s6')]: 'INCOMING',
        });
      });

      it('orders edges strongest first, then by edge id', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency());
        const tie = sortedIds([g.edge('hub', 's2').id, g.edge('hub', 's3').id]);
        expect(hub!.map((adjacent) => adjacent.edge.id)).toEqual([
          g.edge('hub', 's1').id,
          ...tie,
          g.edge('s6', 'hub').id,
          g.edge('hub', 's4').id,
        ]);
      });

      it('breaks weight ties by edge id even when ids were created out of order', async () => {
        const hub = await createMemory();
        const ends = [await createMemory(), await createMemory(), await createMemory()];
        const ids = [newId(), newId(), newId()];
        // Link in reverse id order so insertion order and id order disagree.
        for (let index = 2; index >= 0; index -= 1) {
          await link(hub.id, ends[index]!.id, 'RELATED_TO', { id: ids[index]!, weight: 0.4 });
        }
        const [adjacent] = await store.getAdjacent(WS, [hub.id], adjacency());
        expect(adjacent!.map((entry) => entry.edge.id)).toEqual(sortedIds(ids));
      });

      it('keeps only the given relation types', async () => {
        const g = await seed(star);
        const [cites] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['CITES'] }));
        expect(cites!.map((adjacent) => adjacent.edge.id)).toEqual([g.edge('hub', 's1').id, g.edge('hub', 's2').id]);
        const [several] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['CITES', 'SUPERSEDES'] }));
        expect(several!.map((adjacent) => adjacent.edge.id)).toEqual([
          g.edge('hub', 's1').id,
          g.edge('hub', 's2').id,
          g.edge('s6', 'hub').id,
        ]);
      });

      it('returns nothing for a type no edge has', async () => {
        const g = await seed(star);
        expect(await store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['FORMALIZES'] }))).toEqual([[]]);
      });

      it('leaves out edges weaker than minWeight', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ minWeight: 0.5 }));
        expect(hub!.map((adjacent) => adjacent.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6]);
      });

      it('leaves out pruned edges, including one exactly at the threshold', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency());
        const seen = hub!.map((adjacent) => adjacent.edge.id);
        expect(seen).not.toContain(g.edge('hub', 's5').id);
        expect(seen).not.toContain(g.edge('s7', 'hub').id);
      });

      it('includes pruned edges when includePruned is set', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ includePruned: true }));
        expect(hub).toHaveLength(7);
        expect(hub!.slice(-2).map((adjacent) => adjacent.edge.id)).toEqual([
          g.edge('s7', 'hub').id,
          g.edge('hub', 's5').id,
        ]);
      });

      it('takes the prune threshold from the query', async () => {
        const g = await seed(star);
        const [hub] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ pruneThreshold: 0.35 }));
        expect(hub!.map((adjacent) => adjacent.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6]);
        const [low] = await store.getAdjacent(WS, [g.id('hub')], adjacency({ pruneThreshold: 0.01 }));
        expect(low).toHaveLength(7);
      });

      it('keeps the strongest limitPerMemory edges of each memory separately', async () => {
        const g = await seed(star);
        const result = await store.getAdjacent(
          WS,
          [g.id('hub'), g.id('s1'), g.id('s4')],
          adjacency({ limitPerMemory: 2 }),
        );
        const tieFirst = sortedIds([g.edge('hub', 's2').id, g.edge('hub', 's3').id])[0];
        expect(result.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
          [g.edge('hub', 's1').id, tieFirst],
          [g.edge('hub', 's1').id, g.edge('s1', 's2').id],
          [g.edge('hub', 's4').id],
        ]);
      });

      it('stops at maxRows for the whole call, filling memories in key order', async () => {
        const g = await seed(star);
        const ids = [g.id('hub'), g.id('s1'), g.id('s4')];
        const all = await store.getAdjacent(WS, ids, adjacency());
        expect(all.map((list) => list.length)).toEqual([5, 2, 1]);
        const capped = await store.getAdjacent(WS, ids, adjacency({ maxRows: 6 }));
        expect(capped.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
          all[0]!.map((adjacent) => adjacent.edge.id),
          [g.edge('hub', 's1').id],
          [],
        ]);
        const both = await store.getAdjacent(WS, ids, adjacency({ limitPerMemory: 2, maxRows: 3 }));
        expect(both.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
          all[0]!.slice(0, 2).map((adjacent) => adjacent.edge.id),
          [g.edge('hub', 's1').id],
          [],
        ]);
      });

      it('answers in key order, with an empty list for unknown and edgeless memories', async () => {
        const g = await seed(disconnected);
        const result = await store.getAdjacent(WS, [g.id('q'), newId(), g.id('z'), g.id('p')], adjacency());
        expect(result.map((list) => list.map((adjacent) => adjacent.neighbor.id))).toEqual([
          [g.id('p')],
          [],
          [],
          [g.id('q')],
        ]);
      });

      it('lists every edge between two memories joined several times', async () => {
        const g = await seed(parallel);
        const [a] = await store.getAdjacent(WS, [g.id('a')], adjacency());
        expect(a!.map((adjacent) => [adjacent.edge.type, adjacent.direction])).toEqual([
          ['CITES', 'OUTGOING'],
          ['EXTENDS', 'OUTGOING'],
          ['CONTRADICTS', 'INCOMING'],
          ['CITES', 'OUTGOING'],
        ]);
        expect(a!.map((adjacent) => adjacent.neighbor.id)).toEqual([g.id('c'), g.id('b'), g.id('b'), g.id('b')]);
      });

      it('sees nothing of another workspace', async () => {
        const g = await seed(star, OTHER);
        expect(await store.getAdjacent(WS, [g.id('hub')], adjacency({ includePruned: true }))).toEqual([[]]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('edgesAmong', () => {
      it('lists the unpruned edges with both ends among the memories, either direction, by id', async () => {
        const g = await seed(star);
        const among = await store.edgesAmong(WS, [g.id('s2'), g.id('hub'), g.id('s1'), g.id('s5'), g.id('s6')], {
          pruneThreshold: THRESHOLD,
          limit: 100,
        });
        const expected = [g.edge('hub', 's1'), g.edge('hub', 's2'), g.edge('s1', 's2'), g.edge('s6', 'hub')].map(
          (edge) => edge.id,
        );
        expect(among.map((edge) => edge.id)).toEqual(sortedIds(expected));
        expect(among.find((edge) => edge.id === g.edge('s6', 'hub').id)).toEqual(g.edge('s6', 'hub'));
      });

      it('returns at most limit edges, nothing for fewer than two memories, and nothing of another workspace', async () => {
        const g = await seed(star);
        expect(
          await store.edgesAmong(WS, [g.id('hub'), g.id('s1'), g.id('s2')], { pruneThreshold: THRESHOLD, limit: 2 }),
        ).toHaveLength(2);
        expect(await store.edgesAmong(WS, [g.id('hub')], { pruneThreshold: THRESHOLD, limit: 10 })).toEqual([]);
        expect(
          await store.edgesAmong(OTHER, [g.id('hub'), g.id('s1')], { pruneThreshold: THRESHOLD, limit: 10 }),
        ).toEqual([]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('countAdjacent', () => {
      it('counts edges per direction, without pruned ones', async () => {
        const g = await seed(star);
        const hub = [g.id('hub')];
        expect(await store.countAdjacent(WS, hub, degree({ direction: 'BOTH' }))).toEqual([5]);
        expect(await store.countAdjacent(WS, hub, degree({ direction: 'OUTGOING' }))).toEqual([4]);
        expect(await store.countAdjacent(WS, hub, degree({ direction: 'INCOMING' }))).toEqual([1]);
      });

      it('counts pruned edges when includePruned is set', async () => {
        const g = await seed(star);
        const hub = [g.id('hub')];
        expect(await store.countAdjacent(WS, hub, degree({ includePruned: true }))).toEqual([7]);
        expect(await store.countAdjacent(WS, hub, degree({ direction: 'INCOMING', includePruned: true }))).toEqual([2]);
      });

      it('takes the prune threshold from the query', async () => {
        const g = await seed(star);
        expect(await store.countAdjacent(WS, [g.id('hub')], degree({ pruneThreshold: 0.35 }))).toEqual([4]);
      });

      it('counts only the given relation types', async () => {
        const g = await seed(star);
        const hub = [g.id('hub')];
        expect(await store.countAdjacent(WS, hub, degree({ types: ['CITES'] }))).toEqual([2]);
        expect(await store.countAdjacent(WS, hub, degree({ types: ['CITES'], includePruned: true }))).toEqual([3]);
        expect(await store.countAdjacent(WS, hub, degree({ types: ['CITES', 'SUPERSEDES'] }))).toEqual([3]);
      });

      it('answers in key order with 0 for unknown and edgeless memories', async () => {
        const g = await seed(star);
        const result = await store.countAdjacent(WS, [g.id('s1'), newId(), g.id('hub'), g.id('s5')], degree());
        expect(result).toEqual([2, 0, 5, 0]);
      });

      it('counts nothing of another workspace', async () => {
        const g = await seed(star, OTHER);
        expect(await store.countAdjacent(WS, [g.id('hub')], degree({ includePruned: true }))).toEqual([0]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('expandFrontier', () => {
      const stepKeys = (steps: readonly { from: string; to: string; edgeId: string }[]) =>
        steps.map((step) => `${step.from}>${step.to}#${step.edgeId}`).sort();

      it('follows OUTGOING edges from the frontier to their targets, with edge id and weight', async () => {
        const g = await seed(star);
        const expansion = await store.expandFrontier(WS, [g.id('hub')], frontier({ direction: 'OUTGOING' }));
        expect(expansion.truncated).toBe(false);
        expect(stepKeys(expansion.steps)).toEqual(
          stepKeys(
            ['s1', 's2', 's3', 's4'].map((spoke) => ({
              from: g.id('hub'),
              to: g.id(spoke),
              edgeId: g.edge('hub', spoke).id,
            })),
          ),
        );
        const s1 = expansion.steps.find((step) => step.to === g.id('s1'));
        expect(s1?.weight).toBe(0.9);
      });

      it('follows INCOMING edges from the frontier back to their sources', async () => {
        const g = await seed(star);
        const expansion = await store.expandFrontier(WS, [g.id('hub')], frontier({ direction: 'INCOMING' }));
        expect(expansion.steps).toEqual([
          { from: g.id('hub'), to: g.id('s6'), edgeId: g.edge('s6', 'hub').id, weight: 0.6 },
        ]);
      });

      it('ignores direction for BOTH', async () => {
        const g = await seed(cycle);
        const expansion = await store.expandFrontier(WS, [g.id('a')], frontier({ direction: 'BOTH' }));
        expect(stepKeys(expansion.steps)).toEqual(
          stepKeys([
            { from: g.id('a'), to: g.id('b'), edgeId: g.edge('a', 'b').id },
            { from: g.id('a'), to: g.id('c'), edgeId: g.edge('c', 'a').id },
          ]),
        );
      });

      it('expands every memory of the frontier in one call', async () => {
        const g = await seed(star);
        const expansion = await store.expandFrontier(WS, [g.id('s1'), g.id('s6')], frontier({ direction: 'OUTGOING' }));
        expect(stepKeys(expansion.steps)).toEqual(
          stepKeys([
            { from: g.id('s1'), to: g.id('s2'), edgeId: g.edge('s1', 's2').id },
            { from: g.id('s6'), to: g.id('hub'), edgeId: g.edge('s6', 'hub').id },
          ]),
        );
      });

      it('keeps only the given relation types', async () => {
        const g = await seed(star);
        const expansion = await store.expandFrontier(WS, [g.id('hub')], frontier({ types: ['CITES'] }));
        expect(sortedIds(expansion.steps.map((step) => step.edgeId))).toEqual(
          sortedIds([g.edge('hub', 's1').id, g.edge('hub', 's2').id]),
        );
      });

      it('skips pruned edges, using the threshold from the query', async () => {
        const g = await seed(star);
        const expansion = await store.expandFrontier(WS, [g.id('hub')], frontier());
        const seen = expansion.steps.map((step) => step.edgeId);
        expect(seen).toHaveLength(5);
        expect(seen).not.toContain(g.edge('hub', 's5').id);
        expect(seen).not.toContain(g.edge('s7', 'hub').id);
        const stricter = await store.expandFrontier(WS, [g.id('hub')], frontier({ pruneThreshold: 0.35 }));
        expect(stricter.steps.map((step) => step.edgeId)).not.toContain(g.edge('hub', 's4').id);
        expect(stricter.steps).toHaveLength(4);
      });

      it('returns at most budget steps and says it truncated', async () => {
        const g = await seed(star);
        const all = await store.expandFrontier(WS, [g.id('hub')], frontier());
        const cut = await store.expandFrontier(WS, [g.id('hub')], frontier({ budget: 3 }));
        expect(cut.truncated).toBe(true);
        expect(cut.steps).toHaveLength(3);
        const allKeys = stepKeys(all.steps);
        for (const key of stepKeys(cut.steps)) expect(allKeys).toContain(key);
      });

      it('does not flag truncation when the budget is exactly enough', async () => {
        const g = await seed(star);
        const exact = await store.expandFrontier(WS, [g.id('hub')], frontier({ budget: 5 }));
        expect(exact.steps).toHaveLength(5);
        expect(exact.truncated).toBe(false);
      });

      it('returns no steps for an empty frontier or unknown memories', async () => {
        await seed(star);
        expect(await store.expandFrontier(WS, [], frontier())).toEqual({ steps: [], truncated: false });
        expect(await store.expandFrontier(WS, [newId()], frontier())).toEqual({ steps: [], truncated: false });
      });

      it('walks nothing of another workspace', async () => {
        const g = await seed(star, OTHER);
        expect(await store.expandFrontier(WS, [g.id('hub')], frontier())).toEqual({ steps: [], truncated: false });
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('findEdge', () => {
      it('finds the edge of exactly this triple', async () => {
        const g = await seed(parallel);
        const found = await store.findEdge(WS, g.id('a'), g.id('b'), 'EXTENDS');
        expect(found).toEqual(g.edge('a', 'b', 'EXTENDS'));
      });

      it('answers null for the reverse direction or another type', async () => {
        const g = await seed(parallel);
        expect(await store.findEdge(WS, g.id('b'), g.id('a'), 'EXTENDS')).toBeNull();
        expect(await store.findEdge(WS, g.id('a'), g.id('b'), 'CONTRADICTS')).toBeNull();
        expect(await store.findEdge(WS, g.id('a'), newId(), 'CITES')).toBeNull();
      });

      it('answers null for an edge of another workspace', async () => {
        const g = await seed(parallel, OTHER);
        expect(await store.findEdge(WS, g.id('a'), g.id('b'), 'EXTENDS')).toBeNull();
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('edgesBetween', () => {
      it('returns edges in both directions, strongest first', async () => {
        const g = await seed(parallel);
        const expected = [g.edge('a', 'b', 'EXTENDS'), g.edge('b', 'a', 'CONTRADICTS'), g.edge('a', 'b', 'CITES')];
        expect(await store.edgesBetween(WS, g.id('a'), g.id('b'), null)).toEqual(expected);
        expect(await store.edgesBetween(WS, g.id('b'), g.id('a'), null)).toEqual(expected);
      });

      it('breaks weight ties by edge id', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const ids = [newId(), newId()];
        await link(b.id, a.id, 'CITES', { id: ids[1]!, weight: 0.5 });
        await link(a.id, b.id, 'CITES', { id: ids[0]!, weight: 0.5 });
        const between = await store.edgesBetween(WS, a.id, b.id, null);
        expect(between.map((edge) => edge.id)).toEqual(sortedIds(ids));
      });

      it('keeps only the given relation types', async () => {
        const g = await seed(parallel);
        const between = await store.edgesBetween(WS, g.id('a'), g.id('b'), ['CITES', 'CONTRADICTS']);
        expect(between.map((edge) => edge.id)).toEqual([
          g.edge('b', 'a', 'CONTRADICTS').id,
          g.edge('a', 'b', 'CITES').id,
        ]);
      });

      it('returns pruned edges too', async () => {
        const g = await seed(star);
        const between = await store.edgesBetween(WS, g.id('hub'), g.id('s5'), null);
        expect(between.map((edge) => edge.id)).toEqual([g.edge('hub', 's5').id]);
      });

      it('returns an empty list when the memories are not joined', async () => {
        const g = await seed(parallel);
        expect(await store.edgesBetween(WS, g.id('b'), g.id('c'), null)).toEqual([]);
      });

      it('sees nothing of another workspace', async () => {
        const g = await seed(parallel, OTHER);
        expect(await store.edgesBetween(WS, g.id('a'), g.id('b'), null)).toEqual([]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('searchMemories', () => {
      const titles = (memories: readonly { title: string }[]) => memories.map((memory) => memory.title);

      it('finds memories by a word of their title', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('redis'));
        expect(found).toEqual([g.memories.redis]);
      });

      it('finds memories by a word of their content', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('tenant'));
        expect(found.map((memory) => memory.id)).toEqual([g.id('sharding')]);
      });

      it('finds memories by a tag', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('sharding'));
        expect(found.map((memory) => memory.id)).toEqual([g.id('sharding')]);
      });

      it('ranks a title match above a content-only match', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('postgres'));
        const ids = found.map((memory) => memory.id);
        expect(sortedIds(ids)).toEqual(sortedIds([g.id('pgTitle'), g.id('pgHypothesis'), g.id('pgContent')]));
        expect(ids[2]).toBe(g.id('pgContent'));
      });

      it('matches regardless of letter case', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('REDIS'));
        expect(found.map((memory) => memory.id)).toEqual([g.id('redis')]);
      });

      it('keeps only the given kinds', async () => {
        const g = await seed(library);
        expect(
          (await store.searchMemories(WS, search('postgres', { kinds: ['decision'] }))).map((memory) => memory.id),
        ).toEqual([g.id('pgTitle')]);
        const two = await store.searchMemories(WS, search('postgres', { kinds: ['hypothesis', 'experiment'] }));
        expect(two.map((memory) => memory.id)).toEqual([g.id('pgHypothesis'), g.id('pgContent')]);
      });

      it('keeps only memories with the given tag', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('postgres', { tags: ['database'] }));
        expect(found.map((memory) => memory.id)).toEqual([g.id('pgTitle'), g.id('pgContent')]);
      });

      it('returns at most limit memories, the best first', async () => {
        const g = await seed(library);
        const found = await store.searchMemories(WS, search('postgres', { limit: 1 }));
        expect(found).toHaveLength(1);
        expect([g.id('pgTitle'), g.id('pgHypothesis')]).toContain(found[0]!.id);
      });

      it('returns an empty list when nothing matches', async () => {
        await seed(library);
        expect(await store.searchMemories(WS, search('kubernetes'))).toEqual([]);
      });

      it('finds a word with punctuation around it', async () => {
        const g = await seed(library);
        for (const text of ['redis?', '"redis"', 'redis!', '(redis)', 'redis*']) {
          const found = await store.searchMemories(WS, search(text));
          expect(titles(found), text).toContain(g.memories.redis!.title);
        }
      });

      it.each([
        ['a lone double quote', '"'],
        ['an unbalanced quote', 'postgres "store'],
        ['a bare operator', 'AND'],
        ['operators between words', 'postgres AND OR NOT redis'],
        ['a lone star', '*'],
        ['an open NEAR', 'NEAR('],
        ['parentheses', '(postgres OR'],
        ['a column filter', 'title:postgres'],
        ['a caret and minus', '^postgres -redis'],
        ['an SQL injection attempt', "'); DROP TABLE memories; --"],
        ['only punctuation', '!?.,;:'],
        ['only whitespace', '   '],
      ])('does not throw on %s in the query text', async (_label, text) => {
        await seed(library);
        const before = await inspect.countRows('memories', WS);
        const found = await store.searchMemories(WS, search(text));
        expect(Array.isArray(found)).toBe(true);
        expect(await inspect.countRows('memories', WS)).toBe(before);
      });

      it('finds a memory under its new title after an update, and not under the old one', async () => {
        const g = await seed(library);
        await store.updateMemory(WS, g.id('redis'), { title: 'Memcached for sessions' }, T1);
        expect((await store.searchMemories(WS, search('memcached'))).map((memory) => memory.id)).toEqual([
          g.id('redis'),
        ]);
        expect(await store.searchMemories(WS, search('redis'))).toEqual([]);
      });

      it('no longer finds a deleted memory', async () => {
        const g = await seed(library);
        await store.deleteMemory(WS, g.id('redis'));
        expect(await store.searchMemories(WS, search('redis'))).toEqual([]);
      });

      it('finds nothing of another workspace', async () => {
        await seed(library, OTHER);
        expect(await store.searchMemories(WS, search('postgres'))).toEqual([]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('listWeightEvents', () => {
      /** ab and bc of the chain and memory a each get changes at T1..T4, so newest-first order is known. */
      async function history() {
        const g = await seed(chain);
        // Whether creating an edge writes an event is not part of the contract; leave such events out.
        const seeded = new Set((await inspect.rawWeightEvents(WS)).map((event) => event.id));
        const fresh = (events: readonly WeightEventRecord[]) => events.filter((event) => !seeded.has(event.id));
        const ab = g.edge('a', 'b').id;
        const bc = g.edge('b', 'c').id;
        const a = g.id('a');
        const e1 = edgeChange(ab, delta(-0.1), { source: 'CONSCIOUS', reason: 'first' });
        const e2 = edgeChange(bc, delta(0.1), { source: 'AGENT' });
        const e3 = memoryChange(a, delta(0.2), { source: 'CONSCIOUS' });
        const e4 = edgeChange(ab, set(0.9), { source: 'MANUAL', reason: 'fourth' });
        await store.applyWeightChanges(WS, [e1], BOUNDS, T1);
        await store.applyWeightChanges(WS, [e2], BOUNDS, T2);
        await store.applyWeightChanges(WS, [e3], BOUNDS, T3);
        await store.applyWeightChanges(WS, [e4], BOUNDS, T4);
        return { g, ab, bc, a, fresh, ids: [e1.eventId, e2.eventId, e3.eventId, e4.eventId] as const };
      }

      it('lists the events of a workspace newest first', async () => {
        const { ids } = await history();
        const events = await store.listWeightEvents(WS, eventFilter());
        const ours = events.filter((event) => ids.includes(event.id));
        expect(ours.map((event) => event.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
        const times = events.map((event) => event.at);
        expect(times).toEqual([...times].sort().reverse());
      });

      it('keeps the events of one edge', async () => {
        const { ab, ids, fresh } = await history();
        const events = await store.listWeightEvents(WS, eventFilter({ edgeId: ab }));
        expect(fresh(events).map((event) => event.id)).toEqual([ids[3], ids[0]]);
        expect(events.every((event) => event.edgeId === ab && event.memoryId === null)).toBe(true);
      });

      it("keeps the events of one memory's own weight", async () => {
        const { a, ids } = await history();
        const events = await store.listWeightEvents(WS, eventFilter({ memoryId: a }));
        expect(events.map((event) => event.id)).toEqual([ids[2]]);
        expect(events[0]).toMatchObject({ memoryId: a, edgeId: null });
      });

      it('keeps the events of one source', async () => {
        const { ids } = await history();
        const manual = await store.listWeightEvents(WS, eventFilter({ source: 'MANUAL' }));
        expect(manual.map((event) => event.id)).toContain(ids[3]);
        expect(manual.every((event) => event.source === 'MANUAL')).toBe(true);
        const agent = await store.listWeightEvents(WS, eventFilter({ source: 'AGENT' }));
        expect(agent.map((event) => event.id)).toEqual([ids[1]]);
      });

      it('combines filters', async () => {
        const { ab, ids } = await history();
        const events = await store.listWeightEvents(WS, eventFilter({ edgeId: ab, source: 'CONSCIOUS' }));
        expect(events.map((event) => event.id)).toEqual([ids[0]]);
        expect(await store.listWeightEvents(WS, eventFilter({ edgeId: ab, source: 'AGENT' }))).toEqual([]);
      });

      it('returns at most limit events, the newest', async () => {
        const { ab, ids } = await history();
        const events = await store.listWeightEvents(WS, eventFilter({ edgeId: ab, limit: 1 }));
        expect(events.map((event) => event.id)).toEqual([ids[3]]);
        expect(await store.listWeightEvents(WS, eventFilter({ limit: 2 }))).toHaveLength(2);
      });

      it('lists nothing of another workspace', async () => {
        const { ab } = await history();
        expect(await store.listWeightEvents(OTHER, eventFilter())).toEqual([]);
        expect(await store.listWeightEvents(OTHER, eventFilter({ edgeId: ab }))).toEqual([]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('getEdgeHistories', () => {
      it('returns the newest events of each edge, newest first, in key order', async () => {
        const g = await seed(chain);
        const seeded = new Set((await inspect.rawWeightEvents(WS)).map((event) => event.id));
        const ab = g.edge('a', 'b').id;
        const bc = g.edge('b', 'c').id;
        const changes = [
          edgeChange(ab, delta(0.01)),
          edgeChange(bc, delta(0.01)),
          edgeChange(ab, delta(0.01)),
          edgeChange(ab, delta(0.01)),
        ];
        const times = [T1, T2, T3, T4];
        for (const [index, change] of changes.entries()) {
          await store.applyWeightChanges(WS, [change], BOUNDS, times[index]!);
        }
        const histories = await store.getEdgeHistories(WS, [bc, newId(), ab], 2);
        expect(histories).toHaveLength(3);
        expect(histories.every((events) => events.length <= 2)).toBe(true);
        expect(
          histories.map((events) => events.filter((event) => !seeded.has(event.id)).map((event) => event.id)),
        ).toEqual([[changes[1]!.eventId], [], [changes[3]!.eventId, changes[2]!.eventId]]);
      });

      it('returns nothing for an edge of another workspace', async () => {
        const g = await seed(chain, OTHER);
        const ab = g.edge('a', 'b').id;
        await store.applyWeightChanges(OTHER, [edgeChange(ab, delta(0.1))], BOUNDS, T1);
        expect(await store.getEdgeHistories(WS, [ab], 10)).toEqual([[]]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('getWeightEvents', () => {
      it('returns events by id in order with null for missing ids', async () => {
        const g = await seed(chain);
        const first = edgeChange(g.edge('a', 'b').id, delta(-0.2), { source: 'AGENT', reason: 'noise' });
        const second = memoryChange(g.id('c'), set(0.8), { source: 'MANUAL' });
        await store.applyWeightChanges(WS, [first, second], BOUNDS, T2);
        const events = await store.getWeightEvents(WS, [second.eventId, newId(), first.eventId]);
        expect(events[1]).toBeNull();
        expect(events[0]).toMatchObject({
          id: second.eventId,
          at: T2,
          source: 'MANUAL',
          memoryId: g.id('c'),
          edgeId: null,
          reason: null,
          revertedBy: null,
        });
        expect(events[0]!.new).toBeCloseTo(0.8, 10);
        expect(events[2]).toMatchObject({
          id: first.eventId,
          at: T2,
          source: 'AGENT',
          edgeId: g.edge('a', 'b').id,
          memoryId: null,
          reason: 'noise',
          revertedBy: null,
        });
        expect(events[2]!.old).toBeCloseTo(0.5, 10);
        expect(events[2]!.new).toBeCloseTo(0.3, 10);
        expect(events[2]!.delta).toBeCloseTo(-0.2, 10);
      });

      it('answers null for an event of another workspace', async () => {
        const g = await seed(chain, OTHER);
        const change = edgeChange(g.edge('a', 'b').id, delta(0.1));
        await store.applyWeightChanges(OTHER, [change], BOUNDS, T1);
        expect(await store.getWeightEvents(WS, [change.eventId])).toEqual([null]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('createMemory', () => {
      it('stores the memory and returns it with createdAt and updatedAt set to now', async () => {
        const input = newMemory({
          key: 'k1',
          title: 'Title',
          content: 'Body',
          kind: 'fact',
          tags: ['x'],
          weight: 0.3,
          metadata: { a: 1 },
        });
        const created = await store.createMemory(WS, input, T1);
        expect(created).toEqual({ ...input, createdAt: T1, updatedAt: T1 });
        expect(await inspect.rawMemory(WS, input.id)).toMatchObject({
          id: input.id,
          key: 'k1',
          title: 'Title',
          content: 'Body',
          weight: 0.3,
        });
        expect(await inspect.countRows('memories', WS)).toBe(1);
      });

      it('rejects a duplicate id in the workspace with CONFLICT and keeps the first', async () => {
        const first = await createMemory({ title: 'First' });
        await expectCode(store.createMemory(WS, newMemory({ id: first.id, title: 'Second' }), T1), 'CONFLICT');
        expect(await inspect.countRows('memories', WS)).toBe(1);
        expect((await inspect.rawMemory(WS, first.id))?.title).toBe('First');
      });

      it('rejects a duplicate key in the workspace with CONFLICT', async () => {
        await createMemory({ key: 'taken' });
        await expectCode(store.createMemory(WS, newMemory({ key: 'taken' }), T1), 'CONFLICT');
        expect(await inspect.countRows('memories', WS)).toBe(1);
      });

      it('allows the same key in another workspace', async () => {
        const here = await createMemory({ key: 'shared-key' });
        const there = await createMemory({ key: 'shared-key' }, OTHER);
        expect((await store.getMemories(WS, ['shared-key']))[0]?.id).toBe(here.id);
        expect((await store.getMemories(OTHER, ['shared-key']))[0]?.id).toBe(there.id);
      });

      it('allows many memories without a key', async () => {
        await createMemory({ key: null });
        await createMemory({ key: null });
        expect(await inspect.countRows('memories', WS)).toBe(2);
      });

      it('stores text with quotes and SQL as plain data', async () => {
        const title = `Robert'); DROP TABLE memories; -- "quoted"`;
        const memory = await createMemory({ title, content: "it's \\ fine" });
        expect((await store.getMemories(WS, [memory.id]))[0]).toMatchObject({ title, content: "it's \\ fine" });
        expect(await inspect.countRows('memories', WS)).toBe(1);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('updateMemory', () => {
      const full = () =>
        newMemory({
          key: 'orig-key',
          title: 'Original',
          content: 'Original body',
          kind: 'fact',
          tags: ['a', 'b'],
          weight: 0.6,
          metadata: { v: 1 },
        });

      it('changes only the fields present and keeps the rest', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const updated = await store.updateMemory(WS, original.id, { title: 'Renamed' }, T1);
        expect(updated).toEqual({ ...original, title: 'Renamed', updatedAt: T1 });
        expect((await store.getMemories(WS, [original.id]))[0]).toEqual(updated);
        expect((await inspect.rawMemory(WS, original.id))?.title).toBe('Renamed');
      });

      it('clears nullable fields given as null', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const updated = await store.updateMemory(
          WS,
          original.id,
          { key: null, content: null, kind: null, metadata: null },
          T1,
        );
        expect(updated).toEqual({ ...original, key: null, content: null, kind: null, metadata: null, updatedAt: T1 });
        expect(await store.getMemories(WS, ['orig-key'])).toEqual([null]);
      });

      it('replaces tags, content, kind, key and metadata when given', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const patch = { key: 'new-key', content: 'New body', kind: 'decision', tags: ['c'], metadata: { w: 2 } };
        const updated = await store.updateMemory(WS, original.id, patch, T1);
        expect(updated).toEqual({ ...original, ...patch, updatedAt: T1 });
        expect((await store.getMemories(WS, ['new-key']))[0]?.id).toBe(original.id);
      });

      it('treats a field set to undefined as absent', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const patch = {
          key: undefined,
          content: undefined,
          kind: undefined,
          tags: undefined,
          metadata: undefined,
          title: 'Renamed',
        };
        const updated = await store.updateMemory(WS, original.id, patch, T1);
        expect(updated).toEqual({ ...original, title: 'Renamed', updatedAt: T1 });
      });

      it('sets updatedAt to now and keeps createdAt', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const updated = await store.updateMemory(WS, original.id, {}, T2);
        expect(updated?.createdAt).toBe(T0);
        expect(updated?.updatedAt).toBe(T2);
      });

      it('rejects a key taken by another memory with CONFLICT and changes nothing', async () => {
        await createMemory({ key: 'taken' });
        const original = await store.createMemory(WS, full(), T0);
        await expectCode(
          store.updateMemory(WS, original.id, { key: 'taken', title: 'Should not stick' }, T1),
          'CONFLICT',
        );
        expect((await store.getMemories(WS, [original.id]))[0]).toEqual(original);
      });

      it('accepts the key the memory already has', async () => {
        const original = await store.createMemory(WS, full(), T0);
        const updated = await store.updateMemory(WS, original.id, { key: 'orig-key' }, T1);
        expect(updated?.key).toBe('orig-key');
      });

      it('allows a key taken only in another workspace', async () => {
        await createMemory({ key: 'elsewhere' }, OTHER);
        const original = await store.createMemory(WS, full(), T0);
        expect((await store.updateMemory(WS, original.id, { key: 'elsewhere' }, T1))?.key).toBe('elsewhere');
      });

      it('answers null for a missing memory', async () => {
        expect(await store.updateMemory(WS, newId(), { title: 'Nobody' }, T1)).toBeNull();
        expect(await inspect.countRows('memories', WS)).toBe(0);
      });

      it('answers null for a memory of another workspace and leaves it unchanged', async () => {
        const there = await store.createMemory(OTHER, full(), T0);
        expect(await store.updateMemory(WS, there.id, { title: 'Hijacked' }, T1)).toBeNull();
        expect((await inspect.rawMemory(OTHER, there.id))?.title).toBe('Original');
        expect(await inspect.countRows('memories', WS)).toBe(0);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('deleteMemory', () => {
      it('removes the memory and its edges in both directions', async () => {
        const g = await seed(chain);
        const result = await store.deleteMemory(WS, g.id('c'));
        expect(result).toEqual({ edgesRemoved: 2 });
        expect(await inspect.rawMemory(WS, g.id('c'))).toBeNull();
        expect(await inspect.rawEdge(WS, g.edge('b', 'c').id)).toBeNull();
        expect(await inspect.rawEdge(WS, g.edge('c', 'd').id)).toBeNull();
        expect((await inspect.rawEdges(WS)).map((edge) => edge.id)).toEqual(
          sortedIds([g.edge('a', 'b').id, g.edge('d', 'e').id]),
        );
        expect(await inspect.countRows('memories', WS)).toBe(4);
      });

      it('counts pruned edges among those removed', async () => {
        const g = await seed(star);
        expect(await store.deleteMemory(WS, g.id('hub'))).toEqual({ edgesRemoved: 7 });
        expect((await inspect.rawEdges(WS)).map((edge) => edge.id)).toEqual([g.edge('s1', 's2').id]);
      });

      it('reports zero edges for a memory without edges', async () => {
        const g = await seed(disconnected);
        expect(await store.deleteMemory(WS, g.id('z'))).toEqual({ edgesRemoved: 0 });
        expect(await inspect.countRows('edges', WS)).toBe(2);
      });

      it('leaves the memory out of reads afterwards', async () => {
        const g = await seed(chain);
        await store.deleteMemory(WS, g.id('b'));
        expect(await store.getMemories(WS, [g.id('b'), 'chain-b'])).toEqual([null, null]);
        expect(await store.getEdges(WS, [g.edge('a', 'b').id])).toEqual([null]);
        expect(await store.getAdjacent(WS, [g.id('a')], adjacency())).toEqual([[]]);
      });

      it('answers null for a missing memory', async () => {
        await seed(chain);
        expect(await store.deleteMemory(WS, newId())).toBeNull();
        expect(await inspect.countRows('memories', WS)).toBe(5);
      });

      it('answers null for a memory of another workspace and leaves it and its edges in place', async () => {
        const g = await seed(chain, OTHER);
        expect(await store.deleteMemory(WS, g.id('c'))).toBeNull();
        expect(await inspect.rawMemory(OTHER, g.id('c'))).not.toBeNull();
        expect(await inspect.countRows('edges', OTHER)).toBe(4);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('linkEdge', () => {
      it('creates an edge with the default weight when none is given', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const request = linkRequest(a.id, b.id, 'CAUSED_BY', { metadata: { why: 'test' } });
        const { edge, created } = await store.linkEdge(WS, request, T1);
        expect(created).toBe(true);
        expect(edge).toMatchObject({
          id: request.id,
          fromId: a.id,
          toId: b.id,
          type: 'CAUSED_BY',
          weight: POLICY.defaultEdgeWeight,
          metadata: { why: 'test' },
          createdAt: T1,
          updatedAt: T1,
        });
        expect(await inspect.rawEdge(WS, request.id)).toMatchObject({
          id: request.id,
          fromId: a.id,
          toId: b.id,
          type: 'CAUSED_BY',
          weight: POLICY.defaultEdgeWeight,
          metadata: { why: 'test' },
        });
      });

      it('creates an edge with the given weight', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const { edge } = await link(a.id, b.id, 'CITES', { weight: 0.85 });
        expect(edge.weight).toBe(0.85);
        expect(await weightOf(WS, edge.id)).toBe(0.85);
      });

      it('confirms an existing edge: created false, the original id, lastConfirmedAt now, no new row', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', {}, WS, T1);
        const again = await link(a.id, b.id, 'CITES', {}, WS, T2);
        expect(again.created).toBe(false);
        expect(again.edge.id).toBe(first.edge.id);
        expect(again.edge.lastConfirmedAt).toBe(T2);
        expect(again.edge.createdAt).toBe(T1);
        expect(again.edge.weight).toBe(POLICY.defaultEdgeWeight);
        expect(await inspect.countRows('edges', WS)).toBe(1);
        expect((await inspect.rawEdge(WS, first.edge.id))?.lastConfirmedAt).toBe(T2);
        expect((await store.getEdges(WS, [first.edge.id]))[0]?.lastConfirmedAt).toBe(T2);
      });

      it('shallow-merges metadata into the stored object when confirming', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', { metadata: { keep: 1, replace: 'old', nested: { x: 1 } } });
        const again = await link(
          a.id,
          b.id,
          'CITES',
          { metadata: { replace: 'new', added: true, nested: { y: 2 } } },
          WS,
          T1,
        );
        const merged = { keep: 1, replace: 'new', added: true, nested: { y: 2 } };
        expect(again.edge.metadata).toEqual(merged);
        expect((await inspect.rawEdge(WS, first.edge.id))?.metadata).toEqual(merged);
      });

      it('refuses a confirm whose merged metadata passes 4096 bytes with BAD_USER_INPUT and writes nothing', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', { metadata: { k0: 'x'.repeat(4000) } }, WS, T1);
        const before = await inspect.rawEdge(WS, first.edge.id);
        const eventsBefore = await inspect.countRows('weight_events', WS);
        // Each request alone is under the limit; merged with what is stored, it is not.
        const error = await rejection(
          link(a.id, b.id, 'CITES', { metadata: { k1: 'y'.repeat(4000) }, weight: 0.9 }, WS, T2),
        );
        expect(error).toBeInstanceOf(EngramError);
        expect((error as EngramError).code).toBe('BAD_USER_INPUT');
        expect((error as EngramError).message).toMatch(/^input\.metadata: .*merged.*4096 bytes/);
        expect(await inspect.rawEdge(WS, first.edge.id)).toEqual(before);
        expect(await inspect.countRows('weight_events', WS)).toBe(eventsBefore);
        // A confirm that keeps the merged result under the limit still goes through.
        const replaced = await link(a.id, b.id, 'CITES', { metadata: { k0: 'short', k1: 'y'.repeat(4000) } }, WS, T3);
        expect(replaced.edge.metadata).toEqual({ k0: 'short', k1: 'y'.repeat(4000) });
      });

      it('keeps the stored metadata when confirming without metadata', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', { metadata: { keep: 1 } });
        const again = await link(a.id, b.id, 'CITES', { metadata: null }, WS, T1);
        expect(again.edge.metadata).toEqual({ keep: 1 });
        expect((await inspect.rawEdge(WS, first.edge.id))?.metadata).toEqual({ keep: 1 });
      });

      it('keeps the weight when confirming without a weight, and writes no event', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', { weight: 0.7 });
        const events = await inspect.countRows('weight_events', WS);
        const again = await link(a.id, b.id, 'CITES', { weight: null }, WS, T1);
        expect(again.edge.weight).toBe(0.7);
        expect(await weightOf(WS, first.edge.id)).toBe(0.7);
        expect(await inspect.countRows('weight_events', WS)).toBe(events);
      });

      it('sets a different weight when confirming and writes one MANUAL event', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const first = await link(a.id, b.id, 'CITES', { weight: 0.4 });
        const eventsBefore = await inspect.countRows('weight_events', WS);
        const eventId = newId();
        const again = await link(a.id, b.id, 'CITES', { weight: 0.9, reason: 'confirmed twice', eventId }, WS, T2);
        expect(again.edge.weight).toBe(0.9);
        expect(await weightOf(WS, first.edge.id)).toBe(0.9);
        expect(await inspect.countRows('weight_events', WS)).toBe(eventsBefore + 1);
        const raw = (await inspect.rawWeightEvents(WS)).find((event) => event.id === eventId);
        expect(raw).toMatchObject({
          edgeId: first.edge.id,
          memoryId: null,
          source: 'MANUAL',
          reason: 'confirmed twice',
          revertedBy: null,
        });
        expect(raw?.old).toBeCloseTo(0.4, 10);
        expect(raw?.new).toBeCloseTo(0.9, 10);
        expect(raw?.delta).toBeCloseTo(0.5, 10);
        const [event] = await store.getWeightEvents(WS, [eventId]);
        expect(event).toMatchObject({ id: eventId, at: T2, source: 'MANUAL', edgeId: first.edge.id });
      });

      it('writes no event when confirming with the weight the edge already has', async () => {
        const a = await createMemory();
        const b = await createMemory();
        await link(a.id, b.id, 'CITES', { weight: 0.4 });
        const eventsBefore = await inspect.countRows('weight_events', WS);
        await link(a.id, b.id, 'CITES', { weight: 0.4 }, WS, T1);
        expect(await inspect.countRows('weight_events', WS)).toBe(eventsBefore);
      });

      it('treats the reverse direction and another type as different edges', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const forward = await link(a.id, b.id, 'CITES');
        const reverse = await link(b.id, a.id, 'CITES');
        const otherType = await link(a.id, b.id, 'EXTENDS');
        expect([forward.created, reverse.created, otherType.created]).toEqual([true, true, true]);
        expect(new Set([forward.edge.id, reverse.edge.id, otherType.edge.id]).size).toBe(3);
        expect(await inspect.countRows('edges', WS)).toBe(3);
      });

      it('makes exactly one edge under 30 concurrent identical calls', async () => {
        const a = await createMemory();
        const b = await createMemory();
        const results = await Promise.all(
          Array.from({ length: 30 }, () => store.linkEdge(WS, linkRequest(a.id, b.id, 'CAUSED_BY'), T1)),
        );
        const ids = new Set(results.map((result) => result.edge.id));
        expect(ids.size).toBe(1);
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(await inspect.countRows('edges', WS)).toBe(1);
        expect((await inspect.rawEdges(WS))[0]?.id).toBe([...ids][0]);
      });

      it('rejects a missing endpoint with NOT_FOUND and creates nothing', async () => {
        const a = await createMemory();
        await expectCode(link(a.id, newId(), 'CITES'), 'NOT_FOUND');
        await expectCode(link(newId(), a.id, 'CITES'), 'NOT_FOUND');
        expect(await inspect.countRows('edges', WS)).toBe(0);
      });

      it('cannot link memories of another workspace', async () => {
        const g = await seed(disconnected, OTHER);
        const here = await createMemory();
        await expectCode(link(g.id('z'), g.id('p'), 'CITES'), 'NOT_FOUND');
        await expectCode(link(here.id, g.id('z'), 'CITES'), 'NOT_FOUND');
        expect(await inspect.countRows('edges', WS)).toBe(0);
        expect(await inspect.countRows('edges', OTHER)).toBe(2);
      });

      it('cannot confirm or reweigh an edge of another workspace', async () => {
        const g = await seed(disconnected, OTHER);
        const pq = g.edge('p', 'q');
        const eventsThere = await inspect.countRows('weight_events', OTHER);
        await expectCode(
          link(g.id('p'), g.id('q'), 'RELATED_TO', { weight: 0.9, metadata: { x: 1 } }, WS, T2),
          'NOT_FOUND',
        );
        expect(await inspect.rawEdge(OTHER, pq.id)).toMatchObject({
          weight: 0.5,
          lastConfirmedAt: pq.lastConfirmedAt,
          metadata: pq.metadata,
        });
        expect(await inspect.countRows('weight_events', OTHER)).toBe(eventsThere);
        expect(await inspect.countRows('edges', WS)).toBe(0);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('unlinkEdges', () => {
      it('removes an edge by id and returns it as it was', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const [before] = await store.getEdges(WS, [ab.id]);
        const removed = await store.unlinkEdges(WS, { id: ab.id });
        expect(removed).toEqual([before]);
        expect(await inspect.rawEdge(WS, ab.id)).toBeNull();
        expect(await inspect.countRows('edges', WS)).toBe(3);
      });

      it('removes an edge by triple and returns it as it was', async () => {
        const g = await seed(parallel);
        const cites = g.edge('a', 'b', 'CITES');
        const [before] = await store.getEdges(WS, [cites.id]);
        const removed = await store.unlinkEdges(WS, { fromId: g.id('a'), toId: g.id('b'), type: 'CITES' });
        expect(removed).toEqual([before]);
        expect(await inspect.rawEdge(WS, cites.id)).toBeNull();
        expect(await inspect.rawEdge(WS, g.edge('a', 'b', 'EXTENDS').id)).not.toBeNull();
        expect(await inspect.countRows('edges', WS)).toBe(3);
      });

      it('returns the weight the edge had at removal', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        await store.applyWeightChanges(WS, [edgeChange(ab.id, set(0.2))], BOUNDS, T1);
        const [removed] = await store.unlinkEdges(WS, { id: ab.id });
        expect(removed?.weight).toBeCloseTo(0.2, 10);
      });

      it('returns an empty list when nothing matches, including the reverse triple', async () => {
        const g = await seed(chain);
        expect(await store.unlinkEdges(WS, { id: newId() })).toEqual([]);
        expect(await store.unlinkEdges(WS, { fromId: g.id('b'), toId: g.id('a'), type: 'CAUSED_BY' })).toEqual([]);
        expect(await inspect.countRows('edges', WS)).toBe(4);
      });

      it('cannot remove an edge of another workspace, by id or by triple', async () => {
        const g = await seed(chain, OTHER);
        const ab = g.edge('a', 'b');
        expect(await store.unlinkEdges(WS, { id: ab.id })).toEqual([]);
        expect(await store.unlinkEdges(WS, { fromId: g.id('a'), toId: g.id('b'), type: 'CAUSED_BY' })).toEqual([]);
        expect(await inspect.rawEdge(OTHER, ab.id)).not.toBeNull();
        expect(await inspect.countRows('edges', OTHER)).toBe(4);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('applyWeightChanges', () => {
      it('applies a delta to an edge and writes one event', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const change = edgeChange(ab.id, delta(-0.3), { source: 'CONSCIOUS', reason: 'user corrected' });
        const [applied] = await store.applyWeightChanges(WS, [change], BOUNDS, T1);
        expect(applied?.previousWeight).toBeCloseTo(0.5, 10);
        expect(applied?.newWeight).toBeCloseTo(0.2, 10);
        expect(applied?.edge?.id).toBe(ab.id);
        expect(applied?.edge?.weight).toBeCloseTo(0.2, 10);
        expect(applied?.memory).toBeNull();
        expect(applied?.event).toMatchObject({
          id: change.eventId,
          at: T1,
          source: 'CONSCIOUS',
          edgeId: ab.id,
          memoryId: null,
          reason: 'user corrected',
          revertedBy: null,
        });
        expect(applied?.event.old).toBeCloseTo(0.5, 10);
        expect(applied?.event.new).toBeCloseTo(0.2, 10);
        expect(applied?.event.delta).toBeCloseTo(-0.3, 10);
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.2, 10);
        const raw = (await inspect.rawWeightEvents(WS)).find((event) => event.id === change.eventId);
        expect(raw).toMatchObject({
          edgeId: ab.id,
          memoryId: null,
          source: 'CONSCIOUS',
          reason: 'user corrected',
          revertedBy: null,
        });
        expect(raw?.old).toBeCloseTo(0.5, 10);
        expect(raw?.new).toBeCloseTo(0.2, 10);
        expect(raw?.delta).toBeCloseTo(-0.3, 10);
      });

      it('skips a change marked skipIfMissing whose target is gone, and applies the rest', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const bc = g.edge('b', 'c');
        await store.unlinkEdges(WS, { id: bc.id });
        const changes = [
          { ...edgeChange(bc.id, delta(0.1)), skipIfMissing: true },
          { ...edgeChange(ab.id, delta(0.1)), skipIfMissing: true },
          memoryChange(g.id('a'), delta(0.1)),
        ];
        const applied = await store.applyWeightChanges(WS, changes, BOUNDS, T1);
        expect(applied.map((change) => change.event.id)).toEqual([changes[1]!.eventId, changes[2]!.eventId]);
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.6, 10);
        expect((await inspect.rawWeightEvents(WS)).map((event) => event.id).sort()).toEqual(
          [changes[1]!.eventId, changes[2]!.eventId].sort(),
        );
      });

      it('still fails whole on a missing target not marked skipIfMissing', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        await expect(
          store.applyWeightChanges(
            WS,
            [{ ...edgeChange(ab.id, delta(0.1)), skipIfMissing: true }, edgeChange(newId(), delta(0.1))],
            BOUNDS,
            T1,
          ),
        ).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.5, 10);
        expect(await inspect.rawWeightEvents(WS)).toEqual([]);
      });

      it("applies a delta to a memory's own weight", async () => {
        const g = await seed(chain);
        const change = memoryChange(g.id('a'), delta(0.25), { source: 'AGENT' });
        const [applied] = await store.applyWeightChanges(WS, [change], BOUNDS, T1);
        expect(applied?.memory?.id).toBe(g.id('a'));
        expect(applied?.memory?.weight).toBeCloseTo(0.75, 10);
        expect(applied?.edge).toBeNull();
        expect(applied?.event).toMatchObject({ memoryId: g.id('a'), edgeId: null, source: 'AGENT' });
        expect((await inspect.rawMemory(WS, g.id('a')))?.weight).toBeCloseTo(0.75, 10);
      });

      it('sets an absolute value and records the difference as the delta', async () => {
        const g = await seed(chain);
        const cd = g.edge('c', 'd');
        const [applied] = await store.applyWeightChanges(
          WS,
          [edgeChange(cd.id, set(0.25), { source: 'MANUAL' })],
          BOUNDS,
          T1,
        );
        expect(applied?.previousWeight).toBeCloseTo(0.7, 10);
        expect(applied?.newWeight).toBeCloseTo(0.25, 10);
        expect(applied?.event.delta).toBeCloseTo(-0.45, 10);
        expect(await weightOf(WS, cd.id)).toBeCloseTo(0.25, 10);
      });

      it('clamps at the floor and ceiling and records the change actually made', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const de = g.edge('d', 'e');
        const [down, up] = await store.applyWeightChanges(
          WS,
          [edgeChange(ab.id, delta(-0.9)), edgeChange(de.id, delta(0.9))],
          BOUNDS,
          T1,
        );
        expect(down?.newWeight).toBe(0);
        expect(down?.event.delta).toBeCloseTo(-0.5, 10);
        expect(up?.newWeight).toBe(1);
        expect(up?.event.delta).toBeCloseTo(0.2, 10);
        expect(await weightOf(WS, ab.id)).toBe(0);
        expect(await weightOf(WS, de.id)).toBe(1);
      });

      it('keeps a weakened edge at the floor instead of deleting it', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        await store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-1))], BOUNDS, T1);
        expect(await inspect.rawEdge(WS, ab.id)).toMatchObject({ weight: 0 });
      });

      it('clamps to the bounds it is given, not numbers of its own', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const bc = g.edge('b', 'c');
        const bounds = { floor: 0.2, ceiling: 0.65 };
        const [down, up, setHigh] = await store.applyWeightChanges(
          WS,
          [edgeChange(ab.id, delta(-0.9)), edgeChange(bc.id, delta(0.3)), memoryChange(g.id('a'), set(0.95))],
          bounds,
          T1,
        );
        expect(down?.newWeight).toBeCloseTo(0.2, 10);
        expect(up?.newWeight).toBeCloseTo(0.65, 10);
        expect(setHigh?.newWeight).toBeCloseTo(0.65, 10);
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.2, 10);
        expect(await weightOf(WS, bc.id)).toBeCloseTo(0.65, 10);
      });

      it('writes one event per change and answers in change order', async () => {
        const g = await seed(chain);
        const before = await inspect.countRows('weight_events', WS);
        const changes = [
          edgeChange(g.edge('a', 'b').id, delta(0.1)),
          memoryChange(g.id('e'), delta(-0.1)),
          edgeChange(g.edge('c', 'd').id, set(0.1)),
        ];
        const applied = await store.applyWeightChanges(WS, changes, BOUNDS, T1);
        expect(applied.map((change) => change.event.id)).toEqual(changes.map((change) => change.eventId));
        expect(await inspect.countRows('weight_events', WS)).toBe(before + 3);
      });

      it('applies two changes to one edge in one batch one after the other', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const [first, second] = await store.applyWeightChanges(
          WS,
          [edgeChange(ab.id, delta(0.1)), edgeChange(ab.id, delta(0.1))],
          BOUNDS,
          T1,
        );
        expect(first?.previousWeight).toBeCloseTo(0.5, 10);
        expect(first?.newWeight).toBeCloseTo(0.6, 10);
        expect(second?.previousWeight).toBeCloseTo(0.6, 10);
        expect(second?.newWeight).toBeCloseTo(0.7, 10);
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.7, 10);
      });

      it('returns an empty list for no changes', async () => {
        expect(await store.applyWeightChanges(WS, [], BOUNDS, T1)).toEqual([]);
      });

      it('marks the reverted event with revertedBy', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const weaken = edgeChange(ab.id, delta(-0.3));
        await store.applyWeightChanges(WS, [weaken], BOUNDS, T1);
        const revert = edgeChange(ab.id, set(0.5), {
          source: 'MANUAL',
          reason: 'revert',
          revertsEventId: weaken.eventId,
        });
        const [applied] = await store.applyWeightChanges(WS, [revert], BOUNDS, T2);
        expect(applied?.newWeight).toBeCloseTo(0.5, 10);
        expect(applied?.event.revertedBy).toBeNull();
        const [original, reverting] = await store.getWeightEvents(WS, [weaken.eventId, revert.eventId]);
        expect(original?.revertedBy).toBe(revert.eventId);
        expect(reverting?.revertedBy).toBeNull();
        const raw = (await inspect.rawWeightEvents(WS)).find((event) => event.id === weaken.eventId);
        expect(raw?.revertedBy).toBe(revert.eventId);
      });

      it('rejects reverting an event twice with CONFLICT and changes nothing', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const weaken = edgeChange(ab.id, delta(-0.3));
        await store.applyWeightChanges(WS, [weaken], BOUNDS, T1);
        const firstRevert = edgeChange(ab.id, set(0.5), { source: 'MANUAL', revertsEventId: weaken.eventId });
        await store.applyWeightChanges(WS, [firstRevert], BOUNDS, T2);
        const before = { edges: await inspect.rawEdges(WS), events: await inspect.rawWeightEvents(WS) };
        const secondRevert = edgeChange(ab.id, set(0.5), { source: 'MANUAL', revertsEventId: weaken.eventId });
        await expectCode(
          store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-0.1)), secondRevert], BOUNDS, T3),
          'CONFLICT',
        );
        expect(await inspect.rawEdges(WS)).toEqual(before.edges);
        expect(await inspect.rawWeightEvents(WS)).toEqual(before.events);
      });

      it('rejects reverting a missing event with CONFLICT and changes nothing', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const before = { edges: await inspect.rawEdges(WS), events: await inspect.rawWeightEvents(WS) };
        await expectCode(
          store.applyWeightChanges(WS, [edgeChange(ab.id, set(0.9), { revertsEventId: newId() })], BOUNDS, T1),
          'CONFLICT',
        );
        expect(await inspect.rawEdges(WS)).toEqual(before.edges);
        expect(await inspect.rawWeightEvents(WS)).toEqual(before.events);
      });

      it('cannot revert an event of another workspace', async () => {
        const there = await seed(chain, OTHER);
        const theirs = edgeChange(there.edge('a', 'b').id, delta(-0.3));
        await store.applyWeightChanges(OTHER, [theirs], BOUNDS, T1);
        const here = await seed(chain);
        const revert = edgeChange(here.edge('a', 'b').id, set(0.5), { revertsEventId: theirs.eventId });
        await expectCode(store.applyWeightChanges(WS, [revert], BOUNDS, T2), 'CONFLICT');
        expect(
          (await inspect.rawWeightEvents(OTHER)).find((event) => event.id === theirs.eventId)?.revertedBy,
        ).toBeNull();
        expect((await inspect.rawWeightEvents(WS)).map((event) => event.id)).not.toContain(revert.eventId);
      });

      it('fails with NOT_FOUND and changes nothing when one edge target is missing', async () => {
        const g = await seed(chain);
        const before = { edges: await inspect.rawEdges(WS), events: await inspect.rawWeightEvents(WS) };
        const memoryBefore = await inspect.rawMemory(WS, g.id('a'));
        await expectCode(
          store.applyWeightChanges(
            WS,
            [
              edgeChange(g.edge('a', 'b').id, delta(-0.2)),
              memoryChange(g.id('a'), delta(0.2)),
              edgeChange(newId(), delta(-0.2)),
            ],
            BOUNDS,
            T1,
          ),
          'NOT_FOUND',
        );
        expect(await inspect.rawEdges(WS)).toEqual(before.edges);
        expect(await inspect.rawWeightEvents(WS)).toEqual(before.events);
        expect(await inspect.rawMemory(WS, g.id('a'))).toEqual(memoryBefore);
      });

      it('fails with NOT_FOUND and changes nothing when a memory target is missing', async () => {
        const g = await seed(chain);
        const before = { edges: await inspect.rawEdges(WS), events: await inspect.rawWeightEvents(WS) };
        await expectCode(
          store.applyWeightChanges(
            WS,
            [edgeChange(g.edge('a', 'b').id, delta(-0.2)), memoryChange(newId(), delta(0.2))],
            BOUNDS,
            T1,
          ),
          'NOT_FOUND',
        );
        expect(await inspect.rawEdges(WS)).toEqual(before.edges);
        expect(await inspect.rawWeightEvents(WS)).toEqual(before.events);
      });

      it('cannot change a weight of another workspace', async () => {
        const g = await seed(chain, OTHER);
        const ab = g.edge('a', 'b');
        const eventsThere = await inspect.countRows('weight_events', OTHER);
        await expectCode(store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-0.3))], BOUNDS, T1), 'NOT_FOUND');
        await expectCode(store.applyWeightChanges(WS, [memoryChange(g.id('a'), delta(-0.3))], BOUNDS, T1), 'NOT_FOUND');
        expect(await weightOf(OTHER, ab.id)).toBe(0.5);
        expect((await inspect.rawMemory(OTHER, g.id('a')))?.weight).toBe(POLICY.defaultMemoryWeight);
        expect(await inspect.countRows('weight_events', OTHER)).toBe(eventsThere);
        expect(await inspect.countRows('weight_events', WS)).toBe(0);
      });

      it('loses no update under 50 concurrent deltas on one edge', async () => {
        const g = await seed(chain);
        const ab = g.edge('a', 'b');
        const seeded = new Set((await inspect.rawWeightEvents(WS)).map((event) => event.id));
        const before = seeded.size;
        const changes = Array.from({ length: 50 }, () => edgeChange(ab.id, delta(-0.005), { source: 'AGENT' }));
        const applied = await Promise.all(changes.map((change) => store.applyWeightChanges(WS, [change], BOUNDS, T1)));
        expect(applied).toHaveLength(50);
        expect(await weightOf(WS, ab.id)).toBeCloseTo(0.25, 9);
        expect(await inspect.countRows('weight_events', WS)).toBe(before + 50);
        const listed = await store.listWeightEvents(WS, eventFilter({ edgeId: ab.id, limit: 100 }));
        const events = listed.filter((event) => !seeded.has(event.id));
        expect(sortedIds(events.map((event) => event.id))).toEqual(sortedIds(changes.map((change) => change.eventId)));
        const olds = byId(events).map((event) => event.old);
        expect(new Set(olds.map((old) => old.toFixed(6))).size).toBe(50);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('workspace isolation', () => {
      it('keeps two workspaces with the same fixture fully apart', async () => {
        const here = await seed(chain, WS);
        const there = await seed(chain, OTHER);
        await store.applyWeightChanges(OTHER, [edgeChange(there.edge('a', 'b').id, delta(0.2))], BOUNDS, T1);
        expect((await store.getMemories(WS, ['chain-a']))[0]?.id).toBe(here.id('a'));
        expect((await store.getMemories(OTHER, ['chain-a']))[0]?.id).toBe(there.id('a'));
        expect(await weightOf(WS, here.edge('a', 'b').id)).toBe(0.5);
        expect(await store.listWeightEvents(WS, eventFilter({ source: 'CONSCIOUS' }))).toEqual([]);
        const sources: AdjustmentSource[] = ['AGENT', 'CONSCIOUS', 'MANUAL'];
        for (const source of sources) {
          const events = await store.listWeightEvents(WS, eventFilter({ source }));
          expect(events.every((event) => event.edgeId !== there.edge('a', 'b').id)).toBe(true);
        }
      });
    });
  });
}
