import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { collectDefaultMetrics } from 'prom-client';
import { startPrimary } from './cluster/primary.js';
import { type ClusterMember, joinCluster, WORKER_HEADER } from './cluster/worker.js';
import { type Config, loadConfig } from './config.js';
import { StartupError } from './domain/errors.js';
import { backfillFor } from './embeddings/setup.js';
import { listen } from './listen.js';
import { createLogger, type Logger } from './logger.js';
import { installShutdown } from './shutdown.js';
import { createStore } from './store/create-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return startCluster(config, logger);
  const member = joinCluster(config);
  return serve(config, member ? logger.child({ worker: member.workerId }) : logger, member);
}

/**
 * ENGRAM_WORKERS > 1: the primary opens the store once first, so migrations run before any worker
 * and a store that cannot open stops start-up with its own message instead of a crash loop.
 */
async function startCluster(config: Config, logger: Logger): Promise<void> {
  const store = await createStore(config);
  const description = store.description;
  await store.close();
  startPrimary({
    config,
    logger,
    announce: (port) => {
      console.log(
        `Engram listening on http://localhost:${port}/graphql · ${config.workers} workers · ${links(config, port, description)}`,
      );
    },
  });
  logger.info({ workers: config.workers, ...startedFields(config) }, 'started');
}

/** One server process: the whole server with ENGRAM_WORKERS=1, else one of the workers. */
async function serve(config: Config, logger: Logger, member: ClusterMember | null): Promise<void> {
  // Loaded here, not at the top: a cluster's primary serves nothing and stays small without them.
  const [{ createApp }, { createMetrics }] = await Promise.all([
    import('./app.js'),
    import('./plugins/use-metrics.js'),
  ]);
  const store = await createStore(config);
  const metrics = createMetrics(undefined, member?.metricsSource);
  collectDefaultMetrics({ register: metrics.registry });
  member?.shareMetrics(metrics.registry);
  const app = createApp({
    config,
    store,
    logger,
    isDraining: () => drain.draining,
    metrics,
    sharedBuckets: member?.sharedBuckets,
  });
  const workerId = member ? String(member.workerId) : null;
  const server = createServer((request, response) => {
    if (workerId) response.setHeader(WORKER_HEADER, workerId);
    drain.handle(response, () => void app(request, response));
  });
  // With workers, one of them back-fills (the primary says which): each would send the same queue to the endpoint.
  const backfill = member && !member.runsBackgroundWork ? null : backfillFor(config, store, logger);
  const drain = installShutdown({ server, store, logger, config, stopBackground: async () => backfill?.stop() });
  member?.onPrimaryLost(() => drain.stop('SIGTERM'));

  // Idle keep-alive connections outlive common proxy and client pools (60 s), so a client never
  // reuses a socket the server is closing at that instant: a reset there makes clients retry,
  // and a retried weaken would apply twice. headersTimeout must stay above it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = await listen(server, { port: config.port, host: config.host }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });

  backfill?.start();

  // With workers, the primary prints the one start-up line once all of them listen.
  if (!member)
    console.log(`Engram listening on http://localhost:${port}/graphql · ${links(config, port, store.description)}`);
  logger.info(startedFields(config), 'started');
  if (config.mode === 'production' && config.apiKeys.length === 0) {
    logger.warn(
      'production mode without API keys: any caller can use any workspace (set ENGRAM_API_KEYS or ENGRAM_API_KEYS_FILE)',
    );
  }
}

function links(config: Config, port: number, storeDescription: string): string {
  const graphiql = config.graphiql ? `GraphiQL at http://localhost:${port}/graphql` : 'GraphiQL off';
  const explorer = config.explorer ? ` · explorer at http://localhost:${port}/explore` : '';
  return `store: ${storeDescription} · ${graphiql}${explorer}`;
}

function startedFields(config: Config) {
  return {
    mode: config.mode,
    auth: config.apiKeys.length > 0 ? `${config.apiKeys.length} API keys` : 'none (x-engram-workspace header)',
    graphiql: config.graphiql,
    introspection: config.introspection,
    persistedOnly: config.persistedOnly,
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
