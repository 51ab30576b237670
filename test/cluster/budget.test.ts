import { afterAll, describe, expect, it } from 'vitest';
import { createServerPool } from '../helpers/process.js';
import { type Answer, operation, send, startTwoWorkers } from './support.js';

const pool = createServerPool();
afterAll(() => pool.cleanup());

/** A hub's 100 strongest neighbours: about 100 rows of actual work (each edge comes with the memory at its end). */
const HEAVY = '{ memory(id: "hub") { neighbors(limit: 100) { memory { id title } } } }';
const RATE = 100;
const BURST = 2200;

interface Body {
  errors?: { extensions?: { code?: string } }[];
  extensions?: { cost?: { requested: number; actual: number; quota?: { remaining: number | null } } };
}
const bodyOf = (answer: Answer) => JSON.parse(answer.body) as Body;
const codeOf = (answer: Answer): string => bodyOf(answer).errors?.[0]?.extensions?.code ?? 'ok';

describe('a quota with two workers', () => {
  it("admits a workspace's actual work within burst + rate x elapsed across both workers, not twice that", async () => {
    const server = await startTwoWorkers(pool, {
      ENGRAM_RATE_POINTS_PER_SECOND: String(RATE),
      ENGRAM_RATE_BURST: String(BURST),
    });
    const memories = [
      { id: 'hub', title: 'hub' },
      ...Array.from({ length: 150 }, (_, i) => ({ id: `s${i}`, title: `spoke ${i}` })),
    ];
    const edges = memories.slice(1).map((spoke) => ({ from: 'hub', to: spoke.id, type: 'RELATED_TO' }));
    const seeded = await server.gql(
      'mutation Seed($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) { importGraph(memories: $memories, edges: $edges) { edges } }',
      { memories, edges },
      { workspace: 'noisy' },
    );
    expect(seeded.errors).toBeUndefined();
    const seedCost = seeded.extensions?.cost?.actual as number;
    expect(seedCost).toBeGreaterThan(300);

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
    const costs = admitted.map((answer) => bodyOf(answer).extensions?.cost?.actual ?? 0);
    const heavy = Math.max(...costs);
    expect(heavy).toBeGreaterThan(100);
    const work = costs.reduce((sum, cost) => sum + cost, 0);
    // The seed, then the flood: at most the bucket's burst plus what drained, plus what the four
    // operations admitted at the last moment did. Separate buckets per worker would admit about twice that.
    expect(seedCost + work).toBeLessThanOrEqual(BURST + RATE * elapsedSeconds + 4 * heavy);
    expect(seedCost + work).toBeGreaterThanOrEqual(BURST - heavy);
    expect(new Set(answers.map((answer) => answer.worker))).toEqual(new Set(['1', '2']));
    expect(new Set(limited.map((answer) => answer.status))).toEqual(new Set([429]));

    // Another workspace has its own bucket, in whichever worker it lands; a missing memory costs a point.
    const quiet = await Promise.all(
      Array.from({ length: 4 }, () => send(server, operation('{ memory(id: "nobody") { id } }', 'quiet'))),
    );
    expect(quiet.map(codeOf)).toEqual(['ok', 'ok', 'ok', 'ok']);
    for (const answer of quiet) expect(bodyOf(answer).extensions?.cost?.actual).toBe(1);
  }, 120_000);
});
