import { createCounter, createHistogram, usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SchedulerStats } from '../limits/fair-scheduler.js';
import type { StoreObserver } from '../store/instrumented-store.js';

export const METRICS_ENDPOINT = '/metrics';

/** Operation names are chosen by clients: past this many distinct ones, new names count as "other". */
const MAX_OPERATION_NAMES = 200;

export interface Metrics {
  registry: Registry;
  store: StoreObserver;
  rateLimited(): void;
  /** An executed operation's estimated and actual cost (use-cost-budget.ts). */
  costs(requested: number, actual: number): void;
  /** Reads the number of workspaces with a cost bucket, when the budget is on. */
  trackBuckets(size: () => number): void;
  /** Reads the fair scheduler's seats and queues, when it is on. */
  trackScheduler(stats: () => SchedulerStats): void;
  /** How long an operation waited for an execution seat. */
  queueWait(seconds: number): void;
  /** An operation refused a seat (it also counts in engram_rate_limited_total). */
  admissionRefused(reason: string): void;
  plugins(options: { endpoint: boolean }): Plugin[];
}

/** With workers, what /metrics answers: every worker's values merged by the primary (src/cluster/). */
export type MetricsSource = () => Promise<{ text: string; contentType: string }>;

/**
 * Everything /metrics reports, in one registry per app (tests build many apps in one process).
 * Process metrics (heap, event-loop lag, GC) are registered by server.ts on the same registry.
 *
 * - graphql_envelop_request / _request_duration / _phase_execute and graphql_yoga_http_duration
 *   (plugin-prometheus): requests and latency by operation name and type.
 * - engram_graphql_errors_total{code}: every error sent, by its code, whatever the phase.
 * - engram_store_duration_seconds{method,outcome}, engram_store_calls_in_flight: the store port.
 * - engram_http_requests_in_flight, engram_rate_limited_total, engram_cost_buckets.
 * - engram_cost_requested_points_total, engram_cost_actual_points_total: what executed operations
 *   were estimated to cost and what they did (docs/operations.md, "Limits and fairness").
 * - engram_scheduler_executing, engram_scheduler_queued, engram_scheduler_wait_seconds,
 *   engram_scheduler_refused_total{reason}: the fair scheduler's seats and queues.
 */
export function createMetrics(registry: Registry = new Registry(), cluster?: MetricsSource): Metrics {
  const names = new Set<string>();
  const inFlight = new WeakSet<Request>();
  const bounded = (name: string | undefined): string => {
    // The Prometheus plugin names an operation without a name "Anonymous" before it reaches us;
    // the HTTP metric gets none at all: both are one label.
    if (!name || name === 'Anonymous') return 'anonymous';
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES || name.length > 64) return 'other';
    names.add(name);
    return name;
  };

  const errors = new Counter({
    name: 'engram_graphql_errors_total',
    help: 'GraphQL errors sent, by extensions.code.',
    labelNames: ['code'],
    registers: [registry],
  });
  const storeDuration = new Histogram({
    name: 'engram_store_duration_seconds',
    help: 'Store port calls: duration by method and outcome (ok or error code).',
    labelNames: ['method', 'outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const storeInFlight = new Gauge({
    name: 'engram_store_calls_in_flight',
    help: 'Store port calls started and not finished.',
    registers: [registry],
  });
  const httpInFlight = new Gauge({
    name: 'engram_http_requests_in_flight',
    help: 'GraphQL HTTP requests being handled.',
    registers: [registry],
  });
  const limited = new Counter({
    name: 'engram_rate_limited_total',
    help: 'Operations refused with RATE_LIMITED.',
    registers: [registry],
  });
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const requestedPoints = counter(
    'engram_cost_requested_points_total',
    'Estimated cost (query-cost.ts) of the requests executed.',
  );
  const actualPoints = counter(
    'engram_cost_actual_points_total',
    'Actual cost of the requests executed: 1 each, plus rows read and written and walk steps.',
  );
  let schedulerStats: () => SchedulerStats = () => ({ executing: 0, queued: 0, flows: 0 });
  const seats = { executing: 'Requests holding a seat of the fair scheduler.', queued: 'Requests waiting for a seat.' };
  for (const [field, help] of Object.entries(seats) as [keyof typeof seats, string][]) {
    new Gauge({
      name: `engram_scheduler_${field}`,
      help,
      registers: [registry],
      collect() {
        this.set(schedulerStats()[field]);
      },
    });
  }
  const queueWait = new Histogram({
    name: 'engram_scheduler_wait_seconds',
    help: 'Time requests waited for a seat of the fair scheduler (0 when one was free).',
    buckets: [0.0001, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const admissionRefused = new Counter({
    name: 'engram_scheduler_refused_total',
    help: 'Requests refused a seat, by reason (QUEUE_FULL, QUEUE_TIMEOUT).',
    labelNames: ['reason'],
    registers: [registry],
  });
  let bucketSize: () => number = () => 0;
  new Gauge({
    name: 'engram_cost_buckets',
    help: 'Workspaces with a cost budget bucket in memory.',
    registers: [registry],
    collect() {
      this.set(bucketSize());
    },
  });

  const operationLabels = ['operationName', 'operationType'] as const;
  const byOperation = (params: { operationName?: string; operationType?: string }) => ({
    operationName: bounded(params.operationName),
    operationType: params.operationType ?? 'unknown',
  });

  return {
    registry,
    store: {
      observe: (method, seconds, outcome) => storeDuration.observe({ method, outcome }, seconds),
      inFlight: (delta) => storeInFlight.inc(delta),
    },
    rateLimited: () => limited.inc(),
    costs: (requested, actual) => {
      requestedPoints.inc(requested);
      actualPoints.inc(actual);
    },
    trackBuckets: (size) => {
      bucketSize = size;
    },
    trackScheduler: (stats) => {
      schedulerStats = stats;
    },
    queueWait: (seconds) => queueWait.observe(seconds),
    admissionRefused: (reason) => {
      limited.inc();
      admissionRefused.inc({ reason });
    },
    plugins: ({ endpoint }) => [
      ...(endpoint && cluster ? [serveFrom(cluster)] : []),
      usePrometheus({
        registry,
        endpoint: endpoint && !cluster ? METRICS_ENDPOINT : false,
        metrics: {
          graphql_envelop_request: createCounter({
            registry,
            counter: {
              name: 'graphql_envelop_request',
              help: 'GraphQL operations executed, by operation.',
              labelNames: operationLabels,
            },
            fillLabelsFn: byOperation,
          }),
          graphql_envelop_request_duration: createHistogram({
            registry,
            histogram: {
              name: 'graphql_envelop_request_duration',
              help: 'GraphQL operation duration (parse to result), by operation.',
              labelNames: operationLabels,
            },
            fillLabelsFn: byOperation,
          }),
          graphql_envelop_phase_execute: createHistogram({
            registry,
            histogram: {
              name: 'graphql_envelop_phase_execute',
              help: 'Time spent executing operations, by operation.',
              labelNames: operationLabels,
            },
            fillLabelsFn: byOperation,
          }),
          graphql_yoga_http_duration: createHistogram({
            registry,
            histogram: {
              name: 'graphql_yoga_http_duration',
              help: 'HTTP request duration, by operation and status (no URL label: query strings may hold data).',
              labelNames: ['operationName', 'operationType', 'method', 'statusCode'],
            },
            fillLabelsFn: (params, { request, response }) => ({
              ...byOperation(params),
              method: request.method,
              statusCode: response.status,
            }),
          }),
          graphql_envelop_request_time_summary: false,
          graphql_envelop_phase_parse: false,
          graphql_envelop_phase_validate: false,
          graphql_envelop_phase_context: false,
          graphql_envelop_phase_subscribe: false,
          graphql_envelop_error_result: false,
          graphql_envelop_deprecated_field: false,
          graphql_envelop_schema_change: false,
          graphql_envelop_execute_resolver: false,
        },
      }),
      {
        onRequest({ url, request }) {
          if (url.pathname !== '/graphql') return;
          httpInFlight.inc();
          inFlight.add(request);
        },
        onResultProcess({ result }) {
          for (const single of Array.isArray(result) ? result : [result]) {
            for (const error of (single as ExecutionResult | undefined)?.errors ?? []) {
              errors.inc({ code: String(error.extensions?.code ?? 'UNKNOWN') });
            }
          }
        },
        onResponse({ request }) {
          if (inFlight.delete(request)) httpInFlight.dec();
        },
      },
    ],
  };
}

/** Answers /metrics from the cluster's merged values instead of this process's registry. */
function serveFrom(cluster: MetricsSource): Plugin {
  return {
    onRequest({ url, fetchAPI, endResponse }) {
      if (url.pathname !== METRICS_ENDPOINT) return;
      return cluster().then(({ text, contentType }) =>
        endResponse(new fetchAPI.Response(text, { headers: { 'content-type': contentType } })),
      );
    },
  };
}
