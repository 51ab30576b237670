/**
 * recall's rows on Neo4j, run by `npm run bench` after the Neo4j row set when NEO4J_URI is set.
 * Alone:
 *
 *   NEO4J_URI=... NEO4J_PASSWORD=... npx tsx bench/recall-neo4j.ts [--seed 42]
 *
 * The Neo4j bench's 10k / 50k graph goes into a workspace of its own on the server (deleted
 * afterwards), then the same rows as on SQLite: recall latency and store calls through the app, and
 * the quality check on its known-answer graph in a second workspace. Beside the rows, the floor:
 * the Bolt traffic of one recall doing nothing (boltFloor). `--memories 100000 --edges 500000`
 * loads the size of issue 25's target instead (a few minutes of import).
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
import { now, type Summary, summarize } from './lib/stats.js';
import { importAll, prefixed, WORKSPACE } from './neo4j-bench-setup.js';
import { QUALITY_RUN, type RecallBenchResult, renderRecallBench } from './recall-bench.js';
import { benchRecallLatency } from './recall-latency.js';
import { type Gql, runRecallQuality } from './recall-quality.js';
import { fmt } from './report.js';

const QUALITY_WORKSPACE = 'recall-quality';
const log = (message: string) => process.stderr.write(`bench(neo4j recall): ${message}\n`);

/** How many reads recall's query row makes in its read transaction: the search, two hops, the candidates. */
const RECALL_READS = 4;

export interface RecallNeo4jResult extends RecallBenchResult {
  graph: { memories: number; edges: number };
  /** boltFloor, timed after the rows. */
  floor: { reads: number; summary: Summary };
}

export async function runRecallNeo4j(options: {
  seed: number;
  starts?: number;
  memories?: number;
  edges?: number;
}): Promise<RecallNeo4jResult> {
  const spec = { memories: options.memories ?? 10_000, edges: options.edges ?? 50_000, seed: options.seed };
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
    const floor = {
      reads: RECALL_READS,
      summary: await boltFloor(driver, settings.database, `${prefix}floor`, RECALL_READS, 200),
    };
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
    return { latency, quality, graph: { memories: spec.memories, edges: spec.edges }, floor };
  } finally {
    await deleteWorkspaces(driver, settings.database, prefix);
    await raw.close();
  }
}

/**
 * The Bolt traffic of one recall with nothing to do, as the store sends it (docs/neo4j.md): a read
 * transaction of `reads` one-row statements, each waited for, its COMMIT sent and not waited for;
 * then a write transaction of two statements sent together (the record and the purge). No change
 * to recall's statements can take it below this on the same server and machine. Timed `n` times
 * after 50 unmeasured ones.
 */
async function boltFloor(
  driver: ReturnType<typeof createNeo4jDriver>,
  database: string | null,
  ws: string,
  reads: number,
  n: number,
): Promise<Summary> {
  const scope = database ? { database } : {};
  const once = async (): Promise<number> => {
    const started = now();
    const readSession = driver.session({ defaultAccessMode: 'READ', ...scope });
    const tx = readSession.beginTransaction();
    for (let statement = 0; statement < reads; statement++)
      await tx.run('RETURN $statement AS statement', { statement });
    const committed = tx.commit().finally(() => readSession.close());
    const writeSession = driver.session({ defaultAccessMode: 'WRITE', ...scope });
    try {
      await writeSession.executeWrite((write) =>
        Promise.all([
          write.run('RETURN 1 AS purged'),
          write.run('CREATE (r:Recall {workspace: $ws}) DELETE r', { ws }),
        ]),
      );
    } finally {
      await writeSession.close();
    }
    const ms = now() - started;
    await committed;
    return ms;
  };
  for (let warm = 0; warm < 50; warm++) await once();
  const times: number[] = [];
  for (let index = 0; index < n; index++) times.push(await once());
  return summarize(times);
}

/** The rows, then the floor beside them. */
export function renderRecallNeo4j(result: RecallNeo4jResult): string {
  const { floor } = result;
  return `${renderRecallBench(result)}

Graph: ${result.graph.memories.toLocaleString('en-US')} memories / ${result.graph.edges.toLocaleString('en-US')} edges. Floor, the same Bolt traffic doing nothing (a read transaction of ${floor.reads} one-row statements, then a write transaction of 2): p50 ${fmt(floor.summary.median)} ms, p95 ${fmt(floor.summary.p95)} ms (n ${floor.summary.n}).`;
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
  const { values } = parseArgs({
    options: { seed: { type: 'string', default: '42' }, memories: { type: 'string' }, edges: { type: 'string' } },
  });
  if (!process.env.NEO4J_URI) {
    process.stderr.write('bench/recall-neo4j.ts: set NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD\n');
    process.exit(2);
  }
  const result = await runRecallNeo4j({
    seed: Number(values.seed),
    ...(values.memories ? { memories: Number(values.memories) } : {}),
    ...(values.edges ? { edges: Number(values.edges) } : {}),
  });
  process.stdout.write(`\nrecall on Neo4j\n${renderRecallNeo4j(result)}\n`);
}
