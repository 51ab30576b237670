import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { StartupError } from './domain/errors.js';
import { createConnectionDrain } from './plugins/connection-drain.js';
import { createMetrics } from './plugins/use-metrics.js';
import { closeLogs, createLogger } from './logger.js';
import { createStore } from './store/create-store.js';

/** How long connections idle at SIGTERM stay open for a request already on its way (at most the drain window). */
const DRAIN_IDLE_MS = 1000;
/** How long the exit waits for buffered log lines to be written. */
const LOG_FLUSH_TIMEOUT_MS = 1000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await createStore(config);
  const metrics = createMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  const app = createApp({ config, store, logger, isDraining: () => drain.draining, metrics });
  // While draining, every answer tells the client to reconnect (elsewhere) for its next request.
  const server = createServer((request, response) =>
    drain.handle(request, response, () => void app(request, response)),
  );
  const drain = createConnectionDrain(server, { idleMs: Math.min(DRAIN_IDLE_MS, config.shutdownGraceMs) });

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
    logger.warn(
      'production mode without API keys: any caller can use any workspace (set ENGRAM_API_KEYS or ENGRAM_API_KEYS_FILE)',
    );
  }

  let finished = false;
  const finish = async (signal: NodeJS.Signals, forced: boolean) => {
    if (finished) return;
    finished = true;
    if (forced) {
      logger.warn(
        { inFlight: drain.inFlight, graceMs: config.shutdownGraceMs },
        'drain window over: closing the connections still open',
      );
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
    // A log pipe nobody reads must not hold the exit: what it does not take in time is dropped.
    if ((await closeLogs(logger, LOG_FLUSH_TIMEOUT_MS)) === 'stuck') {
      // A log write is blocked in the kernel, and process.exit() would wait for the thread doing
      // it. The store is closed: end the way an unhandled signal does (no exit hooks to wait on).
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit();
  };
  /**
   * /ready answers 503 at once (load balancers stop routing here); requests in flight finish, and
   * they and requests still arriving are served with Connection: close; idle keep-alive connections
   * are closed cleanly (see createConnectionDrain). When no request and no connection is left, or
   * when the drain window (ENGRAM_SHUTDOWN_GRACE_MS) is over, the store is closed and the process exits.
   */
  const shutdown = (signal: NodeJS.Signals) => {
    if (drain.draining) return;
    logger.info(
      { signal, inFlight: drain.inFlight, graceMs: config.shutdownGraceMs },
      'shutting down: /ready is 503, draining requests',
    );
    drain.begin(() => void finish(signal, false));
    setTimeout(() => void finish(signal, true), config.shutdownGraceMs).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
