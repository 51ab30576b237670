/**
 * The Neo4j row set of `npm run bench`, run when NEO4J_URI (with NEO4J_USER, NEO4J_PASSWORD) points
 * at a server, e.g. the test server of `npm run test:neo4j -- --serve`. Alone:
 *
 *   NEO4J_URI=... NEO4J_PASSWORD=... npx tsx bench/neo4j-bench.ts [--memories 10000 --edges 50000 --pairs 100]
 *
 * The same seeded graph goes into a fresh SQLite file and into a workspace of its own on Neo4j
 * (deleted afterwards), through importBatch as `engram import` uses it (10,000 records per
 * transaction on Neo4j), and both stores answer the same operations: neighbors, path (Neo4j by
 * the level-by-level BFS the app runs, and by one Cypher shortestPath statement, for comparison),
 * evidence through the app, and import. Each row reports Neo4j's median over SQLite's. Store calls
 * and Bolt transactions/statements per GraphQL request are counted through the app.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { NEO4J_BATCH_SIZE, NEO4J_BULK_TIMEOUT_MS, type Neo4jStoreConfig } from '../src/store/neo4j/adapter.js';
import { loadConfig, type Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { findShortestPath } from '../src/services/walks.js';
import {
  createNeo4jDriver,
  redactUri,
  type DriverLike,
  type SessionLike,
  type TransactionLike,
} from '../src/store/neo4j/driver.js';
import { createNeo4jStore } from '../src/store/neo4j/neo4j-store.js';
import type { AdjacencyQuery, GraphStore, ImportBatch, ImportEdge } from '../src/store/port.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { generateGraph, importBatches, randomPairs, type GeneratedGraph } from './generator.js';
import { createRng, randomInt } from './lib/rng.js';
import { now, summarize, type Summary } from './lib/stats.js';
import { timeEach } from './store-bench.js';

export interface Neo4jBenchRow {
  label: string;
  neo4j: Summary;
  sqlite: Summary;
  /** Neo4j median over SQLite median. */
  ratio: number;
  note?: string;
}

export interface Neo4jBenchResult {
  server: string;
  spec: { memories: number; edges: number; seed: number };
  import: {
    neo4jEdgesPerSecond: number;
    sqliteEdgesPerSecond: number;
    ratio: number;
    neo4jMs: number;
    sqliteMs: number;
  };
  rows: Neo4jBenchRow[];
  /** Path by one Cypher shortestPath statement against the app's BFS over expandFrontier, on Neo4j. */
  shortestPathStatement: { bfs: Summary; statement: Summary; ratio: number; hopMismatches: number; pairs: number };
  /** Per GraphQL request on Neo4j: store calls, Bolt transactions and statements (each statement is one RUN/PULL round trip, each transaction adds its COMMIT). */
  roundTrips: { query: string; storeCalls: number; transactions: number; statements: number }[];
}

const WORKSPACE = 'bench';
/** Evidence edges added to the generated graph (which has none), into the first JUDGED memories. */
const JUDGED = 200;
const EVIDENCE_TYPES = ['VALIDATES', 'REPLICATES', 'CONTRADICTS', 'EXTENDS'];

/**
 * One Cypher statement for the whole path: Neo4j's own shortestPath. Only measured here, against
 * the app's BFS: it cannot follow the BFS's tie-breaking or walk budget, so the store does not use it.
 */
const SHORTEST_PATH_STATEMENT = `// engram-bench:shortestPath
MATCH (a:Memory {workspace: $ws, id: $from}), (b:Memory {workspace: $ws, id: $to})
MATCH p = shortestPath((a)-[rels*..6]-(b))
WHERE all(r IN rels WHERE r.weight > $above)
RETURN size(rels) AS hops`;

const log = (message: string) => process.stderr.write(`bench(neo4j): ${message}\n`);

/** Counts transactions and statements that go through the driver. */
function countingDriver(driver: DriverLike): {
  driver: DriverLike;
  counts: { transactions: number; statements: number };
} {
  const counts = { transactions: 0, statements: 0 };
  const wrapTx = (tx: TransactionLike): TransactionLike => ({
    run(query, parameters) {
      counts.statements++;
      return tx.run(query, parameters);
    },
  });
  const wrapSession = (session: SessionLike): SessionLike => ({
    executeRead: (work, settings) => {
      counts.transactions++;
      return session.executeRead((tx) => work(wrapTx(tx)), settings);
    },
    executeWrite: (work, settings) => {
      counts.transactions++;
      return session.executeWrite((tx) => work(wrapTx(tx)), settings);
    },
    run: (query, parameters, settings) => {
      counts.transactions++;
      counts.statements++;
      return session.run(query, parameters, settings);
    },
    close: () => session.close(),
  });
  return {
    driver: { session: (settings) => wrapSession(driver.session(settings)), close: () => driver.close() },
    counts,
  };
}

function evidenceEdges(graph: GeneratedGraph, seed: number): ImportEdge[] {
  const rng = createRng(seed ^ 0xe71d);
  const seen = new Set<string>();
  const edges: ImportEdge[] = [];
  while (edges.length < JUDGED * 10) {
    const to = randomInt(rng, JUDGED);
    const from = JUDGED + randomInt(rng, graph.spec.memories - JUDGED);
    const type = EVIDENCE_TYPES[randomInt(rng, EVIDENCE_TYPES.length)] as string;
    const key = `${from}:${to}:${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({
      id: randomUUID(),
      fromId: graph.ids[from] as string,
      toId: graph.ids[to] as string,
      type,
      weight: 0.3 + 0.7 * rng(),
      metadata: null,
    });
  }
  return edges;
}

async function importAll(
  store: GraphStore,
  graph: GeneratedGraph,
  extra: ImportEdge[],
): Promise<{ ms: number; edges: number }> {
  const at = new Date().toISOString();
  const started = now();
  const batches: ImportBatch[] = [...importBatches(graph, NEO4J_BATCH_SIZE), { memories: [], edges: extra }];
  for (const batch of batches) await store.importBatch(WORKSPACE, batch, at);
  return { ms: now() - started, edges: graph.spec.edges + extra.length };
}

function appFor(store: GraphStore, config: Config) {
  const app = createApp({ config, store, logger: createLogger('silent') });
  return async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await app.fetch('http://engram.bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-workspace': WORKSPACE },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
    if (body.errors) throw new Error(`bench query failed: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
}

function countCalls(store: GraphStore): { store: GraphStore; total: () => number; reset: () => void } {
  let total = 0;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        total++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, total: () => total, reset: () => (total = 0) };
}

export async function runNeo4jBench(
  options: { memories?: number; edges?: number; seed?: number; pairs?: number } = {},
): Promise<Neo4jBenchResult> {
  const spec = { memories: options.memories ?? 10_000, edges: options.edges ?? 50_000, seed: options.seed ?? 42 };
  const pairCount = options.pairs ?? 100;
  const env = { ...process.env, ENGRAM_STORE: 'neo4j', ENGRAM_LOG_LEVEL: 'silent', ENGRAM_RATE_POINTS_PER_SECOND: '0' };
  const neo4jConfig = loadConfig(env);
  const settings = neo4jConfig.store as Neo4jStoreConfig;
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-neo4j-'));
  const sqliteConfig = loadConfig({
    ENGRAM_SQLITE_PATH: join(dir, 'engram.db'),
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_POINTS_PER_SECOND: '0',
  });
  const counted = countingDriver(createNeo4jDriver(settings));
  // A workspace of its own, so the run never touches other data of the server.
  const workspacePrefix = `engram-bench-${randomUUID().slice(0, 8)}-`;
  const neo4jRaw = createNeo4jStore({
    driver: counted.driver,
    database: settings.database,
    transactionTimeoutMs: NEO4J_BULK_TIMEOUT_MS,
    label: redactUri(settings.uri),
  });
  const neo4j: GraphStore = new Proxy(neo4jRaw, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || ['ping', 'close', 'ensureSchema'].includes(String(property))) return value;
      return (workspace: string, ...rest: unknown[]) =>
        (value as (...args: unknown[]) => unknown).call(target, `${workspacePrefix}${workspace}`, ...rest);
    },
  });
  const sqlite = createSqliteStore({ path: join(dir, 'engram.db') });
  try {
    const info = await neo4jRaw.ensureSchema();
    const server = `Neo4j ${info.version} ${info.edition} at ${redactUri(settings.uri)}`;
    log(`${server}; graph ${spec.memories.toLocaleString('en-US')} / ${spec.edges.toLocaleString('en-US')}`);
    const graph = generateGraph(spec);
    const extra = evidenceEdges(graph, spec.seed);

    const sqliteImport = await importAll(sqlite, graph, extra);
    const neo4jImport = await importAll(neo4j, graph, extra);
    const importResult = {
      neo4jMs: neo4jImport.ms,
      sqliteMs: sqliteImport.ms,
      neo4jEdgesPerSecond: neo4jImport.edges / (neo4jImport.ms / 1000),
      sqliteEdgesPerSecond: sqliteImport.edges / (sqliteImport.ms / 1000),
      ratio: 0,
    };
    importResult.ratio = importResult.neo4jEdgesPerSecond / importResult.sqliteEdgesPerSecond;
    log(
      `import: Neo4j ${Math.round(importResult.neo4jEdgesPerSecond)} edges/s, SQLite ${Math.round(importResult.sqliteEdgesPerSecond)} edges/s`,
    );

    const pairs = randomPairs(graph, pairCount, spec.seed + 1);
    const starts = pairs.map(([a]) => graph.ids[a] as string);
    const hub = graph.ids[graph.topHub.index] as string;
    const policy = sqliteConfig.policy;
    const walk = {
      direction: 'BOTH' as const,
      types: null,
      pruneThreshold: policy.pruneThreshold,
      budget: sqliteConfig.limits.walkBudget,
    };
    const neighbors: AdjacencyQuery = {
      direction: 'BOTH',
      types: null,
      minWeight: null,
      includePruned: false,
      pruneThreshold: policy.pruneThreshold,
      limitPerMemory: 20,
    };
    const rows: Neo4jBenchRow[] = [];
    const row = async (label: string, work: (store: GraphStore) => Promise<Summary>, note?: string) => {
      const sqliteSummary = await work(sqlite);
      const neo4jSummary = await work(neo4j);
      rows.push({
        label,
        neo4j: neo4jSummary,
        sqlite: sqliteSummary,
        ratio: neo4jSummary.median / sqliteSummary.median,
        ...(note ? { note } : {}),
      });
      log(`${label}: Neo4j ${neo4jSummary.median.toFixed(2)} ms, SQLite ${sqliteSummary.median.toFixed(2)} ms`);
    };

    // Warm both (JIT, page cache, the SQLite adjacency index) before timing.
    for (const id of starts.slice(0, 20)) {
      await sqlite.getAdjacent(WORKSPACE, [id], neighbors);
      await neo4j.getAdjacent(WORKSPACE, [id], neighbors);
    }
    await row('neighbors limit 20 (random memory)', (store) =>
      timeEach(starts, (id) => store.getAdjacent(WORKSPACE, [id], neighbors)),
    );
    await row(`neighbors limit 20 (top hub, degree ${graph.topHub.degree})`, (store) =>
      timeEach(
        starts.slice(0, 30).map(() => hub),
        (id) => store.getAdjacent(WORKSPACE, [id], neighbors),
      ),
    );
    await row('neighbors limit 20 of 100 memories, one call', (store) =>
      timeEach([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], () => store.getAdjacent(WORKSPACE, starts, neighbors)),
    );
    await row('path maxHops 6 (SQLite: adjacency index; Neo4j: BFS, one expandFrontier per level)', (store) =>
      timeEach(pairs, ([a, b]) =>
        findShortestPath(store, WORKSPACE, graph.ids[a] as string, graph.ids[b] as string, 6, walk),
      ),
    );

    // The same pairs by one Cypher statement, against the BFS above.
    const bfsTimes: number[] = [];
    const statementTimes: number[] = [];
    let hopMismatches = 0;
    const direct = counted.driver;
    for (const [a, b] of pairs) {
      const from = graph.ids[a] as string;
      const to = graph.ids[b] as string;
      let started = now();
      const bfs = await findShortestPath(neo4j, WORKSPACE, from, to, 6, walk);
      bfsTimes.push(now() - started);
      const session = direct.session({
        defaultAccessMode: 'READ',
        ...(settings.database ? { database: settings.database } : {}),
      });
      started = now();
      const result = await session.executeRead(async (tx) =>
        tx.run(SHORTEST_PATH_STATEMENT, {
          ws: `${workspacePrefix}${WORKSPACE}`,
          from,
          to,
          above: policy.pruneThreshold,
        }),
      );
      statementTimes.push(now() - started);
      await session.close();
      const hops = result.records[0] ? Number(result.records[0].get('hops')) : -1;
      if (hops !== (bfs.found ? bfs.edgeIds.length : -1)) hopMismatches++;
    }
    const shortestPathStatement = {
      bfs: summarize(bfsTimes),
      statement: summarize(statementTimes),
      ratio: summarize(statementTimes).median / summarize(bfsTimes).median,
      hopMismatches,
      pairs: pairs.length,
    };
    log(
      `path: one shortestPath statement ${shortestPathStatement.statement.median.toFixed(2)} ms vs BFS ${shortestPathStatement.bfs.median.toFixed(2)} ms, ${hopMismatches} hop mismatches`,
    );

    // Through the app: evidence, and the cost of a request in store calls and Bolt traffic.
    const sqliteApp = appFor(sqlite, sqliteConfig);
    const neo4jCalls = countCalls(neo4j);
    const neo4jApp = appFor(neo4jCalls.store, neo4jConfig);
    const judged = graph.ids.slice(0, 50);
    const EVIDENCE =
      'query($id: ID) { memory(id: $id) { evidence(maxDepth: 3) { score supporting { weight } contradicting { weight } } } }';
    for (const id of judged.slice(0, 5)) {
      await sqliteApp(EVIDENCE, { id });
      await neo4jApp(EVIDENCE, { id });
    }
    const evidenceSqlite = await timeEach(judged, (id) => sqliteApp(EVIDENCE, { id }));
    const evidenceNeo4j = await timeEach(judged, (id) => neo4jApp(EVIDENCE, { id }));
    rows.push({
      label: 'evidence maxDepth 3, GraphQL in-process',
      neo4j: evidenceNeo4j,
      sqlite: evidenceSqlite,
      ratio: evidenceNeo4j.median / evidenceSqlite.median,
    });
    log(`evidence: Neo4j ${evidenceNeo4j.median.toFixed(2)} ms, SQLite ${evidenceSqlite.median.toFixed(2)} ms`);

    const roundTrips: Neo4jBenchResult['roundTrips'] = [];
    const requests: [string, string, Record<string, unknown>][] = [
      [
        'neighbors of 100 memories (limit 20, with titles and weights)',
        'query($ids: [ID!]!) { memories(ids: $ids) { neighbors { memory { title } edge { weight } } } }',
        { ids: starts },
      ],
      [
        'path maxHops 6',
        'query($a: ID!, $b: ID!) { memory(id: $a) { path(to: $b, maxHops: 6) { hops } } }',
        { a: starts[0], b: graph.ids[(pairs[0] as [number, number])[1]] },
      ],
      ['evidence maxDepth 3', EVIDENCE, { id: judged[0] }],
    ];
    for (const [label, query, variables] of requests) {
      neo4jCalls.reset();
      const before = { ...counted.counts };
      await neo4jApp(query, variables);
      roundTrips.push({
        query: label,
        storeCalls: neo4jCalls.total(),
        transactions: counted.counts.transactions - before.transactions,
        statements: counted.counts.statements - before.statements,
      });
    }
    for (const trip of roundTrips)
      log(
        `${trip.query}: ${trip.storeCalls} store calls, ${trip.transactions} transactions, ${trip.statements} statements`,
      );

    return { server, spec, import: importResult, rows, shortestPathStatement, roundTrips };
  } finally {
    await sqlite.close();
    // Delete the run's workspace, in slices.
    const session = () =>
      counted.driver.session({
        defaultAccessMode: 'WRITE',
        ...(settings.database ? { database: settings.database } : {}),
      });
    for (const label of ['Memory', 'EdgeRef', 'WeightEvent']) {
      for (;;) {
        const current = session();
        const result = await current.executeWrite(async (tx) =>
          tx.run(
            `MATCH (n:${label}) WHERE n.workspace STARTS WITH $prefix WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n`,
            { prefix: workspacePrefix },
          ),
        );
        await current.close();
        if (Number(result.records[0]?.get('n') ?? 0) === 0) break;
      }
    }
    await neo4jRaw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows as a table for the bench summary. */
export function renderNeo4jBench(result: Neo4jBenchResult): string {
  const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
  const lines = [
    `Neo4j vs SQLite (${result.server}; ${result.spec.memories.toLocaleString('en-US')} memories / ${result.spec.edges.toLocaleString('en-US')} edges + evidence edges)`,
    `${'operation'.padEnd(78)} ${'Neo4j p50'.padStart(10)} ${'SQLite p50'.padStart(11)} ${'ratio'.padStart(7)}`,
    ...result.rows.map(
      (row) =>
        `${row.label.padEnd(78)} ${fmt(row.neo4j.median).padStart(10)} ${fmt(row.sqlite.median).padStart(11)} ${`${row.ratio.toFixed(1)}x`.padStart(7)}`,
    ),
    `${'import (edges/s)'.padEnd(78)} ${Math.round(result.import.neo4jEdgesPerSecond).toLocaleString('en-US').padStart(10)} ${Math.round(result.import.sqliteEdgesPerSecond).toLocaleString('en-US').padStart(11)} ${`${result.import.ratio.toFixed(3)}x`.padStart(7)}`,
    `path on Neo4j, one shortestPath statement vs the BFS: ${fmt(result.shortestPathStatement.statement.median)} ms vs ${fmt(result.shortestPathStatement.bfs.median)} ms p50 (${result.shortestPathStatement.ratio.toFixed(2)}x), ${result.shortestPathStatement.hopMismatches} hop mismatches in ${result.shortestPathStatement.pairs} pairs`,
    'per GraphQL request on Neo4j (store calls / Bolt transactions / statements):',
    ...result.roundTrips.map(
      (trip) => `  ${trip.query}: ${trip.storeCalls} / ${trip.transactions} / ${trip.statements}`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      memories: { type: 'string' },
      edges: { type: 'string' },
      pairs: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  if (!process.env.NEO4J_URI) {
    process.stderr.write(
      'bench/neo4j-bench.ts: set NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD (e.g. from `npm run test:neo4j -- --serve`)\n',
    );
    process.exit(2);
  }
  const result = await runNeo4jBench({
    ...(values.memories ? { memories: Number(values.memories) } : {}),
    ...(values.edges ? { edges: Number(values.edges) } : {}),
    ...(values.pairs ? { pairs: Number(values.pairs) } : {}),
    ...(values.seed ? { seed: Number(values.seed) } : {}),
  });
  process.stdout.write(`\n${renderNeo4jBench(result)}\n`);
}
