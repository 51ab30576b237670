import { afterAll, describe, expect, it } from 'vitest';
import { createServerPool } from '../helpers/process.js';
import { type Answer, operation, send, startTwoWorkers } from './support.js';

const pool = createServerPool();
afterAll(() => pool.cleanup());

/** Neighbors of neighbors: cost 546 whatever the graph holds (the cost analysis reads the query, not the data). */
const HEAVY = `query Heavy { memory(id: "hub") { neighbors(limit: 15) { memory { title content neighbors(limit: 15) { memory { title content } edge { weight } } } } } }`;
const RATE = 100;
const BURST = 2200;

const codeOf = (answer: Answer): string => {
  const body = JSON.parse(answer.body) as { errors?: { extensions?: { code?: string; cost?: number } }[] };
  return body.errors?.[0]?.extensions?.code ?? 'ok';
};

describe('the cost budget with two workers', () => {
  it("admits a workspace's cost within burst + rate x elapsed across both workers, not twice that", async () => {
    const server = await startTwoWorkers(pool, {
      ENGRAM_RATE_POINTS_PER_SECOND: String(RATE),
      ENGRAM_RATE_BURST: String(BURST),
      ENGRAM_MAX_COST: '1000',
    });
    const started = performance.now();
    const answers: Answer[] = [];
    // Four clients, each on fresh connections, so both workers take a share of the flood.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 8; i++) answers.push(await send(server, operation(HEAVY, 'noisy')));
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;

    const admitted = answers.filter((answer) => codeOf(answer) === 'ok');
    const limited = answers.filter((answer) => codeOf(answer) === 'RATE_LIMITED');
    expect(admitted.length + limited.length).toBe(answers.length);
    const cost = (JSON.parse(limited[0]?.body ?? '{}') as { errors: { extensions: { cost: number } }[] }).errors[0]
      ?.extensions.cost as number;
    expect(cost).toBe(546);
    // The burst alone admits 4; separate buckets per worker would admit about twice the bound.
    expect(admitted.length * cost).toBeLessThanOrEqual(BURST + RATE * elapsedSeconds);
    expect(admitted.length).toBeGreaterThanOrEqual(Math.floor(BURST / cost));
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
    expect(new Set(limited.map((answer) => answer.status))).toEqual(new Set([429]));

    // Another workspace has its own budget, in whichever worker it lands.
    const quiet = await Promise.all(Array.from({ length: 4 }, () => send(server, operation(HEAVY, 'quiet'))));
    expect(quiet.map(codeOf)).toEqual(['ok', 'ok', 'ok', 'ok']);
  }, 120_000);
});
