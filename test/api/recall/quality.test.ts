import { describe, expect, it } from 'vitest';
import { runRecallQuality } from '../../../bench/recall-quality.js';
import { DEFAULT_WS, useTestApp } from '../support.js';

/**
 * The bench's quality check, small: on seeded questions whose right memory is two weighted hops
 * from the lexical hit (and never matches the words), recall must find what search cannot, and
 * feedback by recallId must move it up as the weights move.
 */
describe('recall quality on a known-answer graph', () => {
  // Hundreds of requests back to back: the per-workspace cost budget is off, as in the bench.
  const api = useTestApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' } });

  it('ranks the right memory higher than search does, and higher still after feedback', async () => {
    const app = api();
    const result = await runRecallQuality({
      gql: (query, variables) => app.gql(query, variables),
      store: app.store,
      workspace: DEFAULT_WS,
      seed: 11,
      cases: 12,
      rounds: 20,
      every: 10,
    });
    const [before, , after] = result.rounds;
    expect(result.rounds.map((row) => row.round)).toEqual([0, 10, 20]);
    expect(before!.hitAt5).toBeGreaterThan(result.search.hitAt5);
    expect(before!.mrr).toBeGreaterThan(result.search.mrr);
    expect(after!.hitAt5).toBeGreaterThan(before!.hitAt5);
    expect(after!.mrr).toBeGreaterThan(before!.mrr);
    // The ranking moved because the weights did: the first USED associated the right memory with
    // the lexical hit (RECALLED_WITH), later recalls reach it along that association (whose path
    // takes the strengthening from then on, so the old chain keeps its weights), the distractors
    // were weakened.
    expect(after!.chainWeight).toBeGreaterThanOrEqual(before!.chainWeight);
    expect(after!.distractorWeight).toBeLessThan(before!.distractorWeight);
  }, 120_000);
});
