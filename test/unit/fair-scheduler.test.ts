import { describe, expect, it } from 'vitest';
import { AdmissionRefused, FairScheduler, type Seat } from '../../src/limits/fair-scheduler.js';

function scheduler(options: { seats: number; maxQueued?: number; maxWaitMs?: number }) {
  const fair = new FairScheduler({
    seats: options.seats,
    maxQueued: options.maxQueued ?? 1000,
    maxWaitMs: options.maxWaitMs ?? 60_000,
  });
  return { fair };
}

const isSeat = (value: unknown): value is Seat => typeof value === 'object' && value !== null && 'release' in value;

/** Runs `rounds` seat grants on one seat: each flow keeps `backlog` requests waiting, each costing its flow's cost. */
async function contend(costs: Record<string, number>, rounds: number, backlog = 4) {
  const { fair } = scheduler({ seats: 1 });
  const work: Record<string, number> = {};
  const served: Record<string, number> = {};
  const holder = fair.acquire('holder') as Seat;
  const order: string[] = [];
  const ask = (flow: string) => {
    void Promise.resolve(fair.acquire(flow)).then(
      (seat) => {
        order.push(flow);
        pending.push({ flow, seat });
      },
      // The backlog still queued when the rounds end is refused at maxWaitMs, long after the test
      // (in the same process, since test files share a fork): that refusal is expected.
      () => undefined,
    );
  };
  const pending: { flow: string; seat: Seat }[] = [];
  for (const flow of Object.keys(costs)) for (let i = 0; i < backlog; i++) ask(flow);
  holder.release(1);
  for (let round = 0; round < rounds; round++) {
    // Granted seats resolve in a microtask; the waiters still queued stay pending.
    await new Promise((resolve) => setImmediate(resolve));
    const current = pending.shift();
    if (!current) throw new Error('no request holds the seat');
    const cost = costs[current.flow] as number;
    work[current.flow] = (work[current.flow] ?? 0) + cost;
    served[current.flow] = (served[current.flow] ?? 0) + 1;
    ask(current.flow);
    current.seat.release(cost);
  }
  return { work, served, order, fair };
}

describe('FairScheduler', () => {
  it('grants a free seat at once, without a promise, and forgets a flow once it has nothing running', () => {
    const { fair } = scheduler({ seats: 2 });
    const seat = fair.acquire('alone');
    expect(isSeat(seat)).toBe(true);
    expect(fair.stats).toEqual({ executing: 1, queued: 0, flows: 1 });
    (seat as Seat).release(1);
    (seat as Seat).release(1);
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('queues a lone flow beyond its seats in arrival order and never refuses it below the queue bound', async () => {
    const { fair } = scheduler({ seats: 1, maxQueued: 100 });
    const first = fair.acquire('alone') as Seat;
    const order: number[] = [];
    const waits = Array.from({ length: 100 }, (_, i) =>
      Promise.resolve(fair.acquire('alone')).then((seat) => {
        order.push(i);
        seat.release(1);
      }),
    );
    expect(fair.stats.queued).toBe(100);
    first.release(1);
    await Promise.all(waits);
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('shares the work evenly between a flow of 100-point requests and a flow of 10-point requests', async () => {
    const { work, served } = await contend({ heavy: 100, light: 10 }, 400);
    const total = (work.heavy ?? 0) + (work.light ?? 0);
    expect((work.heavy ?? 0) / total).toBeGreaterThan(0.4);
    expect((work.heavy ?? 0) / total).toBeLessThan(0.6);
    // So the light flow gets about ten requests through for each heavy one.
    expect((served.light ?? 0) / (served.heavy ?? 1)).toBeGreaterThan(6);
  });

  it('serves a newcomer before the next request of a flow that has been using the seats', async () => {
    const { fair } = scheduler({ seats: 1 });
    let seat = fair.acquire('busy') as Seat;
    const busyQueue = Array.from({ length: 5 }, () => Promise.resolve(fair.acquire('busy')));
    const order: string[] = [];
    const newcomer = Promise.resolve(fair.acquire('newcomer')).then((granted) => {
      order.push('newcomer');
      return granted;
    });
    seat.release(50);
    seat = await newcomer;
    expect(order).toEqual(['newcomer']);
    seat.release(1);
    for (const waiting of busyQueue) (await waiting).release(1);
  });

  it('refuses the newest request of the longest queue when the queues are full, never another flow', async () => {
    const { fair } = scheduler({ seats: 1, maxQueued: 3 });
    const held = fair.acquire('greedy') as Seat;
    // Each request releases its seat as soon as it gets one.
    const outcome = (asked: Seat | Promise<Seat>) =>
      Promise.resolve(asked).then(
        (seat) => {
          seat.release(1);
          return 'seat';
        },
        (error: AdmissionRefused) => error.reason,
      );
    const greedy = [0, 1, 2].map(() => outcome(fair.acquire('greedy')));
    // Full: a quiet flow still gets in, and greedy's newest waiter is refused for it.
    const quiet = outcome(fair.acquire('quiet'));
    expect(await greedy[2]).toBe('QUEUE_FULL');
    // Greedy asking again is refused at once: it still has the longest queue.
    expect(() => fair.acquire('greedy')).toThrow(AdmissionRefused);
    held.release(1);
    expect(await Promise.all([quiet, greedy[0], greedy[1]])).toEqual(['seat', 'seat', 'seat']);
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('gives up on a request after maxWaitMs, with a time to retry after', async () => {
    const fair = new FairScheduler({ seats: 1, maxQueued: 10, maxWaitMs: 30 });
    const held = fair.acquire('a') as Seat;
    const error = await Promise.resolve(fair.acquire('a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdmissionRefused);
    expect((error as AdmissionRefused).reason).toBe('QUEUE_TIMEOUT');
    expect((error as AdmissionRefused).retryAfterMs).toBeGreaterThanOrEqual(1);
    expect(fair.stats.queued).toBe(0);
    held.release(1);
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('stops waiting when the request deadline passes, with the deadline as the reason', async () => {
    const { fair } = scheduler({ seats: 1 });
    const held = fair.acquire('a') as Seat;
    const deadline = new AbortController();
    const waiting = Promise.resolve(fair.acquire('b', deadline.signal)).catch((e: unknown) => e);
    deadline.abort(new Error('deadline'));
    expect(((await waiting) as Error).message).toBe('deadline');
    expect(fair.stats).toEqual({ executing: 1, queued: 0, flows: 1 });
    held.release(1);
    expect(() => fair.acquire('c', deadline.signal)).toThrow('deadline');
  });
});
