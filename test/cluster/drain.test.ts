import { type IncomingMessage, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerPool, type EngramServer } from '../helpers/process.js';
import { eventually, send, startTwoWorkers, workerPids } from './support.js';

const pool = createServerPool();
afterAll(() => pool.cleanup());

/** A POST whose body arrives in two parts: the request is in flight, on one worker, until `finish()`. */
function slowPost(server: EngramServer, body: string) {
  const bytes = Buffer.from(body);
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    path: '/graphql',
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': bytes.length, 'x-engram-workspace': 'default' },
  });
  const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    req.on('response', (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
  });
  req.write(bytes.subarray(0, 10));
  return { finish: () => req.end(bytes.subarray(10)), answer };
}

describe('SIGTERM to the primary', () => {
  it('drains every worker: requests in flight finish, then the workers and the primary exit 0', async () => {
    const server = await startTwoWorkers(pool, { ENGRAM_SHUTDOWN_GRACE_MS: '10000' });
    const workers = workerPids(server.pid);
    expect(workers).toHaveLength(2);
    const slow = [
      slowPost(server, JSON.stringify({ query: 'mutation { createMemory(input: { title: "one" }) { id } }' })),
      slowPost(server, JSON.stringify({ query: 'mutation { createMemory(input: { title: "two" }) { id } }' })),
    ];
    await sleep(300);
    server.child.kill('SIGTERM');
    await sleep(1500);
    for (const request of slow) request.finish();
    const answers = await Promise.all(slow.map((request) => request.answer));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200 });
      expect(JSON.parse((answer as { body: string }).body)).toMatchObject({
        data: { createMemory: { id: expect.any(String) } },
      });
    }
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(workerPids(server.pid)).toEqual([]);
    for (const pid of workers) {
      expect(await eventually(() => !isAlive(pid), 5000)).toBe(true);
    }
    // Nothing listens any more.
    expect((await send(server, { path: '/health' })).networkError).toBe('ECONNREFUSED');
    expect(server.stderr()).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
