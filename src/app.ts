import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { type Config, ConfigError, type RateLimit } from './config.js';
import { createQueryEmbedder } from './embeddings/query-embeddings.js';
import { embedderFor } from './embeddings/setup.js';
import { createVectorMatcher } from './embeddings/vector-matcher.js';
import type { EngramContext } from './graphql/context.js';
import { schema } from './graphql/index.js';
import { FairScheduler } from './limits/fair-scheduler.js';
import { createLoaders } from './loaders/index.js';
import type { Logger } from './logger.js';
import { createAuthenticator, type Principal, useAuth, WORKSPACE_HEADER } from './plugins/use-auth.js';
import { useBodyLimit } from './plugins/use-body-limit.js';
import { actualCost, type CostBuckets, createCostBudget } from './plugins/use-cost-budget.js';
import { useCsrfPrevention } from './plugins/use-csrf.js';
import { createDeadlines } from './plugins/use-deadline.js';
import { maskError, useErrors } from './plugins/use-errors.js';
import { EXPLORER_PATH, useExplorer } from './plugins/use-explorer.js';
import { useGraphiQLPage } from './plugins/use-graphiql-page.js';
import { type IndexLink, useIndexPage } from './plugins/use-index-page.js';
import { useIntrospection } from './plugins/use-introspection.js';
import { useLimits } from './plugins/use-limits.js';
import { MCP_ENDPOINT, useMcp } from './plugins/use-mcp.js';
import { createMetrics, METRICS_ENDPOINT, type Metrics } from './plugins/use-metrics.js';
import { useNoUploads } from './plugins/use-no-uploads.js';
import { useOperationTypes } from './plugins/use-operation-types.js';
import { loadTrustedDocuments, usePersistedOnly } from './plugins/use-persisted-only.js';
import { usePooledReads } from './plugins/use-pooled-reads.js';
import { READINESS_ENDPOINT, useReadiness } from './plugins/use-readiness.js';
import { REQUEST_ID_HEADER, requestIdOf, useRequestLog, yogaLogger } from './plugins/use-request-log.js';
import { useScheduler } from './plugins/use-scheduler.js';
import { instrumentStore, storeWithDeadline } from './store/instrumented-store.js';
import type { GraphStore } from './store/port.js';
import { createWorkMeter, storeWithWorkBudget, type WorkMeter } from './store/work-budget.js';

export { WORKSPACE_HEADER };

export interface AppDeps {
  config: Config;
  store: GraphStore;
  logger: Logger;
  /** True once shutdown began: /ready answers 503 so load balancers stop sending traffic. */
  isDraining?: () => boolean;
  /** Where /metrics reports; server.ts passes one with process metrics. Default: a fresh registry. */
  metrics?: Metrics;
  /** With workers, the cost budget's buckets held for all of them (src/cluster/); default: this process's own. */
  sharedBuckets?: (rate: RateLimit) => CostBuckets;
}

export type EngramApp = YogaServerInstance<Record<string, unknown>, EngramContext>;

/**
 * Read-only, so running it never gets in the way of the README's tour, whose step 1 creates
 * memories with fixed keys.
 */
export const WELCOME_QUERY = `# Welcome to Engram. Run this (it only reads), then open the Docs panel (top left) to explore.
# To add memories and links, follow the README's two-minute tour.

query Explore {
  relationTypes { name description }
  searchMemories(query: "postgres", limit: 5) {
    id key title kind weight
    neighbors(limit: 5) { direction edge { type weight pruned } memory { key title } }
  }
}
`;

/** Headers only a preflighted (CORS-checked) browser request can carry: any one of them passes CSRF prevention. */
const CSRF_HEADERS = [WORKSPACE_HEADER, 'authorization', 'x-graphql-yoga-csrf', 'apollo-require-preflight'];

const GRAPHQL_ENDPOINT = '/graphql';
const HEALTH_ENDPOINT = '/health';

function indexLinks(config: Config): IndexLink[] {
  return [
    {
      path: GRAPHQL_ENDPOINT,
      what: config.graphiql ? 'the GraphQL API, and GraphiQL in a browser' : 'the GraphQL API',
    },
    ...(config.explorer ? [{ path: EXPLORER_PATH, what: 'the graph explorer' }] : []),
    { path: MCP_ENDPOINT, what: 'the MCP endpoint for agents (Streamable HTTP)' },
    { path: HEALTH_ENDPOINT, what: 'liveness' },
    { path: READINESS_ENDPOINT, what: 'readiness (store reachable, not draining)' },
    ...(config.metrics ? [{ path: METRICS_ENDPOINT, what: 'Prometheus metrics' }] : []),
  ];
}

/** Builds the yoga instance with every plugin; it never listens (server.ts does, tests use app.fetch). */
export function createApp(deps: AppDeps): EngramApp {
  const { config, logger } = deps;
  const keysConfigured = config.apiKeys.length > 0;
  const authenticate = createAuthenticator({ keys: config.apiKeys, defaultWorkspace: config.defaultWorkspace });
  const metrics = deps.metrics ?? createMetrics();
  const store = instrumentStore(deps.store, metrics.store);
  const deadlines = createDeadlines({ timeoutMs: config.requestTimeoutMs, graphqlEndpoint: GRAPHQL_ENDPOINT });
  const budget = createCostBudget(
    config.rateLimit,
    { rateLimited: metrics.rateLimited, costs: metrics.costs },
    deps.sharedBuckets,
  );
  const buckets = budget.buckets;
  if (buckets) metrics.trackBuckets(() => buckets.size);
  const { concurrency, maxQueued, maxWaitMs } = config.admission;
  const scheduler = concurrency > 0 ? new FairScheduler({ seats: concurrency, maxQueued, maxWaitMs }) : null;
  if (scheduler) metrics.trackScheduler(() => scheduler.stats);
  // Each request's work meter, for the scheduler to charge its flow once it has been answered.
  const meters = new WeakMap<Request, WorkMeter>();
  const flowOf = (principal: Principal) =>
    // Where keys are on, each key is a flow of its own: two keys of one workspace share fairly too.
    principal.keyId === null ? principal.workspace : `${principal.workspace}/${principal.keyId}`;
  const trusted = config.persistedOnly ? loadTrustedDocuments(config.operationsDir) : null;
  if (trusted?.size === 0) {
    throw new ConfigError(
      `ENGRAM_PERSISTED_ONLY=true, but ${config.operationsDir} holds no named operation: every request would be refused`,
    );
  }
  // Unexpected errors are logged once, with their request id, by useRequestLog (maskError keeps the original).
  // Recall's vector signal exists only with an endpoint: recall treats a present matcher as "vectors
  // configured" and weighs its signals accordingly, and without an endpoint most queries (text only)
  // could not be matched anyway. Client-sent vectors on memories are stored either way.
  const embedder = embedderFor(config);
  // One for the app, not per request: what it keeps serves every later request.
  const embedQuery = embedder && config.embeddings ? createQueryEmbedder(embedder, config.embeddings.queryCache) : null;
  const app: EngramApp = createYoga<Record<string, unknown>, EngramContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    healthCheckEndpoint: HEALTH_ENDPOINT,
    landingPage: false,
    batching: false,
    // No file uploads: useNoUploads answers multipart requests with a coded 415.
    multipart: false,
    // useBodyLimit below enforces ENGRAM_MAX_BODY_BYTES at a lower cost per request.
    maxRequestBodySize: false,
    logging: yogaLogger(logger),
    // useGraphiQLPage serves it instead, compressed.
    graphiql: false,
    maskedErrors: { maskError: maskError({ exposeInternal: config.unmaskedErrors }), isDev: false },
    cors:
      config.corsOrigins.length === 0
        ? false
        : {
            origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
            credentials: false,
            methods: ['GET', 'POST'],
            allowedHeaders: ['content-type', 'authorization', WORKSPACE_HEADER, REQUEST_ID_HEADER],
            exposedHeaders: [REQUEST_ID_HEADER, 'retry-after'],
            maxAge: 600,
          },
    context: ({ request }): EngramContext => {
      const principal = authenticate(request);
      const signal = deadlines.signalFor(request);
      // The request's view of the store stops at its deadline and within its work budget; loaders
      // and services all use it.
      const work = createWorkMeter(config.limits.workBudget);
      const requestStore = storeWithWorkBudget(storeWithDeadline(store, signal), work, config.limits.rowsPerCall);
      meters.set(request, work);
      return {
        workspace: principal.workspace,
        role: principal.role,
        signal,
        requestId: requestIdOf(request),
        store: requestStore,
        loaders: createLoaders(requestStore, principal.workspace),
        policy: config.policy,
        limits: config.limits,
        work,
        strictTypes: config.strictTypes,
        recall: config.recall,
        logger,
        ...(embedder ? { embedder, vectorMatcher: createVectorMatcher(requestStore, embedQuery) } : {}),
      };
    },
    plugins: [
      // Result hooks run in this order: the error contract first, so logs and metrics see final codes.
      useErrors(),
      useRequestLog({ logger, authenticate }),
      useBodyLimit(config.limits.maxBodyBytes),
      useAuth({ authenticate, keysConfigured, adminPaths: [METRICS_ENDPOINT], keyedPaths: [MCP_ENDPOINT] }),
      useIndexPage(indexLinks(config)),
      ...(config.graphiql
        ? [
            useGraphiQLPage({
              endpoint: GRAPHQL_ENDPOINT,
              render: async () =>
                (await import('@graphql-yoga/render-graphiql')).renderGraphiQL({
                  title: 'Engram',
                  defaultQuery: WELCOME_QUERY,
                  headers: JSON.stringify(
                    keysConfigured ? { Authorization: 'Bearer <your API key>' } : { [WORKSPACE_HEADER]: 'default' },
                  ),
                }),
            }),
          ]
        : []),
      ...metrics.plugins({ endpoint: config.metrics }),
      deadlines.plugin,
      ...(scheduler
        ? [
            useScheduler(scheduler, {
              // useAuth has refused a request without valid credentials before this runs.
              flowOf: (request) => flowOf(authenticate(request)),
              signalOf: deadlines.signalFor,
              costOf: (request) => actualCost({ work: meters.get(request) }),
              waited: metrics.queueWait,
              refused: metrics.admissionRefused,
            }),
          ]
        : []),
      ...(config.csrfPrevention
        ? [useCsrfPrevention({ requestHeaders: CSRF_HEADERS, maxTokens: config.limits.maxTokens })]
        : []),
      useNoUploads(),
      ...(trusted ? usePersistedOnly({ documents: trusted, maxTokens: config.limits.maxTokens }) : []),
      useIntrospection({ enabled: config.introspection }),
      useLimits(config.limits, {
        suggestions: config.graphiql && config.introspection && config.mode !== 'production',
        onCost: budget.recordCost,
      }),
      budget.plugin,
      // A store that can share a transaction among a request's reads (Neo4j) finds them here.
      ...(deps.store.pooledReads ? [usePooledReads()] : []),
      useOperationTypes(),
      ...(config.explorer ? [useExplorer({ logger })] : []),
      useMcp({ logger, maxBodyBytes: config.limits.maxBodyBytes, fetch: (url, init) => app.fetch(url, init) }),
      useReadiness(async () => {
        if (deps.isDraining?.()) return false;
        await store.ping();
        return true;
      }),
    ],
  });
  return app;
}
