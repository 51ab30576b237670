import { existsSync, statSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerPool, type EngramServer } from '../helpers/process.js';

interface SlowRequest {
  request: ClientRequest;
  /** Sends the rest of the body. */
  finish(): void;
  /** The status and body, or the network error if the connection was cut. */
  answer: Promise<{ status: number; body: string } | { error: string }>;
}

/** A POST whose body arrives in two parts: the request is in flight until `finish()`. */
function slowPost(server: EngramServer, body: string): SlowRequest {
  const bytes = Buffer.from(body);
  const request = httpRequest({
    host: '127.0.0.1',
    port: server.port,
    path: '/graphql',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': bytes.length },
  });
  const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    request.on('response', (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    request.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
  });
  request.write(bytes.subarray(0, 10));
  return { request, finish: () => request.end(bytes.subarray(10)), answer };
}

const get = async (server: EngramServer, path: string) => {
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { signal: AbortSignal.timeout(3000) });
    return { status: response.status, connection: response.headers.get('connection') };
  } catch (error) {
    return { status: 0, connection: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
  }
};

const CREATE = (id: string) => JSON.stringify({ query: `mutation { createMemory(input: { id: "${id}", title: "${id}" }) { id } }` });

describe('graceful shutdown (real server process)', () => {
  const pool = createServerPool();
  afterAll(() => pool.cleanup());

  it('on SIGTERM: /ready is 503 at once, in-flight requests finish, the store is checkpointed and closed, exit 0', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath, env: { ENGRAM_SHUTDOWN_GRACE_MS: '8000' } });
    expect((await server.gql(`mutation { createMemory(input: { id: "before", title: "before" }) { id } }`)).errors).toBeUndefined();
    expect((await get(server, '/ready')).status).toBe(200);
    expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);

    const inFlight = slowPost(server, CREATE('in-flight'));
    await sleep(150);
    server.child.kill('SIGTERM');
    await sleep(150);

    expect(await get(server, '/ready')).toMatchObject({ status: 503 });
    // Requests still arriving during the drain are served, and told to reconnect elsewhere.
    const during = await server.gql(`{ memory(id: "before") { id } }`);
    expect(during.data?.memory?.id).toBe('before');
    expect(server.child.exitCode).toBeNull();

    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse((answer as { body: string }).body)).toEqual({ data: { createMemory: { id: 'in-flight' } } });

    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // Checkpointed: the write-ahead log is folded into the database file and removed.
    expect(!existsSync(`${dbPath}-wal`) || statSync(`${dbPath}-wal`).size === 0).toBe(true);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare(`SELECT id FROM memories ORDER BY id`).all()).toEqual([{ id: 'before' }, { id: 'in-flight' }]);
    } finally {
      db.close();
    }
  });

  it('on SIGINT: a request that never finishes is cut when the drain window ends, and the process still exits cleanly', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath, env: { ENGRAM_SHUTDOWN_GRACE_MS: '700' } });
    const stuck = slowPost(server, CREATE('never'));
    await sleep(150);
    const signalled = performance.now();
    server.child.kill('SIGINT');
    const exit = await server.exited;
    const tookMs = performance.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeGreaterThanOrEqual(600);
    expect(tookMs).toBeLessThan(3000);
    expect(await stuck.answer).toHaveProperty('error');
    expect(server.stderr()).toMatch(/drain window over/);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare(`SELECT COUNT(*) AS n FROM memories`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
