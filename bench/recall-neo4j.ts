/**
 * recall's rows on Neo4j, run by `npm run bench` after the Neo4j row set when NEO4J_URI is set.
 * Alone:
 *
 *   NEO4J_URI=... NEO4J_PASSWORD=... npx tsx bench/recall-neo4j.ts [--seed 42]
 *
 * The Neo4j bench's 10k / 50k graph goes into a workspace of its own on the server (deleted
 * afterwards), then the same rows as on SQLite: recall latency and store calls through the app, and
 * the quality check on its known-answer graph in a second workspace.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { NEO4J_BULK_TIMEOUT_MS, type Neo4jStoreConfig } from '../src/store/neo4j/adapter.js';
import { createNeo4jDriver, redactUri } from '../src/store/neo4j/driver.js';
import { createNeo4jStore } from '../src/store/neo4j/neo4j-store.js';
import { generateGraph, randomPairs } from './generator.js';
import { importAll, prefixed, WORKSPACE } from './neo4j-bench-setup.js';
import { QUALITY_RUN, type RecallBenchResult, renderRecallBench } from './recall-bench.js';
import { benchRecallLatency } from './recall-latency.js';
import { type Gql, runRecallQuality } from './recall-quality.js';

const QUALITY_WORKSPACE = 'recall-quality';
const log = (message: string) => process.stderr.write(`bench(neo4j recall): ${message}\n`);

export async function runRecallNeo4j(options: { seed: number; starts?: number }): Promise<RecallBenchResult> {
  const spec = { memories: 10_000, edges: 50_000, seed: options.seed };
  const config = loadConfig({
    ...process.env,
    ENGRAM_STORE: 'neo4j',
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_POINTS_PER_SECOND: '0',
  });
  const settings = config.store as Neo4jStoreConfig;
  const driver = createNeo4jDriver(settings);
  const raw = createNeo4jStore({
    driver,
    database: settings.database,
    transactionTimeoutMs: NEO4J_BULK_TIMEOUT_MS,
    label: redactUri(settings.uri),
  });
  // Every workspace of this run behind one prefix, so the run never touches other data and is deleted whole.
  const prefix = `engram-recall-bench-${randomUUID().slice(0, 8)}-`;
  const store = prefixed(raw, prefix);
  try {
    const info = await raw.ensureSchema();
    log(`Neo4j ${info.version} ${info.edition}; graph ${spec.memories} / ${spec.edges}`);
    const graph = generateGraph(spec);
    await importAll(store, graph, []);
    const pairs = randomPairs(graph, options.starts ?? 50, spec.seed + 1);
    const latency = await benchRecallLatency({
      store,
      config,
      headers: { 'x-engram-workspace': WORKSPACE },
      graph,
      starts: pairs.map(([a]) => a),
      warmupStarts: pairs.map(([, b]) => b),
    });
    const app = createApp({ config, store, logger: createLogger('silent') });
    const gql: Gql = async (query, variables) => {
      const response = await app.fetch('http://bench/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engram-workspace': QUALITY_WORKSPACE },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as Awaited<ReturnType<Gql>>;
    };
    const quality = await runRecallQuality({
      gql,
      store,
      workspace: QUALITY_WORKSPACE,
      seed: options.seed,
      ...QUALITY_RUN,
    });
    return { latency, quality };
  } finally {
    await deleteWorkspaces(driver, settings.database, prefix);
    await raw.close();
  }
}

/** Deletes every node of the run (memories, edge refs, weight events, recall records), in slices. */
async function deleteWorkspaces(
  driver: ReturnType<typeof createNeo4jDriver>,
  database: string | null,
  prefix: string,
): Promise<void> {
  for (;;) {
    const session = driver.session({ defaultAccessMode: 'WRITE', ...(database ? { database } : {}) });
    try {
      const result = await session.executeWrite(async (tx) =>
        tx.run(
          'MATCH (n) WHERE n.workspace STARTS WITH $prefix WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n',
          { prefix },
        ),
      );
      if (Number(result.records[0]?.get('n') ?? 0) === 0) return;
    } finally {
      await session.close();
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '42' } } });
  if (!process.env.NEO4J_URI) {
    process.stderr.write('bench/recall-neo4j.ts: set NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD\n');
    process.exit(2);
  }
  const result = await runRecallNeo4j({ seed: Number(values.seed) });
  process.stdout.write(`\nrecall on Neo4j\n${renderRecallBench(result)}\n`);
}
