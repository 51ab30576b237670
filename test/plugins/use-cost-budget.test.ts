import { describe, expect, it } from 'vitest';
import { createCostBudget } from '../../src/plugins/use-cost-budget.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { minimalYoga } from './support.js';

describe('createCostBudget', () => {
  it('refuses a workspace over its budget with 429 RATE_LIMITED, retryable, Retry-After', async () => {
    let limited = 0;
    const budget = createCostBudget({ pointsPerSecond: 1, burst: 2 }, { rateLimited: () => limited++ });
    const workspace = {
      onContextBuilding: ({ extendContext }: { extendContext: (c: object) => void }) =>
        extendContext({ workspace: 'lab' }),
    };
    const fetch = minimalYoga([useErrors(), workspace, budget.plugin]);
    const ask = () =>
      fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ ok }' }),
      });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const json = (await refused.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(json.errors[0]?.message).toMatch(/^Workspace "lab" is over its quota/);
    expect(json.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true, reason: 'QUOTA' });
    expect(json.errors[0]?.extensions.retryAfterMs).toBeGreaterThan(0);
    expect(limited).toBe(1);
  });

  it('is off with 0 points per second', () => {
    expect(createCostBudget({ pointsPerSecond: 0, burst: 10 }).buckets).toBeNull();
  });
});
