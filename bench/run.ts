/**
 * `npm run bench` — Engram's performance suite. Everything is measured in one run, on one machine,
 * so each ratio compares numbers taken under the same conditions:
 *
 * 1. a seeded power-law graph (hubs, 4 relation types) written as NDJSON and loaded with
 *    `engram import`'s code path, batch by batch (store.importBatch) and as one bulk load into the
 *    empty workspace (store.beginBulkLoad, what engram import does by default): both import rates;
 * 2. the bound: bidirectional BFS over Int32Array CSR arrays of the same graph, and the store's
 *    path (findShortestPath over the SQLite store) on the same seeded random pairs;
 * 3. other store-level operations (neighbors incl. the top hub, traverse, weaken, link);
 * 4. store calls of one `neighbors` query over 100 memories, counted;
 * 5. end to end over HTTP with autocannon: the floor (a bare yoga + Pothos server, one field) and
 *    Engram with every production plugin, each in its own process;
 * 6. hub under attack (hub-attack.ts): another tenant's latency while one workspace sends the
 *    heaviest queries at a memory with 50,000 edges; admission (admission-bench.ts): the fair
 *    scheduler off and on, a lone client's mix, two greedy workspaces, heavy against light.
 * 7. recall (recall-bench.ts): p50/p95 and store calls per request at maxDepth 2 and 3 on this graph,
 *    and the quality check on a seeded known-answer graph (search vs recall, then feedback rounds).
 *
 *   npm run bench                 100k memories / 500k edges (a few minutes)
 *   npm run bench -- --quick      10k / 50k (under a minute)
 *   npm run bench -- --large      1M / 10M (not in CI; long, and needs several GB of disk)
 * Options: --seed N, --pairs N, --seconds N (per HTTP run), --no-http, --keep (keep the database),
 * --no-neo4j, --no-associations, --no-longmem. With NEO4J_URI set, a Neo4j row set follows
 * (bench/neo4j-bench.ts: 10k / 50k graph). Associations on and off (bench/associations-bench.ts)
 * come next, on a graph of the same size; then, except with --quick, the long-memory sets
 * (bench/longmem/bench-step.ts: both shapes, two seeds, asked once and twice, about 4 minutes;
 * --longmem-vectors adds the default questions with vectors, about 8 minutes more), whose rows
 * are issue 25's and 28's retrieval targets.
 * A summary table is printed at the end; the full results go to bench/results/<date>-<mode>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import type { GraphStore } from '../src/store/port.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import {
  type AdmissionBenchResult,
  admissionBodies,
  renderAdmissionBench,
  runAdmissionBench,
} from './admission-bench.js';
import { renderAssociationBench, runAssociationBench } from './associations-bench.js';
import { buildCsr } from './csr.js';
import { type GeneratedGraph, generateGraph, RELATION_TYPES, randomPairs } from './generator.js';
import { load, NEIGHBORS, PATH, probe, startServer } from './http-bench.js';
import { type HubAttackResult, hubAttack } from './hub-attack.js';
import { importGraph, writeNdjson } from './import-run.js';
import { now } from './lib/stats.js';
import { longmemTargets, renderLongmem, runLongmemStep } from './longmem/bench-step.js';
import { type Neo4jBenchResult, renderNeo4jBench, runNeo4jBench } from './neo4j-bench.js';
import { runRecallBench } from './recall-bench.js';
import { type RecallNeo4jResult, renderRecallNeo4j, runRecallNeo4j } from './recall-neo4j.js';
import { type CallCount, evaluate, fmt, type HttpResults, type ImportResult, render } from './report.js';
import { comparePaths, type PathComparison, readBenchmarks, writeBenchmarks } from './store-bench.js';
import { renderWorkerScaling, workerScaling, workerScalingTargets } from './worker-scaling.js';

const MODES = {
  quick: { memories: 10_000, edges: 50_000, seconds: 2, warmup: 0.5, rounds: 3, recalls: 50 },
  default: { memories: 100_000, edges: 500_000, seconds: 8, warmup: 2, rounds: 3, recalls: 100 },
  large: { memories: 1_000_000, edges: 10_000_000, seconds: 8, warmup: 2, rounds: 1, recalls: 100 },
} as const;

const WORKSPACE = 'bench';
const API_KEY = 'bench-key-0123456789abcdef0123456789abcdef';
/** A second workspace holding the same graph, for the admission rows (two workspaces contending). */
const SECOND_WORKSPACE = 'bench-b';
const SECOND_API_KEY = 'bench-key-b123456789abcdef0123456789abcdef';

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      large: { type: 'boolean', default: false },
      seed: { type: 'string', default: '42' },
      pairs: { type: 'string', default: '200' },
      seconds: { type: 'string' },
      'no-http': { type: 'boolean', default: false },
      'no-neo4j': { type: 'boolean', default: false },
      'no-associations': { type: 'boolean', default: false },
      'no-longmem': { type: 'boolean', default: false },
      'longmem-vectors': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const modeName = values.large ? 'large' : values.quick ? 'quick' : 'default';
  const mode = MODES[modeName];
  const seed = Number(values.seed);
  const pairCount = Number(values.pairs);
  const seconds = values.seconds ? Number(values.seconds) : mode.seconds;
  const started = new Date();
  const environment = {
    date: started.toISOString(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    loadAverageAtStart: loadavg()[0],
  };
  log(
    `${modeName}: ${mode.memories.toLocaleString('en-US')} memories / ${mode.edges.toLocaleString('en-US')} edges, seed ${seed}; load average ${loadavg()[0]?.toFixed(1)}`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const dbPath = join(dir, 'engram.db');
  const config = loadConfig({ ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'silent' });
  try {
    // 1. the graph, as a file, through engram import's code path
    let t = now();
    const graph = generateGraph({ memories: mode.memories, edges: mode.edges, seed });
    const generateMs = now() - t;
    log(`generated in ${(generateMs / 1000).toFixed(1)} s; top hub degree ${graph.topHub.degree}`);
    const file = join(dir, 'graph.ndjson');
    await writeNdjson(graph, file);
    log(`importing ${(statSync(file).size / 1024 ** 2).toFixed(0)} MB of NDJSON`);
    // The same file batch by batch first (its own database), then as engram import loads it by default.
    const ordinaryPath = join(dir, 'ordinary.db');
    const ordinary = await importGraph(WORKSPACE, file, ordinaryPath, config, 'never');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${ordinaryPath}${suffix}`, { force: true });
    log(`batch by batch: ${Math.round(ordinary.edgesPerSecond).toLocaleString('en-US')} edges/s`);
    const importResult: ImportResult = { ...(await importGraph(WORKSPACE, file, dbPath, config, 'auto')), ordinary };
    log(
      `imported in ${(importResult.ms / 1000).toFixed(1)} s: ${Math.round(importResult.edgesPerSecond).toLocaleString('en-US')} edges/s`,
    );
    if (!values['no-http']) {
      await importGraph(SECOND_WORKSPACE, file, dbPath, config, 'auto');
      log(`the same graph imported into workspace ${SECOND_WORKSPACE} for the admission rows`);
    }

    // 2. the bound and the store's path
    t = now();
    const csr = buildCsr(graph, config.policy.pruneThreshold);
    const csrMs = now() - t;
    const store = createSqliteStore({ path: dbPath });
    const sqlStore = createSqliteStore({ path: dbPath, adjacencyIndex: false });
    t = now();
    if (!(await store.warmAdjacencyIndex(WORKSPACE))) throw new Error('the adjacency index did not build');
    const indexMs = now() - t;
    const indexStats = store.adjacencyIndexStats(WORKSPACE);
    const rssAfterIndex = process.memoryUsage().rss;
    log(`adjacency index built in ${(indexMs / 1000).toFixed(1)} s; CSR bound in ${csrMs.toFixed(0)} ms`);
    const pairs = randomPairs(graph, pairCount, seed + 1);
    const input = { store, sqlStore, workspace: WORKSPACE, graph, csr, pairs, config, rounds: mode.rounds, seed };
    const paths: PathComparison[] = [];
    for (const maxHops of [4, 6]) {
      paths.push(await comparePaths(input, maxHops));
      const last = paths[paths.length - 1] as PathComparison;
      log(
        `path maxHops ${maxHops}: store ${fmt(last.store.median)} ms vs CSR ${fmt(last.bound.median)} ms (${last.ratio.toFixed(2)}x), ${last.mismatches} hop mismatches`,
      );
    }
    const reads = await readBenchmarks(input);
    log('store reads done');

    // 3. store calls of one neighbors query over 100 memories
    const calls = await countNeighborCalls(store, graph, pairs, dbPath);
    log(
      `neighbors of 100 memories: ${calls.adjacency} adjacency + ${calls.memory} memory store calls (${calls.total} in all)`,
    );

    // 3b. recall: latency and store calls on this graph, then the quality check on a graph of its own
    const recall = await runRecallBench({
      store,
      config: loadConfig({ ...productionEnv(dbPath), ENGRAM_LOG_LEVEL: 'silent' }),
      headers: AUTH,
      graph,
      starts: pairs.slice(0, mode.recalls).map(([a]) => a),
      warmupStarts: pairs.slice(0, mode.recalls).map(([, b]) => b),
      dir,
      seed,
    });
    const [firstRecall] = recall.latency;
    const lastRound = recall.quality.rounds[recall.quality.rounds.length - 1];
    log(
      `recall: ${firstRecall?.label} p50 ${fmt(firstRecall?.summary.median ?? Number.NaN)} ms, ${firstRecall?.calls.mean.toFixed(1)} store calls; quality hit@5 search ${recall.quality.search.hitAt5.toFixed(2)}, recall ${recall.quality.rounds[0]?.hitAt5.toFixed(2)} -> ${lastRound?.hitAt5.toFixed(2)} after ${lastRound?.round} feedback rounds`,
    );

    // 4. end to end
    let http: HttpResults | null = null;
    if (!values['no-http']) {
      http = await httpBenchmarks(dbPath, graph, pairs, { seconds, warmup: mode.warmup });
      log(
        `http: path p50 ${fmt(http.path.p50)} ms vs floor ${fmt(http.floorLatency.p50)} ms (no plugins ${fmt(http.bare.path.p50)} ms); neighbors ${Math.round(http.neighbors.rps)} req/s vs floor ${Math.round(http.floorThroughput.rps)} req/s (no plugins ${Math.round(http.bare.neighbors.rps)} req/s)`,
      );
    }
    let picked = 0;
    const workers = values['no-http']
      ? null
      : await workerScaling({
          env: productionEnv(dbPath),
          headers: AUTH,
          body: () =>
            JSON.stringify({
              query: NEIGHBORS,
              variables: { id: graph.ids[(pairs[picked++ % pairs.length] ?? [0])[0]] },
            }),
          // More workers than cores measures the scheduler: 4 and 8 only where the cores exist (else the CPU model's projection).
          counts: [1, 2, 4, 8].filter((count) => count <= Math.max(2, availableParallelism())),
          indexBuildMs: indexMs,
          connections: 8,
          seconds,
          warmupSeconds: mode.warmup,
        });
    if (workers)
      log(`workers: ${workers.rows.map((row) => `${row.workers} -> ${Math.round(row.result.rps)} req/s`).join(', ')}`);
    let admission: AdmissionBenchResult | null = null;
    if (!values['no-http']) {
      admission = await runAdmissionBench({
        env: productionEnv(dbPath),
        first: AUTH,
        second: SECOND_AUTH,
        bodies: admissionBodies(graph, pairs),
        seconds,
        warmupSeconds: mode.warmup,
      });
      log(
        `admission: path p50 ${fmt(admission.ab.off.pathP50)} -> ${fmt(admission.ab.on.pathP50)} ms, neighbors ${Math.round(admission.ab.off.neighborsRps)} -> ${Math.round(admission.ab.on.neighborsRps)} req/s (scheduler off -> on); lone client ${Math.round(admission.lone.rps)} req/s, ${admission.lone.non2xx} refused; greedy share ${(admission.greedy.on.share * 100).toFixed(1)}%`,
      );
    }
    let hub: HubAttackResult | null = null;
    if (!values['no-http']) {
      const quietIds = pairs.slice(0, 50).map(([a]) => graph.ids[a] as string);
      hub = await hubAttack({
        dbPath,
        env: productionEnv(dbPath),
        quietKey: API_KEY,
        quietWorkspace: WORKSPACE,
        quietIds,
        seconds,
      });
      log(
        `hub under attack: other tenant p99 ${fmt(hub.underAttack.p99)} ms (alone ${fmt(hub.alone.p99)} ms), longest event-loop block ${fmt(hub.eventLoopLagMaxMs ?? Number.NaN)} ms`,
      );
    }

    // 5. writes (they change the graph, so they come last)
    const writeRows = await writeBenchmarks(input);
    await store.close();
    await sqlStore.close();

    const results = {
      mode: modeName,
      spec: graph.spec,
      environment: { ...environment, loadAverageAtEnd: loadavg()[0] },
      graph: { topHub: graph.topHub, relationTypes: RELATION_TYPES, generateMs },
      import: importResult,
      index: { buildMs: indexMs, stats: indexStats, benchProcessRssBytes: rssAfterIndex },
      bound: { buildMs: csrMs },
      paths,
      storeReads: reads,
      storeWrites: writeRows,
      neighborCalls: calls,
      recall,
      http,
      hubAttack: hub,
      targets: [
        ...evaluate(paths, http, calls, importResult, modeName, hub, recall),
        ...(workers ? workerScalingTargets(workers) : []),
      ],
      workers,
      admission,
    };
    // 6. Neo4j, when a server is configured (npm run test:neo4j -- --serve prints the variables).
    let neo4jResult: Neo4jBenchResult | null = null;
    let neo4jRecall: RecallNeo4jResult | null = null;
    if (process.env.NEO4J_URI && !values['no-neo4j']) {
      neo4jResult = await runNeo4jBench({ seed });
      neo4jRecall = await runRecallNeo4j({ seed });
    } else log('Neo4j rows skipped: set NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD to measure Neo4j against SQLite');
    // 7. What associations cost (issue 28): imports, writes and recall with them on and off.
    const associations = values['no-associations']
      ? null
      : await runAssociationBench({ memories: mode.memories, edges: mode.edges, seed, writes: 1000, log });
    // 8. Long-memory retrieval (issues 25 and 28): what recall finds and learns, on sets with known answers.
    const longmem =
      values['no-longmem'] || modeName === 'quick' ? null : await runLongmemStep(log, values['longmem-vectors']);
    if (longmem) results.targets.push(...longmemTargets(longmem));
    else log('long-memory rows skipped (--quick or --no-longmem): npx tsx bench/longmem/run.ts runs them alone');
    let rendered = workers
      ? `${render(results)}

${renderWorkerScaling(workers)}`
      : render(results);
    if (admission) rendered += `\n\n${renderAdmissionBench(admission)}`;
    if (associations) rendered += `\n\n${renderAssociationBench(associations)}`;
    if (longmem) rendered += `\n\n${renderLongmem(longmem)}`;
    let table = neo4jResult
      ? `${rendered}

${renderNeo4jBench(neo4jResult)}`
      : rendered;
    if (neo4jRecall)
      table += `

recall on Neo4j
${renderRecallNeo4j(neo4jRecall)}`;
    Object.assign(results, { neo4j: neo4jResult, neo4jRecall, associations, longmem });
    process.stdout.write(`\n${table}\n`);
    const out = fileURLToPath(new URL('./results/', import.meta.url));
    mkdirSync(out, { recursive: true });
    const name = join(out, `${started.toISOString().replace(/[:.]/g, '-')}-${modeName}.json`);
    writeFileSync(name, `${JSON.stringify({ ...results, table }, null, 2)}\n`);
    log(`results written to ${name}`);
  } finally {
    if (values.keep) log(`database kept at ${dbPath}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** Production configuration of the benchmark server (and of the in-process app that counts store calls). */
function productionEnv(dbPath: string): Record<string, string> {
  return {
    // As the Docker image runs it: NODE_ENV=production also takes graphql-js off its development checks.
    NODE_ENV: 'production',
    ENGRAM_MODE: 'production',
    ENGRAM_SQLITE_PATH: dbPath,
    ENGRAM_API_KEYS: `${API_KEY}=${WORKSPACE}:write,${SECOND_API_KEY}=${SECOND_WORKSPACE}:write`,
    // Quotas stay at their default (off); the fair scheduler is on, as it is by default.
    BENCH_WORKSPACE: `${WORKSPACE},${SECOND_WORKSPACE}`,
  };
}

const AUTH = { authorization: `Bearer ${API_KEY}` };
const SECOND_AUTH = { authorization: `Bearer ${SECOND_API_KEY}` };
const NEIGHBORS_OF_MANY =
  'query Many($ids: [ID!]!) { memories(ids: $ids) { id neighbors(limit: 20) { memory { title } } } }';
const FLOOR = '{ hello }';

async function countNeighborCalls(
  store: GraphStore,
  graph: GeneratedGraph,
  pairs: [number, number][],
  dbPath: string,
): Promise<CallCount> {
  const counts = new Map<string, number>();
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counts.set(String(property), (counts.get(String(property)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const config = loadConfig({ ...productionEnv(dbPath), ENGRAM_LOG_LEVEL: 'silent' });
  const app = createApp({ config, store: counting, logger: createLogger('silent') });
  const ids = [...new Set(pairs.map(([a]) => graph.ids[a] as string))].slice(0, 100);
  const response = await app.fetch('http://bench/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AUTH },
    body: JSON.stringify({ query: NEIGHBORS_OF_MANY, variables: { ids } }),
  });
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(`neighbors of 100 memories failed: ${JSON.stringify(body.errors)}`);
  const byMethod = Object.fromEntries([...counts].filter(([method]) => method !== 'ping'));
  return {
    adjacency: counts.get('getAdjacent') ?? 0,
    memory: counts.get('getMemories') ?? 0,
    total: Object.values(byMethod).reduce((sum, n) => sum + n, 0),
    byMethod,
  };
}

/**
 * Latency runs use one connection (requests back to back: p50 is the service time); throughput
 * runs use 8. Floor and Engram alternate, so drift in the machine's load hits both.
 */
async function httpBenchmarks(
  dbPath: string,
  graph: GeneratedGraph,
  pairs: [number, number][],
  timing: { seconds: number; warmup: number },
): Promise<HttpResults> {
  const floor = await startServer('./servers/floor-server.ts', { NODE_ENV: 'production' });
  const engram = await startServer('./servers/engram-server.ts', productionEnv(dbPath));
  const bare = await startServer('./servers/bare-server.ts', productionEnv(dbPath));
  try {
    let next = 0;
    const pick = () => pairs[next++ % pairs.length] as [number, number];
    const floorBody = () => JSON.stringify({ query: FLOOR });
    const pathBody = () => {
      const [a, b] = pick();
      return JSON.stringify({ query: PATH, variables: { from: graph.ids[a], to: graph.ids[b] } });
    };
    const neighborsBody = () => JSON.stringify({ query: NEIGHBORS, variables: { id: graph.ids[pick()[0]] } });
    await probe(floor.url, {}, floorBody());
    await probe(engram.url, AUTH, pathBody());
    await probe(engram.url, AUTH, neighborsBody());
    await probe(bare.url, {}, pathBody());
    const run = (url: string, headers: Record<string, string>, body: () => string, connections: number) =>
      load({ url, headers, body, connections, seconds: timing.seconds, warmupSeconds: timing.warmup });
    const floorLatency = await run(floor.url, {}, floorBody, 1);
    const path = await run(engram.url, AUTH, pathBody, 1);
    const floorThroughput = await run(floor.url, {}, floorBody, 8);
    const neighbors = await run(engram.url, AUTH, neighborsBody, 8);
    const pathThroughput = await run(engram.url, AUTH, pathBody, 8);
    const neighborsLatency = await run(engram.url, AUTH, neighborsBody, 1);
    const serverRssBytes = await engram.rss();
    const barePath = await run(bare.url, {}, pathBody, 1);
    const bareNeighbors = await run(bare.url, {}, neighborsBody, 8);
    return {
      connections: { latency: 1, throughput: 8 },
      floorLatency,
      floorThroughput,
      path,
      neighbors,
      pathThroughput,
      neighborsLatency,
      bare: { path: barePath, neighbors: bareNeighbors },
      serverRssBytes,
    };
  } finally {
    await floor.stop();
    await engram.stop();
    await bare.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
