import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerPool, type EngramServer } from '../helpers/process.js';
import { operation, sample, send, startTwoWorkers } from './support.js';

const pool = createServerPool();
afterAll(() => pool.cleanup());

describe('two workers on one port', () => {
  let server: EngramServer;
  beforeAll(async () => {
    server = await startTwoWorkers(pool, { ENGRAM_LOG_LEVEL: 'info' });
  }, 120_000);

  it('says how many workers in its start-up line, logs with worker ids, and each worker answers /ready', async () => {
    expect(server.stderr()).not.toContain('"level":50');
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(server, { path: '/ready' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
    const started = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"msg":"started"'))
      .map((line) => JSON.parse(line) as { worker?: number; workers?: number });
    expect(started.map((line) => line.worker ?? `primary of ${line.workers}`).sort()).toEqual([1, 2, 'primary of 2']);
  });

  it('counts the requests of both workers in one /metrics answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => send(server, operation('query Counted { relationTypes { name } }'))),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));

    const metrics = await send(server, { path: '/metrics' });
    expect(metrics.status).toBe(200);
    expect(sample(metrics.body, 'graphql_envelop_request{operationName="Counted",operationType="query"}')).toBe(12);
    expect(sample(metrics.body, 'engram_workers_listening')).toBe(2);
    for (const worker of ['1', '2']) {
      expect(sample(metrics.body, `engram_worker_resident_memory_bytes{worker="${worker}"}`)).toBeGreaterThan(0);
    }
  });
});
