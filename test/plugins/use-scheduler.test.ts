import { describe, expect, it } from 'vitest';
import { EngramError } from '../../src/domain/errors.js';
import { FairScheduler, type Seat } from '../../src/limits/fair-scheduler.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useScheduler } from '../../src/plugins/use-scheduler.js';
import { minimalYoga } from './support.js';

/** An app whose requests belong to the flow in their x-flow header, carry the given deadline signal and cost 3 points each. */
function app(scheduler: FairScheduler, signal = new AbortController().signal) {
  const refused: string[] = [];
  const fetch = minimalYoga([
    useErrors(),
    useScheduler(scheduler, {
      flowOf: (request) => request.headers.get('x-flow') ?? 'none',
      signalOf: () => signal,
      costOf: () => 3,
      refused: (reason) => refused.push(reason),
    }),
  ]);
  const ask = (flow: string) =>
    fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-flow': flow },
      body: JSON.stringify({ query: '{ ok }' }),
    });
  return { ask, refused };
}

describe('useScheduler', () => {
  it('runs a request on a free seat and gives the seat back, charged its cost, once it is answered', async () => {
    const scheduler = new FairScheduler({ seats: 1, maxQueued: 10, maxWaitMs: 1000 });
    const { ask } = app(scheduler);
    for (let i = 0; i < 3; i++) expect((await ask('a')).status).toBe(200);
    expect(scheduler.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
    // While a's request holds the seat, b waits; b's 3 points are charged when it is answered.
    const held = scheduler.acquire('a') as Seat;
    const b = ask('b');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scheduler.stats).toEqual({ executing: 1, queued: 1, flows: 2 });
    held.release(1);
    expect((await b).status).toBe(200);
    expect(scheduler.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('holds a request until a seat is free, and answers a full queue with 429 RATE_LIMITED and Retry-After', async () => {
    const scheduler = new FairScheduler({ seats: 1, maxQueued: 1, maxWaitMs: 5000 });
    const { ask, refused } = app(scheduler);
    const held = scheduler.acquire('other') as Seat;
    const waiting = ask('a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scheduler.stats.queued).toBe(1);
    const full = await ask('a');
    expect(full.status).toBe(429);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await full.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true, reason: 'QUEUE_FULL' });
    expect(body.errors[0]?.extensions.retryAfterMs).toBeGreaterThanOrEqual(1);
    expect(body.errors[0]?.message).toMatch(/^Not run: the server is busy/);
    expect(refused).toEqual(['QUEUE_FULL']);
    held.release(1);
    expect((await waiting).status).toBe(200);
  });

  it('answers a request whose deadline passes while it waits as the deadline does (503 UNAVAILABLE)', async () => {
    const scheduler = new FairScheduler({ seats: 1, maxQueued: 10, maxWaitMs: 5000 });
    const deadline = new AbortController();
    const { ask } = app(scheduler, deadline.signal);
    const held = scheduler.acquire('other') as Seat;
    const waiting = ask('a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    deadline.abort(
      new EngramError('UNAVAILABLE', 'ran longer than its deadline', { extensions: { reason: 'DEADLINE_EXCEEDED' } }),
    );
    const response = await waiting;
    expect(response.status).toBe(503);
    const body = (await response.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE', reason: 'DEADLINE_EXCEEDED' });
    expect(scheduler.stats.queued).toBe(0);
    held.release(1);
  });
});
