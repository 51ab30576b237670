import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { acknowledged, createServerPool } from '../helpers/process.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }`;

/**
 * The disk fills up under a running server: `prlimit --fsize` caps how far the process may write
 * into any file (writes past it fail with EFBIG, which SQLite reports as an I/O error, as on a full
 * disk). Mutations must fail with a coded, retryable error and change nothing; reads go on; after a
 * restart with room again, every acknowledged write is there and the file is sound.
 */
describe('disk full under a running server', () => {
  const pool = createServerPool();
  afterAll(() => pool.cleanup());

  it('fails writes with UNAVAILABLE, keeps reads working, and loses or corrupts nothing', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath });
    const acked: string[] = [];
    const written = new Map<string, { title: string; content: string }>();
    for (let i = 0; i < 20; i++) {
      const input = { id: `before-${i}`, title: `before ${i}`, content: 'x'.repeat(4000) };
      written.set(input.id, { title: input.title, content: input.content });
      const created = await server.gql(CREATE, { input });
      expect(acknowledged(created)).toBe(true);
      acked.push(`before-${i}`);
    }
    const link = await server.gql(
      `mutation { link(input: { from: "before-0", to: "before-1", type: "CITES" }) { id } }`,
    );
    expect(acknowledged(link)).toBe(true);

    // Room for a few writes: one 8 KB memory adds about 64 KB of WAL frames (its pages, indexes and FTS).
    const limit = Math.max(statSync(dbPath).size, statSync(`${dbPath}-wal`).size) + 256 * 1024;
    execFileSync('prlimit', ['--pid', String(server.pid), `--fsize=${limit}`]);

    const ackedBeforeFull = acked.length;
    const failures: { id: string; codes: string[]; retryable: boolean[] }[] = [];
    for (let i = 0; i < 400 && failures.length < 5; i++) {
      const id = `during-${i}`;
      written.set(id, { title: `during ${i}`, content: 'y'.repeat(8000) });
      const response = await server.gql(CREATE, { input: { id, ...written.get(id) } });
      expect(response.status, JSON.stringify(response)).toBeLessThan(500);
      if (acknowledged(response)) acked.push(id);
      else
        failures.push({
          id,
          codes: (response.errors ?? []).map((e) => String(e.extensions?.code)),
          retryable: (response.errors ?? []).map((e) => e.extensions?.retryable),
        });
    }
    // The cap leaves room for a few writes: the server must take those, not fail early.
    expect(acked.length - ackedBeforeFull).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure.codes).toEqual(['UNAVAILABLE']);
      expect(failure.retryable).toEqual([true]);
    }
    // Other kinds of write that do not fit fail the same way, and nothing reaches the client as a 500.
    const big = 'z'.repeat(60_000);
    for (const [query, variables] of [
      [
        `mutation ($c: String!) { updateMemory(id: "before-2", input: { title: "changed", content: $c }) { title } }`,
        { c: big },
      ],
      [
        `mutation ($c: String!) { a: createMemory(input: { id: "big-a", title: "a", content: $c }) { id } }`,
        { c: big },
      ],
    ] as const) {
      const response = await server.gql(query, variables);
      expect(response.status).toBeLessThan(500);
      expect(
        (response.errors ?? []).map((e) => e.extensions?.code),
        query,
      ).toEqual(['UNAVAILABLE']);
    }
    // Reads keep working, and see every acknowledged write.
    const read = await server.gql(`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, { ids: acked.slice(0, 100) });
    expect(read.errors).toBeUndefined();
    expect(read.data?.memories.map((m: { id: string } | null) => m?.id)).toEqual(acked.slice(0, 100));
    const search = await server.gql(
      `{ searchMemories(query: "before", limit: 100) { id } neighbors: memory(id: "before-0") { title neighbors { memory { id } } } }`,
    );
    expect(search.errors).toBeUndefined();
    expect(search.data?.searchMemories).toHaveLength(20);
    expect(search.data?.neighbors.title).toBe('before 0');
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);

    await server.kill('SIGKILL');
    const again = await pool.start({ dbPath });
    // Every acknowledged write, not a sample, with what was written.
    for (let start = 0; start < acked.length; start += 100) {
      const ids = acked.slice(start, start + 100);
      const afterRestart = await again.gql(`query ($ids: [ID!]!) { memories(ids: $ids) { id title content } }`, {
        ids,
      });
      expect(afterRestart.errors).toBeUndefined();
      expect(afterRestart.data?.memories).toEqual(ids.map((id) => ({ id, ...written.get(id) })));
    }
    const failed = await again.gql(`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, {
      ids: failures.map((f) => f.id),
    });
    expect(failed.data?.memories.every((m: unknown) => m === null)).toBe(true);
    const unchanged = await again.gql(`{ a: memory(id: "before-2") { title } b: memory(id: "big-a") { id } }`);
    expect(unchanged.data).toEqual({ a: { title: 'before 2' }, b: null });
    expect(acknowledged(await again.gql(CREATE, { input: { id: 'after', title: 'room again' } }))).toBe(true);
    await again.kill('SIGTERM');
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect((db.prepare(`SELECT COUNT(*) AS n FROM memories`).get() as { n: number }).n).toBe(acked.length + 1);
    } finally {
      db.close();
    }
  });
});
