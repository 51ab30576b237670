import { describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { createMetrics } from '../../src/plugins/use-metrics.js';
import { minimalYoga } from './support.js';

function app() {
  const metrics = createMetrics();
  // useErrors first, as in createApp, so errors are counted by their final code.
  const fetch = minimalYoga([useErrors(), ...metrics.plugins({ endpoint: true })]);
  const ask = async (query: string) => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    await response.text();
  };
  const scrape = async () => (await fetch('/metrics')).text();
  return { metrics, ask, scrape };
}

describe('createMetrics', () => {
  it('counts operations by name and type, names over 64 characters under "other"', async () => {
    const { ask, scrape } = app();
    for (const query of ['query Probe { ok }', 'query Probe { ok }', `query ${'L'.repeat(65)} { ok }`]) {
      await ask(query);
    }
    const text = await scrape();
    expect(text).toContain('graphql_envelop_request{operationName="Probe",operationType="query"} 2');
    expect(text).toContain('graphql_envelop_request{operationName="other",operationType="query"} 1');
    expect(text).toContain(
      'graphql_yoga_http_duration_count{operationName="Probe",operationType="query",method="POST",statusCode="200"} 2',
    );
    expect(text).not.toContain('LLLL');
  });

  it('labels an operation without a name "anonymous" in every metric', async () => {
    const { ask, scrape } = app();
    await ask('{ ok }');
    const text = await scrape();
    expect(text).toContain('graphql_envelop_request{operationName="anonymous",operationType="query"} 1');
    expect(text).toContain(
      'graphql_yoga_http_duration_count{operationName="anonymous",operationType="query",method="POST",statusCode="200"} 1',
    );
    expect(text).not.toContain('operationName="Anonymous"');
  });

  it('counts every error sent by its code, and no request stays in flight once answered', async () => {
    const { ask, scrape } = app();
    await ask('{ nope }');
    await ask('{');
    const text = await scrape();
    expect(text).toContain('engram_graphql_errors_total{code="GRAPHQL_VALIDATION_FAILED"} 1');
    expect(text).toContain('engram_graphql_errors_total{code="GRAPHQL_PARSE_FAILED"} 1');
    expect(text).toContain('engram_http_requests_in_flight 0');
  });

  it("reports what the store, the cost budget and the scheduler record, and the scheduler's seats when read", async () => {
    const { metrics, scrape } = app();
    metrics.store.observe('getMemories', 0.002, 'ok');
    metrics.costs(5, 3);
    metrics.admissionRefused('QUEUE_FULL');
    metrics.trackScheduler(() => ({ executing: 2, queued: 1, flows: 2 }));
    const text = await scrape();
    expect(text).toContain('engram_store_duration_seconds_count{method="getMemories",outcome="ok"} 1');
    expect(text).toContain('engram_cost_requested_points_total 5');
    expect(text).toContain('engram_cost_actual_points_total 3');
    expect(text).toContain('engram_rate_limited_total 1');
    expect(text).toContain('engram_scheduler_refused_total{reason="QUEUE_FULL"} 1');
    expect(text).toContain('engram_scheduler_executing 2');
    expect(text).toContain('engram_scheduler_queued 1');
  });

  it("serves /metrics only when asked to, and the cluster's merged values when it has workers", async () => {
    expect((await minimalYoga(createMetrics().plugins({ endpoint: false }))('/metrics')).status).toBe(404);
    const cluster = async () => ({ text: 'merged_total 7\n', contentType: 'text/plain; version=0.0.4' });
    const response = await minimalYoga(createMetrics(undefined, cluster).plugins({ endpoint: true }))('/metrics');
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    expect(await response.text()).toBe('merged_total 7\n');
  });
});
