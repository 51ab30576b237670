import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBudgetLender } from '../../src/cluster/budget-lender.js';
import { createLeasedBuckets, LEASE_IDLE_MS, leaseChunk } from '../../src/cluster/leased-buckets.js';
import type { PrimaryChannel } from '../../src/cluster/primary-channel.js';

/**
 * The lease arithmetic, with the primary's real lender answering in the same process (the IPC
 * itself is exercised by budget.test.ts on two real workers). Counts the asks.
 */
function inProcessCluster(rate: { pointsPerSecond: number; burst: number }, workers: number) {
  let clock = 0;
  const now = () => clock;
  const lender = createBudgetLender(rate, now);
  const asks: number[] = [];
  const released: number[] = [];
  const channel: PrimaryChannel = {
    async ask(message) {
      if (message.engram !== 'lease') throw new Error(`unexpected ask ${message.engram}`);
      asks.push(message.want);
      return lender.lend(message.workspace, message.need, message.want);
    },
    tell(message) {
      if (message.engram !== 'release') return;
      released.push(message.points);
      lender.refund(message.workspace, message.points);
    },
    onMessage() {},
  };
  const worker = () => createLeasedBuckets({ channel, rate, workers, now });
  return { worker, lender, asks, released, advance: (ms: number) => (clock += ms) };
}

describe('cost budget leases', () => {
  it('sizes a chunk by the rate and the burst shared among workers', () => {
    expect(leaseChunk({ pointsPerSecond: 2000, burst: 20_000 }, 2)).toBe(100);
    expect(leaseChunk({ pointsPerSecond: 1_000_000, burst: 20_000 }, 2)).toBe(2500);
    expect(leaseChunk({ pointsPerSecond: 1, burst: 1 }, 8)).toBe(1);
  });

  it('admits from a lease without asking until it is spent', async () => {
    const cluster = inProcessCluster({ pointsPerSecond: 2000, burst: 20_000 }, 2);
    const buckets = cluster.worker();
    for (let i = 0; i < 10; i++) expect(await buckets.take('a', 10)).toEqual({ ok: true });
    expect(cluster.asks).toEqual([100]);
    expect(await buckets.take('a', 10)).toEqual({ ok: true });
    expect(cluster.asks).toEqual([100, 100]);
  });

  it('never lets two workers admit more together than the one bucket holds', async () => {
    const cluster = inProcessCluster({ pointsPerSecond: 10, burst: 1000 }, 2);
    const [one, two] = [cluster.worker(), cluster.worker()];
    let admitted = 0;
    for (let i = 0; i < 200; i++) {
      for (const buckets of [one, two]) if ((await buckets.take('a', 7)).ok) admitted += 7;
    }
    expect(admitted).toBeLessThanOrEqual(1000);
    expect(admitted).toBeGreaterThan(1000 - 2 * 7);
    const refused = await one.take('a', 7);
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
  });

  it('gives an idle lease back, so another worker can spend it', async () => {
    const cluster = inProcessCluster({ pointsPerSecond: 100, burst: 10_000 }, 2);
    const [one, two] = [cluster.worker(), cluster.worker()];
    expect(await one.take('a', 1)).toEqual({ ok: true }); // leases a chunk of 5 (rate / 20): 4 held
    expect(await two.take('a', 9995)).toEqual({ ok: true }); // the bucket is full
    cluster.advance(LEASE_IDLE_MS); // 100 points drain
    await sleep(LEASE_IDLE_MS + 200);
    expect(cluster.released).toEqual([4]);
    expect(one.size).toBe(0);
    // 9900 - 4 given back + 104 = 10,000: fits only because the idle lease came back.
    expect(await two.take('a', 104)).toEqual({ ok: true });
  });
});
