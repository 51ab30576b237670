import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createStore } from './store/create-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await createStore(config);
  let draining = false;
  const app = createApp({ config, store, logger, isDraining: () => draining });
  const server = createServer(app);

  await new Promise<void>((done) => server.listen(config.port, config.host, done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const storeLabel = config.store.kind === 'sqlite' ? `sqlite ${resolve(config.store.path)}` : store.description;
  const graphiql = config.graphiql ? `GraphiQL at http://localhost:${port}/graphql` : 'GraphiQL off';
  console.log(`Engram listening on http://localhost:${port}/graphql · store: ${storeLabel} · ${graphiql}`);

  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal }, 'shutting down: draining requests');
    server.close(() => {
      void store.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    // In-flight requests get a bounded window; then the process leaves regardless.
    setTimeout(() => {
      server.closeAllConnections();
      void store.close().finally(() => process.exit(0));
    }, 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
