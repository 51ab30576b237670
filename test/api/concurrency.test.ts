import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type GraphQLResponse, type TestApp } from '../helpers/app.js';
import {
  acknowledged,
  createServerPool,
  type EngramServer,
  failureOf,
  type HttpGraphQLResponse,
} from '../helpers/process.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }`;
const LINK = `mutation ($input: LinkInput!) { link(input: $input) { id weight } }`;
const SET_WEIGHT = `mutation ($id: ID!, $weight: Float!) { setEdgeWeight(id: $id, weight: $weight) { newWeight } }`;
const WEAKEN = `mutation ($from: ID!, $to: ID!) {
  weaken(from: $from, to: $to, type: "CAUSED_BY", amount: 0.01) { previousWeight newWeight event { id source } }
}`;
const EDGE = `query ($id: ID!) { edge(id: $id) { weight } weightEvents(edgeId: $id, source: CONSCIOUS, limit: 100) { id old new } }`;

type Run = (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse | HttpGraphQLResponse>;

/** Two memories joined by a CAUSED_BY edge whose weight was set to 1.0. */
async function seedEdge(run: Run): Promise<{ from: string; to: string; edgeId: string }> {
  const from = await run(CREATE, { input: { title: 'cause' } });
  const to = await run(CREATE, { input: { title: 'effect' } });
  expect(from.errors).toBeUndefined();
  expect(to.errors).toBeUndefined();
  const ids = { from: from.data?.createMemory.id as string, to: to.data?.createMemory.id as string };
  const linked = await run(LINK, { input: { ...ids, type: 'CAUSED_BY' } });
  expect(linked.errors).toBeUndefined();
  const edgeId = linked.data?.link.id as string;
  const set = await run(SET_WEIGHT, { id: edgeId, weight: 1.0 });
  expect(set.data?.setEdgeWeight.newWeight).toBe(1.0);
  return { ...ids, edgeId };
}

/**
 * Fires `count` weakens of 0.01 at once and checks nothing was lost: every call succeeded, the
 * weight fell by exactly count x 0.01, and the events form one unbroken chain (no two calls read
 * the same old weight, which is what a lost update looks like).
 */
async function expectNoLostWeakens(
  run: Run,
  edge: { from: string; to: string; edgeId: string },
  count: number,
  start = 1.0,
) {
  const responses = await Promise.all(
    Array.from({ length: count }, () => run(WEAKEN, { from: edge.from, to: edge.to })),
  );
  const failures = responses.filter((response) => !acknowledged(response));
  expect(failures.map((response) => failureOf(response as HttpGraphQLResponse))).toEqual([]);

  const after = await run(EDGE, { id: edge.edgeId });
  expect(after.data?.edge.weight).toBeCloseTo(start - count * 0.01, 10);
  const events = after.data?.weightEvents as { id: string; old: number; new: number }[];
  expect(events).toHaveLength(count);
  const olds = events.map((event) => event.old).sort((a, b) => b - a);
  expect(new Set(olds.map((old) => old.toFixed(10))).size).toBe(count);
  for (const [index, old] of olds.entries()) expect(old).toBeCloseTo(start - index * 0.01, 10);
  const acknowledgedNew = responses.map((response) => response.data?.weaken.newWeight as number).sort((a, b) => a - b);
  for (const [index, weight] of acknowledgedNew.entries()) {
    expect(weight).toBeCloseTo(start - (count - index) * 0.01, 10);
  }
}

/** Reads the SQLite file with its own connection, bypassing the server. */
function countRows(dbPath: string, sql: string, ...params: unknown[]): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('concurrent writes in one process (yoga.fetch)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });
  const run: Run = (query, variables) => t.gql(query, variables);

  it('applies 50 parallel weakens of one edge without losing an update', async () => {
    const edge = await seedEdge(run);
    await expectNoLostWeakens(run, edge, 50);
    expect(
      countRows(
        t.dbPath,
        `SELECT COUNT(*) AS n FROM weight_events WHERE edge_id = ? AND source = 'CONSCIOUS'`,
        edge.edgeId,
      ),
    ).toBe(50);
    expect(countRows(t.dbPath, `SELECT COUNT(*) AS n FROM weight_events WHERE edge_id = ?`, edge.edgeId)).toBe(51);
  });

  it('makes exactly one edge from 30 parallel identical links, and every response names it', async () => {
    const a = await run(CREATE, { input: { title: 'a' } });
    const b = await run(CREATE, { input: { title: 'b' } });
    const input = { from: a.data?.createMemory.id, to: b.data?.createMemory.id, type: 'CAUSED_BY' };
    const responses = await Promise.all(Array.from({ length: 30 }, () => run(LINK, { input })));
    expect(responses.flatMap((response) => response.errors ?? [])).toEqual([]);
    const ids = new Set(responses.map((response) => response.data?.link.id));
    expect(ids.size).toBe(1);
    expect(countRows(t.dbPath, `SELECT COUNT(*) AS n FROM edges`)).toBe(1);
    expect(countRows(t.dbPath, `SELECT COUNT(*) AS n FROM edges WHERE id = ?`, [...ids][0])).toBe(1);
  });
});

describe('concurrent writes over a real socket (server child process)', () => {
  const pool = createServerPool();
  let server: EngramServer;
  let dbPath: string;
  beforeAll(async () => {
    dbPath = join(pool.tempDir(), 'engram.db');
    server = await pool.start({ dbPath });
  }, 90_000);
  afterAll(async () => {
    await pool.cleanup();
  }, 30_000);
  const run: Run = (query, variables) => server.gql(query, variables);

  it('applies 50 concurrent HTTP weakens of one edge without losing an update', async () => {
    const edge = await seedEdge(run);
    await expectNoLostWeakens(run, edge, 50);
    expect(
      countRows(
        dbPath,
        `SELECT COUNT(*) AS n FROM weight_events WHERE edge_id = ? AND source = 'CONSCIOUS'`,
        edge.edgeId,
      ),
    ).toBe(50);
    expect(countRows(dbPath, `SELECT weight AS n FROM edges WHERE id = ?`, edge.edgeId)).toBeCloseTo(0.5, 10);
  });

  it('makes exactly one edge from 30 concurrent HTTP links', async () => {
    const a = await run(CREATE, { input: { title: 'a' } });
    const b = await run(CREATE, { input: { title: 'b' } });
    const input = { from: a.data?.createMemory.id, to: b.data?.createMemory.id, type: 'CITES' };
    const responses = await Promise.all(Array.from({ length: 30 }, () => run(LINK, { input })));
    expect(
      responses
        .filter((response) => !acknowledged(response))
        .map((response) => failureOf(response as HttpGraphQLResponse)),
    ).toEqual([]);
    const ids = new Set(responses.map((response) => response.data?.link.id));
    expect(ids.size).toBe(1);
    expect(
      countRows(
        dbPath,
        `SELECT COUNT(*) AS n FROM edges WHERE from_id = ? AND to_id = ? AND type = 'CITES'`,
        input.from,
        input.to,
      ),
    ).toBe(1);
  });
});
