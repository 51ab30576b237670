import { describe, expect, it } from 'vitest';
import { AdmissionRefused, FairScheduler, type Seat } from '../../src/limits/fair-scheduler.js';

/** A scheduler on a clock the test moves. */
function scheduler(options: { seats: number; maxQueued?: number; maxWaitMs?: number }) {
  let clock = 0;
  const fair = new FairScheduler({
    seats: options.seats,
    maxQueued: options.maxQueued ?? 1000,
    maxWaitMs: options.maxWaitMs ?? 60_000,
    now: () => clock,
  });
  return { fair, advance: (ms: number) => (clock += ms) };
}

const isSeat = (value: unknown): value is Seat => typeof value === 'object' && value !== null && 'release' in value;

/** Runs `rounds` seat grants on one seat: each flow keeps `backlog` requests waiting, each holding the seat for its flow's duration. */
async function contend(durations: Record<string, number>, rounds: number, backlog = 4) {
  const { fair, advance } = scheduler({ seats: 1 });
  const seatTime: Record<string, number> = {};
  const served: Record<string, number> = {};
  const holder = fair.acquire('holder') as Seat;
  const order: string[] = [];
  const ask = (flow: string) => {
    void Promise.resolve(fair.acquire(flow)).then((seat) => {
      order.push(flow);
      pending.push({ flow, seat });
    });
  };
  const pending: { flow: string; seat: Seat }[] = [];
  for (const flow of Object.keys(durations)) for (let i = 0; i < backlog; i++) ask(flow);
  holder.release();
  for (let round = 0; round < rounds; round++) {
    // Granted seats resolve in a microtask; the waiters still queued stay pending.
    await new Promise((resolve) => setImmediate(resolve));
    const current = pending.shift();
    if (!current) throw new Error('no request holds the seat');
    const ms = durations[current.flow] as number;
    advance(ms);
    seatTime[current.flow] = (seatTime[current.flow] ?? 0) + ms;
    served[current.flow] = (served[current.flow] ?? 0) + 1;
    ask(current.flow);
    current.seat.release();
  }
  return { seatTime, served, order, fair };
}

describe('FairScheduler', () => {
  it('grants a free seat at once, without a promise, and forgets a flow once it has nothing running', () => {
    const { fair } = scheduler({ seats: 2 });
    const seat = fair.acquire('alone');
    expect(isSeat(seat)).toBe(true);
    expect(fair.stats).toEqual({ executing: 1, queued: 0, flows: 1 });
    (seat as Seat).release();
    (seat as Seat).release();
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('queues a lone flow beyond its seats in arrival order and never refuses it below the queue bound', async () => {
    const { fair } = scheduler({ seats: 1, maxQueued: 100 });
    const first = fair.acquire('alone') as Seat;
    const order: number[] = [];
    const waits = Array.from({ length: 100 }, (_, i) =>
      Promise.resolve(fair.acquire('alone')).then((seat) => {
        order.push(i);
        seat.release();
      }),
    );
    expect(fair.stats.queued).toBe(100);
    first.release();
    await Promise.all(waits);
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(fair.stats).toEqual({ executing: 0, queued: 0, flows: 0 });
  });

  it('shares seat time evenly between a flow of 10 ms requests and a flow of 1 ms requests', async () => {
    const { seatTime, served } = await contend({ heavy: 10, light: 1 }, 400);
    const total = (seatTime.heavy ?? 0) + (seatTime.light ?? 0);
    expect((seatTime.heavy ?? 0) / total).toBeGreaterThan(0.4);
    expect((seatTime.heavy ?? 0) / total).toBeLessThan(0.6);
    // So the light flow gets about ten requests through for each heavy one.
    expect((served.light ?? 0) / (served.heavy ?? 1)).toBeGreaterThan(6);
  });

  it('serves a newcomer before the next request of a flow that has been using the seats', async () => {
    const { fair, advance } = scheduler({ seats: 1 });
    let seat = fair.acquire('busy') as Seat;
    const busyQueue = Array.from({ length: 5 }, () => Promise.resolve(fair.acquire('busy')));
    advance(50);
    const order: string[] = [];
    const newcomer = Promise.resolve(fair.acquire('newcomer')).then((granted) => {
      order.push('newcomer');
      return granted;
    });
    seat.release();
    seat = await newcomer;
    expect(order).toEqual(['newcomer']);
    seat.release();
    for (const waiting of busyQueue) (await waiting).release();
  });

  it('refuses the newest request of the longest queue when the queues are full, never another flow', async () => {
    const { fair } = scheduler({ seats: 1, maxQueued: 3 });
    const held = fair.acquire('greedy') as Seat;
    // Each request releases its seat as soon as it gets one.
    const outcome = (asked: Seat | Promise<Seat>) =>
      Promise.resolve(asked).then(
        (seat) => {
          seat.release();
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
    held.release();
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
    held.release();
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
    held.release();
    expect(() => fair.acquire('c', deadline.signal)).toThrow('deadline');
  });
});
