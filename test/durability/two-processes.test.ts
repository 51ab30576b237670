import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acknowledged,
  createServerPool,
  type EngramServer,
  failureOf,
  type HttpGraphQLResponse,
} from '../helpers/process.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }`;
const LINK = `mutation ($input: LinkInput!) { link(input: $input) { id } }`;
const SET_WEIGHT = `mutation ($id: ID!, $weight: Float!) { setEdgeWeight(id: $id, weight: $weight) { newWeight } }`;
const WEAKEN = `mutation ($from: ID!, $to: ID!) {
  weaken(from: $from, to: $to, type: "CAUSED_BY", amount: 0.01) { previousWeight newWeight }
}`;
const MEMORIES = `query ($ids: [ID!]!) { memories(ids: $ids) { id title } }`;
const EDGE = `query ($id: ID!) { edge(id: $id) { weight } weightEvents(edgeId: $id, source: CONSCIOUS, limit: 100) { old new } }`;

/** Every response that was not an acknowledged success, as "<server> <code>" lines. */
function failures(named: { server: string; response: HttpGraphQLResponse }[]): string[] {
  return named
    .filter(({ response }) => !acknowledged(response))
    .map(({ server, response }) => `${server}: ${failureOf(response).join(', ')}`);
}

function inFile<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const count = (db: Database.Database, sql: string, ...params: unknown[]) =>
  (db.prepare(sql).get(...params) as { n: number }).n;

/** Room for child start-up on a loaded machine; idle, each test takes a few seconds. */
const SLOW = 90_000;

describe('two server processes on one SQLite file', () => {
  const pool = createServerPool();
  let dbPath: string;
  let a: EngramServer;
  let b: EngramServer;

  beforeAll(async () => {
    dbPath = join(pool.tempDir(), 'shared.db');
    // Both start at once on a file that does not exist yet: migrations must not race.
    [a, b] = await Promise.all([pool.start({ dbPath }), pool.start({ dbPath })]);
  }, SLOW);
  afterAll(async () => {
    await pool.cleanup();
  }, SLOW);

  it(
    'accepts 100 concurrent creates and links from each, and each reads what the other wrote',
    async () => {
      const hub = await a.gql(CREATE, { input: { key: 'hub', title: 'shared hub' } });
      expect(hub.errors).toBeUndefined();
      const hubId = hub.data?.createMemory.id as string;

      const writeFrom = (server: EngramServer, name: string) =>
        Array.from({ length: 100 }, async (_, index) => {
          const created = await server.gql(CREATE, {
            input: { id: `${name}-${index}`, title: `${name} memory ${index}` },
          });
          const linked = acknowledged(created)
            ? await server.gql(LINK, { input: { from: `${name}-${index}`, to: 'hub', type: 'RELATED_TO' } })
            : created;
          return [
            { server: name, response: created },
            { server: name, response: linked },
          ];
        });
      const results = (await Promise.all([...writeFrom(a, 'a'), ...writeFrom(b, 'b')])).flat();
      expect(results).toHaveLength(400);
      expect(failures(results)).toEqual([]);

      const aIds = Array.from({ length: 100 }, (_, index) => `a-${index}`);
      const bIds = Array.from({ length: 100 }, (_, index) => `b-${index}`);
      const [aReadsB, bReadsA] = await Promise.all([a.gql(MEMORIES, { ids: bIds }), b.gql(MEMORIES, { ids: aIds })]);
      expect(aReadsB.errors).toBeUndefined();
      expect(bReadsA.errors).toBeUndefined();
      expect((aReadsB.data!.memories as ({ id: string } | null)[]).map((memory) => memory?.id)).toEqual(bIds);
      expect((bReadsA.data!.memories as ({ id: string } | null)[]).map((memory) => memory?.id)).toEqual(aIds);

      const degree = `query { memory(key: "hub") { degree(direction: INCOMING) } }`;
      const [degreeA, degreeB] = await Promise.all([a.gql(degree), b.gql(degree)]);
      expect(degreeA.data?.memory.degree).toBe(200);
      expect(degreeB.data?.memory.degree).toBe(200);

      inFile(dbPath, (db) => {
        expect(
          count(db, `SELECT COUNT(*) AS n FROM memories WHERE id LIKE 'a-%' OR id LIKE 'b-%' OR key = 'hub'`),
        ).toBe(201);
        expect(count(db, `SELECT COUNT(*) AS n FROM edges WHERE to_id = ?`, hubId)).toBe(200);
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      });
    },
    SLOW,
  );

  it(
    'makes one edge from 20 identical links sent to each process at once',
    async () => {
      const x = await a.gql(CREATE, { input: { id: 'x', title: 'x' } });
      const y = await b.gql(CREATE, { input: { id: 'y', title: 'y' } });
      expect([x.errors, y.errors]).toEqual([undefined, undefined]);
      const input = { from: 'x', to: 'y', type: 'SUPERSEDES' };
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, index) => {
          const server = index % 2 === 0 ? a : b;
          return { server: server === a ? 'a' : 'b', response: await server.gql(LINK, { input }) };
        }),
      );
      expect(failures(results)).toEqual([]);
      expect(new Set(results.map(({ response }) => response.data?.link.id)).size).toBe(1);
      inFile(dbPath, (db) =>
        expect(count(db, `SELECT COUNT(*) AS n FROM edges WHERE from_id = 'x' AND to_id = 'y'`)).toBe(1),
      );
    },
    SLOW,
  );

  it(
    'loses no update when each process applies 25 concurrent weakens to the same edge',
    async () => {
      await a.gql(CREATE, { input: { id: 'cause', title: 'cause' } });
      await b.gql(CREATE, { input: { id: 'effect', title: 'effect' } });
      const linked = await a.gql(LINK, { input: { from: 'cause', to: 'effect', type: 'CAUSED_BY' } });
      const edgeId = linked.data?.link.id as string;
      expect((await b.gql(SET_WEIGHT, { id: edgeId, weight: 1.0 })).data?.setEdgeWeight.newWeight).toBe(1.0);

      const results = await Promise.all(
        Array.from({ length: 50 }, async (_, index) => {
          const server = index % 2 === 0 ? a : b;
          return {
            server: server === a ? 'a' : 'b',
            response: await server.gql(WEAKEN, { from: 'cause', to: 'effect' }),
          };
        }),
      );
      expect(failures(results)).toEqual([]);

      for (const server of [a, b]) {
        const after = await server.gql(EDGE, { id: edgeId });
        expect(after.data?.edge.weight).toBeCloseTo(0.5, 10);
        const events = after.data?.weightEvents as { old: number }[];
        expect(events).toHaveLength(50);
        // A lost update shows as two events that started from the same old weight.
        const olds = events.map((event) => event.old).sort((p, q) => q - p);
        for (const [index, old] of olds.entries()) expect(old).toBeCloseTo(1.0 - index * 0.01, 10);
      }
      inFile(dbPath, (db) => {
        expect(
          count(db, `SELECT COUNT(*) AS n FROM weight_events WHERE edge_id = ? AND source = 'CONSCIOUS'`, edgeId),
        ).toBe(50);
        expect(
          (db.prepare(`SELECT weight FROM edges WHERE id = ?`).get(edgeId) as { weight: number }).weight,
        ).toBeCloseTo(0.5, 10);
      });
    },
    SLOW,
  );

  it(
    'feedback, reinforcement and weaken on one process never fail while the other unlinks and relinks the same edges',
    async () => {
      const ids = ['fb-center', ...Array.from({ length: 6 }, (_, i) => `fb-leaf-${i}`)];
      for (const id of ids) expect((await a.gql(CREATE, { input: { id, title: id } })).errors).toBeUndefined();
      const UNLINK = `mutation ($from: ID!, $to: ID!) { unlink(input: { from: $from, to: $to, type: "RELATED_TO" }) { removed } }`;
      const linkLeaf = (leaf: string) => b.gql(LINK, { input: { from: 'fb-center', to: leaf, type: 'RELATED_TO' } });
      for (const leaf of ids.slice(1)) expect((await linkLeaf(leaf)).errors).toBeUndefined();

      let churning = true;
      const churn = (async () => {
        // Unlinks and relinks the center's edges (each relink makes a new edge id) for as long as the feedback runs.
        for (let round = 0; churning; round++) {
          const leaf = ids[1 + (round % 6)] as string;
          expect(failureOf(await b.gql(UNLINK, { from: 'fb-center', to: leaf }))).toEqual([]);
          expect(failureOf(await linkLeaf(leaf))).toEqual([]);
        }
      })();
      const calls = Array.from({ length: 200 }, (_, index) => {
        const kind = index % 4;
        if (kind === 3)
          return a.gql(
            `mutation { reinforceCoRetrieval(ids: ["fb-center", "fb-leaf-1", "fb-leaf-2", "fb-leaf-3"]) { newWeight } }`,
          );
        if (kind === 2)
          return a.gql(
            `mutation { strengthen(from: "fb-center", to: "fb-leaf-${index % 6}", type: "RELATED_TO", amount: 0.001) { newWeight } }`,
          );
        return a.gql(
          `mutation { feedback(memoryId: "fb-center", signal: ${kind === 0 ? 'USED' : 'NOT_RELEVANT'}) { newWeight } }`,
        );
      });
      const settled = await Promise.all(calls);
      churning = false;
      await churn;
      // A strengthen may find its triple gone for good (unlinked and not yet relinked): NOT_FOUND naming the triple it was given is correct.
      const unexpected = settled.flatMap((response) =>
        failureOf(response).length === 0
          ? []
          : (response.errors ?? []).filter(
              (error) =>
                !(error.extensions?.code === 'NOT_FOUND' && /No RELATED_TO edge from "fb-center"/.test(error.message)),
            ),
      );
      expect(unexpected.map((error) => `${String(error.extensions?.code)}: ${error.message}`)).toEqual([]);
      expect(settled.filter((response) => response.networkError !== undefined)).toEqual([]);
    },
    SLOW,
  );

  it('logs no store error in either process', () => {
    const errors = (server: EngramServer) =>
      server
        .stderr()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
    expect([...errors(a), ...errors(b)]).toEqual([]);
  });
});
