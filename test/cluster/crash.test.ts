import { afterAll, describe, expect, it } from 'vitest';
import { createServerPool } from '../helpers/process.js';
import { type Answer, eventually, operation, sample, send, startTwoWorkers, workerPids } from './support.js';

const pool = createServerPool();
afterAll(() => pool.cleanup());

const CLIENTS = 4;
/**
 * A connection the primary was handing to the worker as it died stays open with no answer
 * (node:cluster closes its copy only once the worker confirms it), so that request ends by the
 * client's timeout, 30 s by default: short here, while a live worker answers these in milliseconds.
 */
const REQUEST_TIMEOUT_MS = 5_000;

describe('a worker killed outright', () => {
  it('is replaced by a new worker while the other keeps answering', async () => {
    const server = await startTwoWorkers(pool);
    const [victim] = workerPids(server.pid);
    let stop = false;
    const answers: { at: number; answer: Answer }[] = [];
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stop) {
        const answer = await send(server, {
          ...operation('query Stream { relationTypes { name } }'),
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
        answers.push({ at: performance.now(), answer });
      }
    });
    await eventually(() => answers.length >= 20);
    const killedAt = performance.now();
    process.kill(victim as number, 'SIGKILL');
    const replaced = await eventually(() => answers.some(({ answer }) => answer.worker === '3'), 60_000);
    const replacedAt = performance.now();
    await eventually(() => answers.filter(({ at }) => at > replacedAt).length >= 20);
    stop = true;
    await Promise.all(clients);

    expect(replaced).toBe(true);
    const failed = answers.filter(({ answer }) => answer.status !== 200);
    // At most the requests the dead worker held when it died, one per client.
    expect(failed.length).toBeLessThanOrEqual(CLIENTS);
    for (const { at } of failed) expect(at).toBeGreaterThanOrEqual(killedAt);
    expect(answers.filter(({ answer }) => answer.worker === '2').length).toBeGreaterThan(0);
    expect(workerPids(server.pid)).toHaveLength(2);
    expect(workerPids(server.pid)).not.toContain(victim);

    const metrics = await send(server, { path: '/metrics' });
    expect(sample(metrics.body, 'engram_worker_restarts_total')).toBe(1);
    expect(server.stderr()).toContain('worker exited; starting another');
  }, 120_000);
});
