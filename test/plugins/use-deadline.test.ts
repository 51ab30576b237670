import { setTimeout as sleep } from 'node:timers/promises';
import type { Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createDeadlines } from '../../src/plugins/use-deadline.js';
import { minimalYoga } from './support.js';

/**
 * An app whose requests spend `queuedMs` before execution (as one waiting for a seat does) and
 * whose context takes the deadline signal as createApp's does; returns the signals it saw.
 */
function app(timeoutMs: number, queuedMs: number) {
  const deadlines = createDeadlines({ timeoutMs, graphqlEndpoint: '/graphql' });
  const signals: AbortSignal[] = [];
  const probe: Plugin = {
    onRequestParse: () => sleep(queuedMs).then(() => undefined),
    onContextBuilding({ context }) {
      signals.push(deadlines.signalFor(context.request));
    },
  };
  const fetch = minimalYoga([deadlines.plugin, probe]);
  const ask = () =>
    fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ ok }' }),
    });
  return { ask, signals };
}

describe('createDeadlines', () => {
  it('counts the deadline from the arrival of the request, and aborts with a retryable UNAVAILABLE', async () => {
    const { ask, signals } = app(5, 30);
    await ask();
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
      extensions: { reason: 'DEADLINE_EXCEEDED', timeoutMs: 5 },
    });
  });

  it('clears the deadline of a request once it is answered', async () => {
    const { ask, signals } = app(20, 0);
    expect((await ask()).status).toBe(200);
    await sleep(40);
    expect(signals[0]?.aborted).toBe(false);
  });
});
