import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acknowledged,
  createServerPool,
  type EngramServer,
  failureOf,
  type HttpGraphQLResponse,
} from '../helpers/process.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id title } }`;
const LINK = `mutation ($input: LinkInput!) { link(input: $input) { id from { id } to { id } } }`;
const MEMORIES = `query ($ids: [ID!]!) { memories(ids: $ids) { id title } }`;

const WORKERS = 8;

interface Acknowledged {
  memories: Map<string, string>;
  edges: Map<string, { from: string; to: string }>;
}

interface Stream {
  acked: Acknowledged;
  /** Requests that never got an answer because the process died under them. */
  networkFailures: number;
  /** Any other non-acknowledged answer before the kill: should never happen. */
  errors: string[];
  /** Resolves once every worker has stopped. */
  done: Promise<void>;
}

/**
 * WORKERS clients, each in a loop: create a memory (client-chosen id), then link it to an earlier
 * acknowledged memory. A write counts as acknowledged only once its 200 response with data is read.
 * A worker stops at its first failed request (the server is gone).
 */
function writeStream(server: EngramServer, trial: number, rootId: string): Stream {
  const acked: Acknowledged = { memories: new Map([[rootId, 'root']]), edges: new Map() };
  const stream: Stream = { acked, networkFailures: 0, errors: [], done: Promise.resolve() };
  const ackedIds: string[] = [rootId];
  const fail = (response: HttpGraphQLResponse) => {
    if (response.networkError) stream.networkFailures += 1;
    else stream.errors.push(failureOf(response).join(', '));
  };
  const worker = async (w: number) => {
    for (let i = 0; ; i++) {
      const id = `t${trial}-w${w}-${i}`;
      const title = `trial ${trial} worker ${w} item ${i}`;
      const created = await server.gql(CREATE, { input: { id, title, tags: ['kill9'] } });
      if (!acknowledged(created)) return fail(created);
      acked.memories.set(created.data?.createMemory.id, created.data?.createMemory.title);
      ackedIds.push(id);
      const to = ackedIds[(i * 7919 + w * 31) % (ackedIds.length - 1)] as string;
      const linked = await server.gql(LINK, { input: { from: id, to, type: 'CITES' } });
      if (!acknowledged(linked)) return fail(linked);
      acked.edges.set(linked.data?.link.id, { from: linked.data?.link.from.id, to: linked.data?.link.to.id });
    }
  };
  stream.done = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w))).then(() => undefined);
  return stream;
}

/**
 * Three kill/restart trials, one after the other on ONE file: each trial kills the server that
 * recovered the previous crash, so recovery is exercised on a file that was itself recovered, and
 * every check covers the writes acknowledged in all trials so far.
 */
describe('SIGKILL while writes are in flight', () => {
  const pool = createServerPool();
  let dbPath: string;
  /** The server the next trial kills: the one that recovered the previous trial's crash. */
  let current: EngramServer | undefined;
  const everAcked: Acknowledged = { memories: new Map(), edges: new Map() };

  beforeAll(() => {
    dbPath = join(pool.tempDir(), 'engram.db');
  });
  afterAll(async () => {
    await pool.cleanup();
  }, 30_000);

  it.each([
    { trial: 1, killAfter: 40 },
    { trial: 2, killAfter: 120 },
    { trial: 3, killAfter: 250 },
  ])(
    'keeps every acknowledged write and a sound file (trial $trial, kill after ~$killAfter writes)',
    async ({ trial, killAfter }) => {
      const first = current ?? (await pool.start({ dbPath }));
      current = undefined;
      const root = await first.gql(CREATE, { input: { id: `t${trial}-root`, title: 'root' } });
      expect(acknowledged(root)).toBe(true);

      const stream = writeStream(first, trial, `t${trial}-root`);
      const deadline = Date.now() + 20_000;
      while (stream.acked.memories.size + stream.acked.edges.size < killAfter && Date.now() < deadline) await sleep(2);
      const exit = await first.kill('SIGKILL');
      await stream.done;
      for (const [id, title] of stream.acked.memories) everAcked.memories.set(id, title);
      for (const [id, ends] of stream.acked.edges) everAcked.edges.set(id, ends);

      expect(exit.signal).toBe('SIGKILL');
      expect(stream.errors).toEqual([]);
      // Mid-stream: at least one request was in flight when the process died.
      expect(stream.networkFailures).toBeGreaterThan(0);
      expect(stream.acked.memories.size + stream.acked.edges.size).toBeGreaterThanOrEqual(killAfter);
      // The kill left the write-ahead log behind; the restart must recover it by itself.
      expect(existsSync(`${dbPath}-wal`)).toBe(true);
      expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);
      expect(existsSync(`${dbPath}-shm`)).toBe(true);

      const second = await pool.start({ dbPath });
      current = second;

      const memoryIds = [...everAcked.memories.keys()];
      for (let offset = 0; offset < memoryIds.length; offset += 100) {
        const ids = memoryIds.slice(offset, offset + 100);
        const read = await second.gql(MEMORIES, { ids });
        expect(read.errors).toBeUndefined();
        const found = read.data?.memories as ({ id: string; title: string } | null)[];
        expect(found.map((memory) => memory?.id ?? null)).toEqual(ids);
        for (const memory of found) expect(memory?.title).toBe(everAcked.memories.get(memory?.id as string));
      }

      const edgeIds = [...everAcked.edges.keys()];
      for (let offset = 0; offset < edgeIds.length; offset += 10) {
        const ids = edgeIds.slice(offset, offset + 10);
        const fields = ids.map((_, index) => `e${index}: edge(id: $e${index}) { id from { id } to { id } }`).join('\n');
        const params = ids.map((_, index) => `$e${index}: ID!`).join(', ');
        const read = await second.gql(
          `query (${params}) { ${fields} }`,
          Object.fromEntries(ids.map((id, index) => [`e${index}`, id])),
        );
        expect(read.errors).toBeUndefined();
        ids.forEach((id, index) => {
          const edge = read.data?.[`e${index}`] as { id: string; from: { id: string }; to: { id: string } } | null;
          expect(edge, `acknowledged edge ${id}`).not.toBeNull();
          expect({ from: edge?.from.id, to: edge?.to.id }).toEqual(everAcked.edges.get(id));
        });
      }

      const db = new Database(dbPath, { fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        const orphans = db
          .prepare(
            `SELECT COUNT(*) AS n FROM edges e
           WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.from_id)
              OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.workspace = e.workspace AND m.id = e.to_id)`,
          )
          .get() as { n: number };
        expect(orphans.n).toBe(0);
        // The full-text index (external content) still matches the memories table.
        expect(() =>
          db.prepare(`INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')`).run(),
        ).not.toThrow();
        // Writes that were in flight are whole or absent: every stored memory of the stream has its full row.
        const stored = db.prepare(`SELECT id, title FROM memories WHERE id LIKE ?`).all(`t${trial}-w%`) as {
          id: string;
          title: string;
        }[];
        for (const row of stored) {
          const [, worker, item] = row.id.split('-');
          expect(row.title).toBe(`trial ${trial} worker ${worker?.slice(1)} item ${item}`);
        }
        expect(stored.length).toBeGreaterThanOrEqual(stream.acked.memories.size - 1);
      } finally {
        db.close();
      }

      const search = await second.gql(`query ($q: String!) { searchMemories(query: $q, limit: 5) { id } }`, {
        q: `trial ${trial}`,
      });
      expect(search.errors).toBeUndefined();
      expect(search.data?.searchMemories.length).toBe(5);
    },
    90_000,
  );
});
