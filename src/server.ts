import { createServer } from 'node:http';
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { StartupError } from './domain/errors.js';
import { listen } from './listen.js';
import { createLogger } from './logger.js';
import { createMetrics } from './plugins/use-metrics.js';
import { installShutdown } from './shutdown.js';
import { backfillFor } from './embeddings/setup.js';
import { createStore } from './store/create-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await createStore(config);
  const metrics = createMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  const app = createApp({ config, store, logger, isDraining: () => drain.draining, metrics });
  const server = createServer((request, response) => drain.handle(response, () => void app(request, response)));
  const backfill = backfillFor(config, store, logger);
  const drain = installShutdown({ server, store, logger, config, stopBackground: async () => backfill?.stop() });

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

  const graphiql = config.graphiql ? `GraphiQL at http://localhost:${port}/graphql` : 'GraphiQL off';
  const explorer = config.explorer ? ` · explorer at http://localhost:${port}/explore` : '';
  console.log(
    `Engram listening on http://localhost:${port}/graphql · store: ${store.description} · ${graphiql}${explorer}`,
  );
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
}

main().catch((error: unknown) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
