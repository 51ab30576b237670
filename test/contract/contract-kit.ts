import { afterEach, beforeEach, expect } from 'vitest';
import { DEFAULT_RECALL_SETTINGS, type QueryLimits, type RecallSettings } from '../../src/config.js';
import { EngramError, type ErrorCode } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import type { EdgeRecord, Json, MemoryRecord, NewMemory, WeightEventRecord } from '../../src/domain/types.js';
import type { WeightChangeRequest, WeightOperation } from '../../src/domain/weights.js';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import type { EngramContext } from '../../src/graphql/context.js';
import { createLoaders } from '../../src/loaders/index.js';
import type { RecallInput } from '../../src/services/recall/recall.js';
import type {
  AdjacencyQuery,
  DegreeQuery,
  FrontierQuery,
  GraphStore,
  LinkRequest,
  SearchQuery,
  WeightEventFilter,
} from '../../src/store/port.js';
import { createWorkMeter } from '../../src/store/work-budget.js';
import { type GraphFixture, type SeededGraph, seedGraph } from '../fixtures/graphs.js';

/** What the backend holds, read directly (not through the port), so the suite can check what was stored. */
export interface StoreInspector {
  countRows(kind: 'memories' | 'edges' | 'weight_events' | 'recall_cues', workspace: string): Promise<number>;
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

interface StoreUnderTest {
  store: GraphStore;
  inspect: StoreInspector;
  cleanup(): Promise<void>;
}

export interface StoreHarness {
  /** A fresh, empty, migrated store and an inspector reading the same backend. */
  create(): Promise<StoreUnderTest>;
  /**
   * Whether the store offers the optional one-call shortestPath. Declared rather than detected, so
   * the suite checks the declaration and runs the shortestPath cases only where they apply (the live
   * Neo4j run counts a skipped test as a failure).
   */
  readonly offersShortestPath: boolean;
}

export const WS = 'ws-a';
export const OTHER = 'ws-b';
// Later than the wall-clock times seedGraph uses, so what a test writes at T1..T4 is the newest.
export const T0 = '2099-01-01T00:00:00.000Z';
export const T1 = '2099-01-01T00:00:01.000Z';
export const T2 = '2099-01-01T00:00:02.000Z';
export const T3 = '2099-01-01T00:00:03.000Z';
export const T4 = '2099-01-01T00:00:04.000Z';
export const POLICY = DEFAULT_WEIGHT_POLICY;
export const THRESHOLD = POLICY.pruneThreshold;
export const BOUNDS = { floor: POLICY.floor, ceiling: POLICY.ceiling };

export const adjacency = (query: Partial<AdjacencyQuery> = {}): AdjacencyQuery => ({
  direction: 'BOTH',
  types: null,
  minWeight: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  limitPerMemory: null,
  ...query,
});

export const degree = (query: Partial<DegreeQuery> = {}): DegreeQuery => ({
  direction: 'BOTH',
  types: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  ...query,
});

export const frontier = (query: Partial<FrontierQuery> = {}): FrontierQuery => ({
  direction: 'BOTH',
  types: null,
  pruneThreshold: THRESHOLD,
  budget: 100,
  ...query,
});

export const search = (text: string, query: Partial<Omit<SearchQuery, 'text'>> = {}): SearchQuery => ({
  text,
  kinds: null,
  tags: null,
  limit: 20,
  currentOnly: false,
  pruneThreshold: THRESHOLD,
  ...query,
});

export const eventFilter = (filter: Partial<WeightEventFilter> = {}): WeightEventFilter => ({
  edgeId: null,
  memoryId: null,
  source: null,
  limit: 50,
  ...filter,
});

export const newMemory = (fields: Partial<NewMemory> = {}): NewMemory => ({
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

export const linkRequest = (
  fromId: string,
  toId: string,
  type: string,
  fields: Partial<LinkRequest> = {},
): LinkRequest => ({
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

export const edgeChange = (
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

export const memoryChange = (
  id: string,
  operation: WeightOperation,
  fields: Partial<Omit<WeightChangeRequest, 'target' | 'operation'>> = {},
): WeightChangeRequest => ({ ...edgeChange(id, operation, fields), target: { kind: 'memory', id } });

export const delta = (value: number): WeightOperation => ({ kind: 'delta', delta: value });
export const set = (value: number): WeightOperation => ({ kind: 'set', value });

export const byId = <T extends { id: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
export const sortedIds = (ids: readonly string[]): string[] => [...ids].sort();

/** Resolves to the error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

/**
 * A target's weight history, newest first, reads as one chain: each event starts where the one
 * before it in time ended, and the newest ends at the weight the target has.
 */
export function expectOneChain(history: readonly WeightEventRecord[], weight: number | undefined): void {
  expect(history.slice(1).map((older) => older.new.toFixed(9))).toEqual(
    history.slice(0, -1).map((newer) => newer.old.toFixed(9)),
  );
  expect(history[0]?.new).toBeCloseTo(weight as number, 10);
}

export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(EngramError);
  expect((error as EngramError).code).toBe(code);
}

/**
 * What every case file gets: the store and inspector of the current test (a fresh pair per test,
 * made by the harness) and shorthands that act on them in workspace WS at time T0 by default.
 */
export interface ContractContext {
  readonly store: GraphStore;
  readonly inspect: StoreInspector;
  seed(fixture: GraphFixture, workspace?: string): Promise<SeededGraph>;
  createMemory(fields?: Partial<NewMemory>, workspace?: string, now?: string): Promise<MemoryRecord>;
  link(
    fromId: string,
    toId: string,
    type: string,
    fields?: Partial<LinkRequest>,
    workspace?: string,
    now?: string,
  ): Promise<{ edge: EdgeRecord; created: boolean }>;
  /** The weight the backend holds for an edge, read directly. */
  weightOf(workspace: string, edgeId: string): Promise<number | undefined>;
}

/** Registers a fresh store per test (and its cleanup) in the enclosing describe. */
export function useStoreUnderTest(harness: StoreHarness): ContractContext {
  let current: StoreUnderTest | null = null;
  const under = (): StoreUnderTest => {
    if (!current) throw new Error('the contract store exists only inside a test');
    return current;
  };

  beforeEach(async () => {
    current = await harness.create();
  });

  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });

  return {
    get store() {
      return under().store;
    },
    get inspect() {
      return under().inspect;
    },
    seed: (fixture, workspace = WS) => seedGraph(under().store, workspace, fixture),
    createMemory: (fields = {}, workspace = WS, now = T0) =>
      under().store.createMemory(workspace, newMemory(fields), now),
    link: (fromId, toId, type, fields = {}, workspace = WS, now = T0) =>
      under().store.linkEdge(workspace, linkRequest(fromId, toId, type, fields), now),
    weightOf: async (workspace, edgeId) => (await under().inspect.rawEdge(workspace, edgeId))?.weight,
  };
}

/** A fresh per-request context over `store` in WS, as the GraphQL layer makes it, for running recall itself. */
export const recallContext = (store: GraphStore, recall: RecallSettings = DEFAULT_RECALL_SETTINGS): EngramContext => ({
  workspace: WS,
  store,
  loaders: createLoaders(store, WS),
  policy: POLICY,
  limits: { walkBudget: 10_000, feedbackMaxEdges: 1_000 } as QueryLimits,
  work: createWorkMeter(100_000),
  strictTypes: false,
  recall,
});

/** recall's input with its defaults (limit 10, maxDepth 2), as the schema fills them in. */
export const recallInput = (fields: Partial<RecallInput>): RecallInput => ({
  query: null,
  seeds: null,
  embedding: null,
  limit: 10,
  maxDepth: 2,
  types: null,
  minWeight: null,
  currentOnly: false,
  ...fields,
});

/** The log recall is given: a record that cannot be stored fails the test. */
export const failOnLog = (error: unknown) => {
  throw error;
};
