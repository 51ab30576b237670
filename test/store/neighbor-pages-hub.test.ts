import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import neo4j, { type ProfiledPlan } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import { adjacentEdges } from '../../src/store/neo4j/cypher/walks.js';
import { adjacencyParameters } from '../../src/store/neo4j/reads.js';
import type { AdjacencyPageQuery, GraphStore, ImportEdge } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { edgeChange, linkRequest, newMemory, set } from '../contract/contract-kit.js';
import { apiTestsOnNeo4j, type LiveNeo4jStore, liveNeo4jConfig, openLiveNeo4jStore } from '../helpers/neo4j.js';
import { plainMemory } from '../helpers/records.js';

/**
 * The read behind Memory.neighborsConnection (getAdjacentPage) on a hub of 100,000 edges (half
 * outgoing, half incoming, three relation types, one in ten at 0.7 and the rest tied at 0.5),
 * walked to the end with writes between pages. A page must cost about what a page of a memory
 * with 1,200 edges costs (SQLite seeks per relation type and side, Neo4j per side in the EdgeRef
 * page indexes), where a read of the hub's degree would cost eighty times more. Under
 * `npm run test:neo4j` the walk runs on Neo4j, where a profiled page deep into the 0.5 ties must
 * also touch a bounded number of records (an expand of the hub touched ~300,000).
 * (neighbors-connection.test.ts covers the GraphQL layer.)
 */
const HUB_EDGES = 100_000;
const SMALL_EDGES = 1_200;
const FIRST = 100;
const TYPES = ['CITES', 'RELATED_TO', 'VALIDATES'];
const WS = 'hub';
const NOW = new Date().toISOString();

const spokeId = (at: number) => `s${String(at).padStart(6, '0')}`;
const edgeId = (at: number) => `e${String(at).padStart(6, '0')}`;
const spokeEdge = (center: string, at: number, id = edgeId(at)): ImportEdge => ({
  id,
  fromId: at % 2 === 0 ? center : spokeId(at),
  toId: at % 2 === 0 ? spokeId(at) : center,
  type: TYPES[at % 3] as string,
  weight: at % 10 === 0 ? 0.7 : 0.5,
  metadata: null,
});

/** The hub's edges in getAdjacentPage's order: the 0.7 ones (every tenth), then the 0.5 ones, each by id. */
const ORDER = [
  ...Array.from({ length: HUB_EDGES / 10 }, (_, at) => edgeId(at * 10)),
  ...Array.from({ length: HUB_EDGES }, (_, at) => at)
    .filter((at) => at % 10 !== 0)
    .map(edgeId),
];
/** A profiled Neo4j page may touch this many records per edge it returns (an index entry, the edge, both ends...). */
const DB_HITS_PER_EDGE = 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

describe('getAdjacentPage on a 100,000-edge hub', () => {
  const onNeo4j = apiTestsOnNeo4j();
  let store: GraphStore;
  let live: LiveNeo4jStore | undefined;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (onNeo4j) {
      // Batches of an import, which the request timeout is too short for (as `engram import` does).
      live = openLiveNeo4jStore({ ...liveNeo4jConfig(), transactionTimeoutMs: 600_000 });
      store = live.store;
      cleanup = live.cleanup;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'engram-hub-'));
      const sqlite = createSqliteStore({ path: join(dir, 'hub.db') });
      store = sqlite;
      cleanup = async () => {
        await sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    const memories = [
      plainMemory('hub'),
      plainMemory('small'),
      ...Array.from({ length: HUB_EDGES }, (_, at) => plainMemory(spokeId(at))),
    ];
    const edges = [
      ...Array.from({ length: HUB_EDGES }, (_, at) => spokeEdge('hub', at)),
      ...Array.from({ length: SMALL_EDGES }, (_, at) => spokeEdge('small', at, `small${edgeId(at)}`)),
    ];
    const load = await store.beginBulkLoad?.(WS, { expectedEdges: edges.length });
    const batch = load ? Number.POSITIVE_INFINITY : 10_000;
    for (const [kind, items] of [
      ['memories', memories],
      ['edges', edges],
    ] as const) {
      for (let at = 0; at < items.length; at += batch) {
        const part = { memories: [], edges: [], [kind]: items.slice(at, at + batch) };
        await (load ? load.add(part, NOW) : store.importBatch(WS, part, NOW));
      }
    }
    await load?.finish();
  }, 900_000);

  afterAll(() => cleanup?.(), 120_000);

  const pageQuery = (after: AdjacencyPageQuery['after'], types: string[] | null = null): AdjacencyPageQuery => ({
    direction: 'BOTH',
    types,
    minWeight: null,
    includePruned: false,
    pruneThreshold: DEFAULT_WEIGHT_POLICY.pruneThreshold,
    after,
    limit: FIRST + 1,
  });

  async function page(id: string, after: AdjacencyPageQuery['after']) {
    const started = performance.now();
    const [list = []] = await store.getAdjacentPage(WS, [id], pageQuery(after));
    return { list, ms: performance.now() - started };
  }

  /** The records one page statement touches, from Neo4j's PROFILE, with the parameters reads.ts sends. */
  async function dbHitsOfPage(after: { weight: number; edgeId: string }, types: string[] | null): Promise<number> {
    const config = liveNeo4jConfig();
    const driver = neo4j.driver(config.uri, neo4j.auth.basic(config.user, config.password ?? ''));
    const session = driver.session({
      defaultAccessMode: neo4j.session.READ,
      ...(config.database ? { database: config.database } : {}),
    });
    const total = (plan: ProfiledPlan): number => plan.children.reduce((sum, child) => sum + total(child), plan.dbHits);
    try {
      const query = pageQuery(after, types);
      const result = await session.run(`PROFILE ${adjacentEdges('BOTH', true, types !== null)}`, {
        ws: live?.ns(WS),
        ids: ['hub'],
        ...adjacencyParameters(query, query.limit),
      });
      expect(result.records).toHaveLength(FIRST + 1);
      return total(result.summary.profile as ProfiledPlan);
    } finally {
      await session.close();
      await driver.close();
    }
  }

  it('walks every neighbour once with writes between pages, each page costing what a small memory’s does', async () => {
    const seen: string[] = [];
    const touched = new Set<string>();
    const hubMs: number[] = [];
    const smallMs: number[] = [];
    let after: AdjacencyPageQuery['after'] = null;
    for (let at = 0; ; at++) {
      const { list, ms } = await page('hub', after);
      hubMs.push(ms);
      expect(list.length).toBeLessThanOrEqual(FIRST + 1);
      const kept = list.slice(0, FIRST);
      seen.push(...kept.map((entry) => entry.edge.id));
      const last = kept.at(-1);
      if (list.length <= FIRST || !last) break;
      after = { weight: last.edge.weight, edgeId: last.edge.id };
      if (at % 50 === 0) smallMs.push((await page('small', null)).ms);
      if (at % 100 === 0) {
        // Ahead of the cursor: the last edges of the order go, one moves up past it, a new spoke comes at each end.
        const k = at / 100;
        const gone = edgeId(HUB_EDGES - 1 - 2 * k);
        const moved = edgeId(HUB_EDGES - 2 - 2 * k);
        touched.add(gone).add(moved);
        expect(await store.unlinkEdges(WS, { id: gone })).toHaveLength(1);
        await store.applyWeightChanges(WS, [edgeChange(moved, set(0.6))], { floor: 0, ceiling: 1 }, NOW);
        const spoke = await store.createMemory(WS, newMemory({ title: `late ${k}` }), NOW);
        for (const [type, weight] of [
          ['CITES', 0.99],
          ['RELATED_TO', 0.3],
        ] as const)
          touched.add((await store.linkEdge(WS, linkRequest('hub', spoke.id, type, { weight }), NOW)).edge.id);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Every edge unchanged across the writes, exactly once and in order; the new and moved ones wherever they fell.
    const original = new Set(ORDER);
    expect(seen.filter((id) => original.has(id) && !touched.has(id))).toEqual(ORDER.filter((id) => !touched.has(id)));
    const report = `hub page median ${median(hubMs).toFixed(1)} ms, max ${Math.max(...hubMs).toFixed(1)} ms over ${hubMs.length} pages; small memory page median ${median(smallMs).toFixed(1)} ms`;
    console.info(`[neighbour pages, ${onNeo4j ? 'neo4j' : 'sqlite'}] ${report}`);
    // A read of the hub's degree per page would be ~80x the small memory's page; a keyset seek stays near it.
    expect(median(hubMs), report).toBeLessThan(3 * median(smallMs) + 3);
  }, 1_800_000);

  it.runIf(onNeo4j)(
    'touches a bounded number of records for a Neo4j page deep into the ties, typed or not',
    async () => {
      const deep = { weight: 0.5, edgeId: ORDER[ORDER.length - 5_000] as string };
      for (const types of [null, ['CITES', 'VALIDATES']]) {
        const hits = await dbHitsOfPage(deep, types);
        console.info(
          `[neighbour pages, neo4j] a page ${FIRST + 1} edges deep into the ties, types ${types}: ${hits} db hits`,
        );
        expect(hits).toBeLessThan(DB_HITS_PER_EDGE * (FIRST + 1) * (types?.length ?? 1));
      }
    },
  );
});
