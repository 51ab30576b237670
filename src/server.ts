import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createMetrics } from './http/use-metrics.js';
import { createLogger } from './logger.js';
import { createStore } from './store/create-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await createStore(config);
  let draining = false;
  const metrics = createMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  const app = createApp({ config, store, logger, isDraining: () => draining, metrics });
  let inFlight = 0;
  let onIdle = () => {};
  const server = createServer((request, response) => {
    inFlight++;
    // While draining, every answer tells the client to reconnect (elsewhere) for its next request.
    if (draining) response.setHeader('connection', 'close');
    response.once('close', () => {
      inFlight--;
      onIdle();
    });
    void app(request, response);
  });

  // Idle keep-alive connections outlive common proxy and client pools (60 s), so a client never
  // reuses a socket the server is closing at that instant: a reset there makes clients retry,
  // and a retried weaken would apply twice. headersTimeout must stay above it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((done) => server.listen(config.port, config.host, done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const storeLabel = config.store.kind === 'sqlite' ? `sqlite ${resolve(config.store.path)}` : store.description;
  const graphiql = config.graphiql ? `GraphiQL at http://localhost:${port}/graphql` : 'GraphiQL off';
  const explorer = config.explorer ? ` · explorer at http://localhost:${port}/explore` : '';
  console.log(`Engram listening on http://localhost:${port}/graphql · store: ${storeLabel} · ${graphiql}${explorer}`);
  logger.info(
    {
      mode: config.mode,
      auth: config.apiKeys.length > 0 ? `${config.apiKeys.length} API keys` : 'none (x-engram-workspace header)',
      graphiql: config.graphiql,
      introspection: config.introspection,
      persistedOnly: config.persistedOnly,
    },
    'started',
  );
  if (config.mode === 'production' && config.apiKeys.length === 0) {
    logger.warn('production mode without API keys: any caller can use any workspace (set ENGRAM_API_KEYS or ENGRAM_API_KEYS_FILE)');
  }

  let finished = false;
  const finish = async (forced: boolean) => {
    if (finished) return;
    finished = true;
    if (forced) {
      logger.warn({ inFlight, graceMs: config.shutdownGraceMs }, 'drain window over: closing the connections still open');
      server.closeAllConnections();
    }
    server.close();
    try {
      // SQLite: checkpoints the WAL into the database file and closes it.
      await store.close();
      logger.info('store closed; bye');
    } catch (error) {
      logger.error({ err: error }, 'closing the store failed');
      process.exitCode = 1;
    }
    process.exit();
  };
  /**
   * /ready answers 503 at once (load balancers stop routing here); requests in flight finish, and
   * requests still arriving are served with Connection: close. When none is left, or when the
   * drain window (ENGRAM_SHUTDOWN_GRACE_MS) is over, the store is closed and the process exits.
   */
  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal, inFlight, graceMs: config.shutdownGraceMs }, 'shutting down: /ready is 503, draining requests');
    onIdle = () => {
      server.closeIdleConnections();
      if (inFlight === 0) void finish(false);
    };
    onIdle();
    setTimeout(() => void finish(true), config.shutdownGraceMs).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
