import { describe, expect, it } from 'vitest';
import { useReadiness } from '../../src/plugins/use-readiness.js';
import { minimalYoga } from './support.js';

/** An app whose readiness check answers `state` (a store that fails its ping throws); counts the checks. */
function app() {
  const probe = { state: 'ready' as 'ready' | 'draining' | 'unreachable', checks: 0 };
  const fetch = minimalYoga([
    useReadiness(async () => {
      probe.checks++;
      if (probe.state === 'unreachable') throw new Error('connect ECONNREFUSED 10.0.0.7:7687');
      return probe.state === 'ready';
    }),
  ]);
  return { fetch, probe };
}

describe('useReadiness', () => {
  it('answers /ready with 200 while the check holds, else 503 with an empty body', async () => {
    const { fetch, probe } = app();
    expect((await fetch('/ready')).status).toBe(200);
    for (const state of ['draining', 'unreachable'] as const) {
      probe.state = state;
      const response = await fetch('/ready');
      expect(response.status, state).toBe(503);
      expect(await response.text(), state).toBe('');
    }
  });

  it('runs the check for /ready only: other paths go on to yoga', async () => {
    const { fetch, probe } = app();
    expect((await fetch('/ready')).status).toBe(200);
    const graphql = await fetch('/graphql?query={ok}', { headers: { accept: 'application/json' } });
    expect(await graphql.json()).toEqual({ data: { ok: true } });
    expect((await fetch('/ready/now')).status).toBe(404);
    expect(probe.checks).toBe(1);
  });
});
