/**
 * Engram's schema, loaders and store with none of its plugins: no auth, logs, metrics, limits,
 * budget, deadline or error contract, and a fixed workspace. Not a way to run Engram; it splits
 * the distance between the floor and the production server into what executing the query costs
 * (this server) and what the production plugins add (the rest). Reports its port over IPC.
 */
import { createServer } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { loadConfig } from '../../src/config.js';
import type { EngramContext } from '../../src/graphql/context.js';
import { schema } from '../../src/graphql/index.js';
import { createLoaders } from '../../src/loaders/index.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const config = loadConfig();
if (config.store.kind !== 'sqlite') throw new Error('the benchmark server runs on SQLite');
const workspace = process.env.BENCH_WORKSPACE ?? config.defaultWorkspace;
const store = createSqliteStore({ path: config.store.path, busyTimeoutMs: config.store.busyTimeoutMs, cacheSizeMb: config.store.cacheSizeMb });
const yoga = createYoga<Record<string, unknown>, EngramContext>({
  schema,
  logging: false,
  context: () => ({ workspace, role: 'write', store, loaders: createLoaders(store, workspace), policy: config.policy, limits: config.limits, strictTypes: config.strictTypes }),
});
await store.warmAdjacencyIndex(workspace);
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
});
process.on('disconnect', () => {
  server.close();
  void store.close().finally(() => process.exit(0));
});
