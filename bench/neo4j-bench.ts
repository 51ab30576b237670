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
import { loadConfig } from '../src/config.js';
import { findShortestPath } from '../src/services/walks.js';
import { decorateStore } from '../src/store/instrumented-store.js';
import { NEO4J_BATCH_SIZE, NEO4J_BULK_TIMEOUT_MS, type Neo4jStoreConfig } from '../src/store/neo4j/adapter.js';
import type { DriverLike } from '../src/store/neo4j/driver.js';
import { createNeo4jDriver, redactUri } from '../src/store/neo4j/driver.js';
import { createNeo4jStore } from '../src/store/neo4j/neo4j-store.js';
import type { AdjacencyQuery, GraphStore } from '../src/store/port.js';
import { outsideRequestReads } from '../src/store/request-reads.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { boltTarget, startBoltProxy } from './bolt-proxy.js';
import { generateGraph, importBatches, randomPairs } from './generator.js';
import { now, type Summary, summarize } from './lib/stats.js';
import { type Neo4jBenchResult, type Neo4jBenchRow, renderNeo4jBench } from './neo4j-bench-report.js';
import {
  appFor,
  countCalls,
  countingDriver,
  evidenceEdges,
  importAll,
  prefixed,
  WORKSPACE,
} from './neo4j-bench-setup.js';
import { randomEdges, timeEach, WEAKEN_LABEL, weakenEach } from './store-bench.js';

// bench/run.ts and other callers keep importing the runner, its result types and the table from here.
export type { Neo4jBenchResult, Neo4jBenchRow };
export { renderNeo4jBench };

/**
 * One Cypher statement for the whole path: Neo4j's own shortestPath. Only measured here, against
 * the app's BFS: it cannot follow the BFS's tie-breaking or walk budget, so the store does not use it.
 */
const SHORTEST_PATH_STATEMENT = `// engram-bench:shortestPath
MATCH (a:Memory {workspace: $ws, id: $from}), (b:Memory {workspace: $ws, id: $to})
MATCH p = shortestPath((a)-[rels*..6]-(b))
WHERE all(r IN rels WHERE r.weight > $above)
RETURN size(rels) AS hops`;

/** What `memory(id:) { neighbors(limit: 20) { memory { title } } }` asks, as one statement: the floor. */
const NEIGHBORS_STATEMENT = `// engram-bench:neighbors
MATCH (m:Memory {workspace: $ws, id: $id})
MATCH (m)-[r]-(other)
WHERE r.weight > $above
WITH r, other ORDER BY r.weight DESC, r.id ASC LIMIT 20
RETURN other.title AS title`;

const log = (message: string) => process.stderr.write(`bench(neo4j): ${message}\n`);

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
  const neo4j = prefixed(neo4jRaw, workspacePrefix);
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
    const edgeImport = await edgeImportAgainstFloor(neo4j, graph, async (ws, type, rows) => {
      const session = counted.driver.session({
        defaultAccessMode: 'WRITE',
        ...(settings.database ? { database: settings.database } : {}),
      });
      try {
        await session.executeWrite(async (tx) =>
          tx.run(bareEdgeCreate(type), {
            ws: `${workspacePrefix}${ws}`,
            type,
            edges: rows,
            now: new Date().toISOString(),
          }),
        );
      } finally {
        await session.close();
      }
    });
    log(
      `import, edges alone: Engram ${Math.round(edgeImport.engramEdgesPerSecond)} edges/s, bare CREATE ${Math.round(edgeImport.floorEdgesPerSecond)} edges/s`,
    );
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
    // The Neo4j app, then the same requests with every store call in its own transaction, as
    // before a request's reads shared one (issue 27): the A/B of that change, in this run.
    const perCallApp = appFor(oneTransactionPerCall(neo4j), neo4jConfig);
    for (const id of judged.slice(0, 5)) {
      await sqliteApp(EVIDENCE, { id });
      await neo4jApp(EVIDENCE, { id });
      await perCallApp(EVIDENCE, { id });
    }
    const evidenceSqlite = await timeEach(judged, (id) => sqliteApp(EVIDENCE, { id }));
    for (const [label, app] of [
      ['evidence maxDepth 3, GraphQL in-process', neo4jApp],
      ['evidence maxDepth 3, GraphQL, one transaction per store call', perCallApp],
    ] as const) {
      const summary = await timeEach(judged, (id) => app(EVIDENCE, { id }));
      rows.push({ label, neo4j: summary, sqlite: evidenceSqlite, ratio: summary.median / evidenceSqlite.median });
      log(`${label}: Neo4j ${summary.median.toFixed(2)} ms, SQLite ${evidenceSqlite.median.toFixed(2)} ms`);
    }

    // The floors of issue 27, each timed in pairs (Engram, then the floor, item by item) so that
    // load from elsewhere on the machine weighs on both alike: neighbours and path through GraphQL
    // in process against the same answer by one raw Cypher statement, recall against SQLite.
    const rawRead = (driver: DriverLike) => (text: string, parameters: Record<string, unknown>) => async () => {
      const session = driver.session({
        defaultAccessMode: 'READ',
        ...(settings.database ? { database: settings.database } : {}),
      });
      try {
        await session.executeRead(async (tx) => tx.run(text, parameters));
      } finally {
        await session.close();
      }
    };
    const ws = `${workspacePrefix}${WORKSPACE}`;
    const NEIGHBORS_QUERY = 'query($id: ID) { memory(id: $id) { neighbors(limit: 20) { memory { title } } } }';
    const PATH_QUERY = 'query($a: ID!, $b: ID!) { memory(id: $a) { path(to: $b, maxHops: 6) { hops } } }';
    const RECALL_QUERY =
      'query($query: String) { recall(query: $query, limit: 10) { results { memory { title } score } } }';
    const recallWords = (index: number) => ({
      query: graph.memory(index).title.split(' ').slice(0, 2).join(' '),
    });
    const floors: [string, string, Summary, Summary][] = [];
    const paired = async <T>(
      label: string,
      floorLabel: string,
      items: readonly T[],
      engram: (item: T) => Promise<unknown>,
      floor: (item: T) => Promise<unknown>,
    ) => {
      for (const item of items.slice(0, 5)) {
        await engram(item);
        await floor(item);
      }
      const [engramTimes, floorTimes] = await timePaired(items, engram, floor);
      floors.push([label, floorLabel, engramTimes, floorTimes]);
      log(`${label}: ${engramTimes.median.toFixed(2)} ms vs ${floorLabel} ${floorTimes.median.toFixed(2)} ms`);
    };
    const rawDirect = rawRead(direct);
    await paired(
      'neighbors limit 20 with titles',
      'one Cypher statement',
      starts,
      (id) => neo4jApp(NEIGHBORS_QUERY, { id }),
      (id) => rawDirect(NEIGHBORS_STATEMENT, { ws, id, above: policy.pruneThreshold })(),
    );
    await paired(
      'path maxHops 6',
      'Cypher shortestPath',
      pairs,
      ([a, b]) => neo4jApp(PATH_QUERY, { a: graph.ids[a], b: graph.ids[b] }),
      ([a, b]) =>
        rawDirect(SHORTEST_PATH_STATEMENT, {
          ws,
          from: graph.ids[a],
          to: graph.ids[b],
          above: policy.pruneThreshold,
        })(),
    );
    await paired(
      'recall, two words of a title, limit 10',
      'the same on SQLite',
      pairs.map(([a]) => a),
      (index) => neo4jApp(RECALL_QUERY, recallWords(index)),
      (index) => sqliteApp(RECALL_QUERY, recallWords(index)),
    );
    const rawFloors: Neo4jBenchResult['rawFloors'] = floors.map(([label, floorLabel, engram, raw]) => ({
      label: `${label}, GraphQL in process vs ${floorLabel}`,
      engram,
      raw,
      ratio: engram.median / raw.median,
    }));

    // Round trips are counted on a second driver through a counting proxy, so the timings above
    // do not pay for the proxy's hop.
    const proxy = await startBoltProxy(boltTarget(settings.uri));
    const proxied = createNeo4jDriver({ ...settings, uri: `bolt://127.0.0.1:${proxy.port}` });
    const proxiedStore = createNeo4jStore({
      driver: proxied,
      database: settings.database,
      transactionTimeoutMs: NEO4J_BULK_TIMEOUT_MS,
    });
    const proxiedApp = appFor(prefixed(proxiedStore, workspacePrefix), neo4jConfig);
    const settled = () => new Promise((resume) => setTimeout(resume, 50));
    const tripsOf = async (work: () => Promise<unknown>) => {
      await work(); // connections opened, schema checked
      await settled();
      const before = proxy.roundTrips();
      await work();
      await settled();
      return proxy.roundTrips() - before;
    };
    const rawProxied = rawRead(proxied);
    const roundTrips: Neo4jBenchResult['roundTrips'] = [];
    const pathTo = graph.ids[(pairs[0] as [number, number])[1]] as string;
    const requests: [string, string, Record<string, unknown>, (() => Promise<void>) | null][] = [
      [
        'neighbors limit 20 with titles',
        NEIGHBORS_QUERY,
        { id: starts[0] },
        rawProxied(NEIGHBORS_STATEMENT, { ws, id: starts[0], above: policy.pruneThreshold }),
      ],
      [
        'neighbors of 100 memories (limit 20, with titles and weights)',
        'query($ids: [ID!]!) { memories(ids: $ids) { neighbors { memory { title } edge { weight } } } }',
        { ids: starts },
        null,
      ],
      [
        'path maxHops 6',
        PATH_QUERY,
        { a: starts[0], b: pathTo },
        rawProxied(SHORTEST_PATH_STATEMENT, { ws, from: starts[0], to: pathTo, above: policy.pruneThreshold }),
      ],
      ['evidence maxDepth 3', EVIDENCE, { id: judged[0] }, null],
      ['recall (two words of a title, maxDepth 2, limit 10)', RECALL_QUERY, recallWords(0), null],
    ];
    for (const [label, query, variables, raw] of requests) {
      neo4jCalls.reset();
      const before = { ...counted.counts };
      await neo4jApp(query, variables);
      roundTrips.push({
        query: label,
        storeCalls: neo4jCalls.total(),
        transactions: counted.counts.transactions - before.transactions,
        statements: counted.counts.statements - before.statements,
        boltRoundTrips: await tripsOf(() => proxiedApp(query, variables)),
        ...(raw ? { rawRoundTrips: await tripsOf(raw) } : {}),
      });
    }
    await proxiedStore.close();
    await proxy.close();
    for (const trip of roundTrips)
      log(
        `${trip.query}: ${trip.storeCalls} store calls, ${trip.transactions} transactions, ${trip.statements} statements, ${trip.boltRoundTrips} Bolt round trips${trip.rawRoundTrips === undefined ? '' : ` (raw Cypher ${trip.rawRoundTrips})`}`,
      );

    // Last, as it changes the graph: a weight change as `weaken` makes it (the clamped write and
    // its event, whose time is read after the edge's lock), on the same edges of both stores.
    const weakened = randomEdges(graph, pairCount, spec.seed);
    await row(WEAKEN_LABEL, (store) => weakenEach(store, WORKSPACE, graph, sqliteConfig, weakened));

    return {
      server,
      spec,
      import: importResult,
      edgeImport,
      rows,
      shortestPathStatement,
      rawFloors,
      roundTrips,
    };
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

/**
 * The least a Neo4j import of Engram's model must write: each edge and its EdgeRef, created
 * without a MERGE (so not idempotent, unlike importEdges). Only measured here, as the import's floor.
 */
const bareEdgeCreate = (type: string) => `// engram-bench:bareEdgeCreate
UNWIND $edges AS row
MATCH (a:Memory {workspace: $ws, id: row.fromId})
MATCH (b:Memory {workspace: $ws, id: row.toId})
CREATE (a)-[r:\`${type}\` {id: row.id, weight: row.weight, metadata: row.metadata, createdAt: $now, updatedAt: $now}]->(b)
CREATE (:EdgeRef {workspace: $ws, id: row.id, fromId: row.fromId, toId: row.toId, type: $type, negWeight: -row.weight})`;

/**
 * Edges alone, into two fresh workspaces that already hold the memories: through importBatch as
 * `engram import` sends them, and through the bare CREATE floor, batch for batch.
 */
async function edgeImportAgainstFloor(
  store: GraphStore,
  graph: ReturnType<typeof generateGraph>,
  bare: (workspace: string, type: string, rows: Record<string, unknown>[]) => Promise<void>,
): Promise<{ engramEdgesPerSecond: number; floorEdgesPerSecond: number }> {
  const at = new Date().toISOString();
  const batches = [...importBatches(graph, NEO4J_BATCH_SIZE)];
  for (const workspace of ['import-engram', 'import-floor']) {
    for (const batch of batches.filter((one) => one.memories.length > 0)) await store.importBatch(workspace, batch, at);
  }
  const edgeBatches = batches.filter((one) => one.edges.length > 0);
  let engramMs = 0;
  let floorMs = 0;
  for (const batch of edgeBatches) {
    let started = now();
    await store.importBatch('import-engram', batch, at);
    engramMs += now() - started;
    const byType = new Map<string, Record<string, unknown>[]>();
    for (const edge of batch.edges) {
      const rows = byType.get(edge.type) ?? [];
      rows.push({ id: edge.id, fromId: edge.fromId, toId: edge.toId, weight: edge.weight, metadata: null });
      byType.set(edge.type, rows);
    }
    started = now();
    for (const [type, rows] of byType) await bare('import-floor', type, rows);
    floorMs += now() - started;
  }
  const edges = graph.spec.edges;
  return { engramEdgesPerSecond: edges / (engramMs / 1000), floorEdgesPerSecond: edges / (floorMs / 1000) };
}

/** Times `a` then `b` on each item in turn: load that comes and goes falls on both alike. */
async function timePaired<T>(
  items: readonly T[],
  a: (item: T) => Promise<unknown>,
  b: (item: T) => Promise<unknown>,
): Promise<[Summary, Summary]> {
  const aTimes: number[] = [];
  const bTimes: number[] = [];
  for (const item of items) {
    let started = now();
    await a(item);
    aTimes.push(now() - started);
    started = now();
    await b(item);
    bTimes.push(now() - started);
  }
  return [summarize(aTimes), summarize(bTimes)];
}

/** The store with each call outside the request's shared reads: one managed transaction per call. */
function oneTransactionPerCall(store: GraphStore): GraphStore {
  return decorateStore(
    store,
    (_method, call) =>
      (...args) =>
        outsideRequestReads(() => call(...args)),
  );
}

// Last in the file: the helpers above must be initialised before a direct run uses them.
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
