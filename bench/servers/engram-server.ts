/**
 * Engram as server.ts runs it (config from the environment, every production plugin: auth,
 * request log, metrics with process metrics, deadlines, CSRF, armor limits, cost budget, error
 * contract ...), over the benchmark's SQLite file. Before listening it warms the adjacency index
 * of the benchmark workspaces (BENCH_WORKSPACE, comma-separated), as a production start-up would. Reports its port over IPC.
 */
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/plugins/use-metrics.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { serveForBenchmark } from './serve.js';

const config = loadConfig();
if (config.store.kind !== 'sqlite') throw new Error('the benchmark server runs on SQLite');
const logger = createLogger(config.logLevel);
const store = createSqliteStore({
  path: config.store.path,
  busyTimeoutMs: config.store.busyTimeoutMs,
  cacheSizeMb: config.store.cacheSizeMb,
});
const metrics = createMetrics();
collectDefaultMetrics({ register: metrics.registry });
const app = createApp({ config, store, logger, metrics });
for (const workspace of (process.env.BENCH_WORKSPACE ?? config.defaultWorkspace).split(',')) {
  await store.warmAdjacencyIndex(workspace);
}
serveForBenchmark(app, () => store.close());
