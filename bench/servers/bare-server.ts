/**
 * Engram's schema, loaders and store with none of its plugins: no auth, logs, metrics, limits,
 * budget, deadline or error contract, and a fixed workspace. Not a way to run Engram; it splits
 * the distance between the floor and the production server into what executing the query costs
 * (this server) and what the production plugins add (the rest). Reports its port over IPC.
 */
import { createYoga } from 'graphql-yoga';
import { loadConfig } from '../../src/config.js';
import type { EngramContext } from '../../src/graphql/context.js';
import { schema } from '../../src/graphql/index.js';
import { createLoaders } from '../../src/loaders/index.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createWorkMeter } from '../../src/store/work-budget.js';
import { serveForBenchmark } from './serve.js';

const config = loadConfig();
if (config.store.kind !== 'sqlite') throw new Error('the benchmark server runs on SQLite');
// The first of the benchmark's workspaces: the one the HTTP rows ask.
const workspace = (process.env.BENCH_WORKSPACE ?? config.defaultWorkspace).split(',')[0] as string;
const store = createSqliteStore({
  path: config.store.path,
  busyTimeoutMs: config.store.busyTimeoutMs,
  cacheSizeMb: config.store.cacheSizeMb,
});
const yoga = createYoga<Record<string, unknown>, EngramContext>({
  schema,
  logging: false,
  context: () => ({
    workspace,
    role: 'write',
    store,
    loaders: createLoaders(store, workspace),
    policy: config.policy,
    limits: config.limits,
    work: createWorkMeter(config.limits.workBudget),
    strictTypes: config.strictTypes,
  }),
});
await store.warmAdjacencyIndex(workspace);
serveForBenchmark(yoga, () => store.close());
