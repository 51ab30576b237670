import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_TESTS } from '../helpers/full-tests.js';
import { acknowledged, createServerPool, type EngramServer } from '../helpers/process.js';

/**
 * 20 kill -9 trials during acknowledged writes (test/durability/kill9.test.ts runs 3 on every
 * run). Slow (one server start per trial), so it runs in `npm run test:full` (which CI runs) and
 * says so when skipped.
 */
const TRIALS = 20;
const LANES = 2;
const RUN = FULL_TESTS;
if (!RUN) {
  console.log(`[durability] SKIPPED: ${TRIALS} kill -9 trials run in npm run test:full (which CI runs)`);
}

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }`;
const LINK = `mutation ($input: LinkInput!) { link(input: $input) { id } }`;
const WEAKEN = `mutation ($from: ID!, $to: ID!) { weaken(from: $from, to: $to, type: "CITES", amount: 0.001) { newWeight event { id } } }`;

interface Acked {
  memories: Set<string>;
  edges: Map<string, { from: string; to: string }>;
  events: Set<string>;
}

const WRITERS = 6;
const countAcked = (acked: Acked) => acked.memories.size + acked.edges.size + acked.events.size;

/** WRITERS writers (create, link, weaken) until the server dies; only answered writes count. */
async function writeUntilKilled(
  server: EngramServer,
  trial: number,
  killAfter: number,
  acked: Acked,
  root: string,
): Promise<{ inFlightLost: number }> {
  let lost = 0;
  const total = () => countAcked(acked);
  const start = total();
  let dead = false;
  /** A write the kill cut off; one the server answered with an error is not lost, only refused. */
  const countLost = (response: { networkError?: unknown }) => {
    if (response.networkError) lost++;
  };
  const writer = async (w: number) => {
    for (let i = 0; !dead; i++) {
      const id = `t${trial}-w${w}-${i}`;
      const created = await server.gql(CREATE, { input: { id, title: id, content: 'c'.repeat(200) } });
      if (!acknowledged(created)) return countLost(created);
      acked.memories.add(id);
      const linked = await server.gql(LINK, { input: { from: id, to: root, type: 'CITES' } });
      if (!acknowledged(linked)) return countLost(linked);
      acked.edges.set(linked.data?.link.id, { from: id, to: root });
      const weakened = await server.gql(WEAKEN, { from: id, to: root });
      if (!acknowledged(weakened)) return countLost(weakened);
      acked.events.add(weakened.data?.weaken.event.id);
    }
  };
  const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const deadline = Date.now() + 15_000;
  while (total() - start < killAfter && Date.now() < deadline) await sleep(2);
  await server.kill('SIGKILL');
  dead = true;
  await writers;
  return { inFlightLost: lost };
}

function verify(dbPath: string, acked: Acked): void {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const has = (table: string, id: string) =>
      db.prepare(`SELECT 1 FROM ${table} WHERE workspace = 'default' AND id = ?`).get(id) !== undefined;
    for (const id of acked.memories) expect(has('memories', id), `memory ${id}`).toBe(true);
    for (const [id, edge] of acked.edges) {
      expect(
        db.prepare(`SELECT from_id AS "from", to_id AS "to" FROM edges WHERE id = ?`).get(id),
        `edge ${id}`,
      ).toEqual(edge);
    }
    for (const id of acked.events) expect(has('weight_events', id), `event ${id}`).toBe(true);
    const dangling = db
      .prepare(
        `SELECT COUNT(*) AS n FROM edges e WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.from_id)
           OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.to_id)`,
      )
      .get() as { n: number };
    expect(dangling.n).toBe(0);
  } finally {
    db.close();
  }
}

describe.runIf(RUN)(`durability: ${TRIALS} kill -9 trials during acknowledged writes`, () => {
  const pool = createServerPool();
  afterAll(() => pool.cleanup());

  it(`keeps every acknowledged write, a sound file, and no dangling edge (${LANES} lanes in parallel)`, {
    timeout: 600_000,
  }, async () => {
    const verifiedTrials: number[] = [];
    const lane = async (lane: number) => {
      const dbPath = join(pool.tempDir(), 'engram.db');
      const acked: Acked = { memories: new Set(), edges: new Map(), events: new Set() };
      let server = await pool.start({ dbPath });
      const root = `root-${lane}`;
      expect(acknowledged(await server.gql(CREATE, { input: { id: root, title: 'root' } }))).toBe(true);
      acked.memories.add(root);
      for (let trial = lane; trial < TRIALS; trial += LANES) {
        const killAfter = 15 + ((trial * 37) % 100);
        const ackedBefore = countAcked(acked);
        const { inFlightLost } = await writeUntilKilled(server, trial, killAfter, acked, root);
        // The kill came only after the writes it waited for, with at most one write in flight per writer.
        expect(countAcked(acked) - ackedBefore).toBeGreaterThanOrEqual(killAfter);
        expect(inFlightLost).toBeLessThanOrEqual(WRITERS);
        // The kill left a write-ahead log: the restart must recover it by itself.
        expect(existsSync(`${dbPath}-wal`)).toBe(true);
        server = await pool.start({ dbPath });
        verify(dbPath, acked);
        verifiedTrials.push(trial);
      }
      await server.kill('SIGTERM');
      verify(dbPath, acked);
    };
    await Promise.all(Array.from({ length: LANES }, (_, lane) => lane).map(lane));
    expect(verifiedTrials.sort((a, b) => a - b)).toEqual(Array.from({ length: TRIALS }, (_, trial) => trial));
  });
});

describe.skipIf(RUN)('durability: 20 kill -9 trials', () => {
  it.skip('runs in npm run test:full (see the [durability] line above)', () => {});
});
