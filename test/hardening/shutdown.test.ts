import { existsSync, statSync } from 'node:fs';
import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
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

const CREATE = (id: string) =>
  JSON.stringify({ query: `mutation { createMemory(input: { id: "${id}", title: "${id}" }) { id } }` });

type KeepAliveAnswer =
  | { id: string; status: number; connection: string | null; reused: boolean }
  | { id: string; error: string; reused: boolean };

/** One createMemory POST through a keep-alive agent: the answer, or the network error it met. */
function postKeepAlive(server: EngramServer, agent: Agent, id: string): Promise<KeepAliveAnswer> {
  const body = CREATE(id);
  return new Promise((resolve) => {
    let reused = false;
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/graphql',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ id, status: response.statusCode ?? 0, connection: response.headers.connection ?? null, reused }),
        );
        response.on('error', (error) =>
          resolve({ id, error: (error as NodeJS.ErrnoException).code ?? error.message, reused }),
        );
      },
    );
    request.on('socket', (socket) => {
      // A socket that already carried a request is a pooled keep-alive one.
      reused = (socket as unknown as { _engramUsed?: boolean })._engramUsed === true;
      (socket as unknown as { _engramUsed?: boolean })._engramUsed = true;
    });
    request.on('error', (error) =>
      resolve({ id, error: (error as NodeJS.ErrnoException).code ?? error.message, reused }),
    );
    request.end(body);
  });
}

describe('graceful shutdown (real server process)', () => {
  const pool = createServerPool();
  afterAll(() => pool.cleanup());

  it('on SIGTERM: /ready is 503 at once, in-flight requests finish, the store is checkpointed and closed, exit 0', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath, env: { ENGRAM_SHUTDOWN_GRACE_MS: '8000' } });
    expect(
      (await server.gql(`mutation { createMemory(input: { id: "before", title: "before" }) { id } }`)).errors,
    ).toBeUndefined();
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
    const body = JSON.parse((answer as { body: string }).body);
    expect(body.data).toEqual({ createMemory: { id: 'in-flight' } });
    expect(body.errors).toBeUndefined();

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

  it('on SIGTERM under keep-alive traffic: no request is reset; each gets a response (Connection: close during the drain) or a clean close', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath, env: { ENGRAM_SHUTDOWN_GRACE_MS: '5000' } });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    // A pooled connection that is idle when the signal comes, and stays idle.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await postKeepAlive(server, idleAgent, 'idle-0')).toMatchObject({ status: 200 });
    const idleSocket = Object.values(idleAgent.freeSockets).flat()[0];
    expect(idleSocket).toBeDefined();
    const idleClosed = new Promise<{ hadError: boolean }>((resolve) =>
      idleSocket?.once('close', (hadError) => resolve({ hadError })),
    );

    const answers: KeepAliveAnswer[] = [];
    let signalled = false;
    let sent = 0;
    // Eight clients, each sending one request after another over the pool. A client stops when the
    // server tells it to go (Connection: close, as a client behind a load balancer would go
    // elsewhere) or when it cannot connect any more.
    const clients = Array.from({ length: 8 }, async (_, client) => {
      for (let i = 0; ; i++) {
        const answer = await postKeepAlive(server, agent, `c${client}-${i}`);
        answers.push(answer);
        sent++;
        if ('error' in answer) return;
        if (signalled && answer.connection === 'close') return;
        if (!signalled && sent >= 250) {
          signalled = true;
          server.child.kill('SIGTERM');
        }
      }
    });
    await Promise.all(clients);
    const exit = await server.exited;
    agent.destroy();
    idleAgent.destroy();
    expect(exit).toEqual({ code: 0, signal: null });

    const failures = answers.filter(
      (answer): answer is Extract<KeepAliveAnswer, { error: string }> => 'error' in answer,
    );
    // A refused connection sent nothing; a reset or hang-up on a pooled connection may have lost a request.
    expect(failures.filter((failure) => failure.error !== 'ECONNREFUSED')).toEqual([]);
    expect(answers.filter((answer) => 'status' in answer && answer.status !== 200)).toEqual([]);
    expect(await idleClosed).toEqual({ hadError: false });

    // Every acknowledged write is stored, and no failed request was executed.
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const stored = new Set((db.prepare(`SELECT id FROM memories`).all() as { id: string }[]).map((row) => row.id));
      for (const answer of answers) expect(stored.has(answer.id), answer.id).toBe('status' in answer);
    } finally {
      db.close();
    }
  });

  it('on SIGTERM while nobody reads its log pipe: exits within the drain window plus the log flush limit', async () => {
    const dbPath = join(pool.tempDir(), 'engram.db');
    const server = await pool.start({ dbPath, env: { ENGRAM_SHUTDOWN_GRACE_MS: '1000', ENGRAM_LOG_LEVEL: 'info' } });
    // The reader stops reading (as a log shipper that hung): stderr fills up and stays full.
    server.child.stderr?.pause();
    try {
      // Every request logs a line of ~300 bytes: 3,000 of them are far more than a pipe holds.
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      let sent = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (sent < 3000) {
            sent++;
            const answer = await new Promise<number>((resolve) => {
              const request = httpRequest(
                {
                  host: '127.0.0.1',
                  port: server.port,
                  path: '/graphql',
                  method: 'POST',
                  agent,
                  headers: { 'content-type': 'application/json' },
                },
                (response) => {
                  response.resume().on('end', () => resolve(response.statusCode ?? 0));
                },
              );
              request.on('error', () => resolve(0));
              request.end(JSON.stringify({ query: '{ relationTypes { name } }' }));
            });
            expect(answer).toBe(200);
          }
        }),
      );
      agent.destroy();
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      const exit = await Promise.race([server.exited, sleep(10_000).then(() => 'still running 10 s after SIGTERM')]);
      const tookMs = performance.now() - signalled;
      // Exit 0; or, when a log write is blocked in the kernel (stderr in blocking mode), which
      // process.exit() would wait for, the default end of the signal, after closing the store.
      expect([
        { code: 0, signal: null },
        { code: null, signal: 'SIGTERM' },
      ]).toContainEqual(exit);
      // Drain (nothing in flight) + store close + at most 1.5 s waiting on the log pipe.
      expect(tookMs).toBeLessThan(4000);
      expect(!existsSync(`${dbPath}-wal`) || statSync(`${dbPath}-wal`).size === 0).toBe(true);
    } finally {
      server.child.stderr?.resume();
    }
  });
});
