/**
 * "Hub under attack": how long another tenant waits while one workspace sends the queries that
 * used to freeze the server (issue 12). A workspace of its own gets a memory with HUB_EDGES edges
 * (half incoming VALIDATES, half outgoing RELATED_TO); the production server (every plugin, API
 * keys) serves the benchmark workspace's quiet client, one neighbors query every 20 ms, first
 * alone and then while two attacker connections loop over aliased and deep evidence, context,
 * feedback without via and reinforcement on the hub (after one warm-up run of each). The quiet client's p50/p99/max in both phases
 * and the server's longest event-loop block (prom-client's nodejs_eventloop_lag_max_seconds,
 * scraped right before and after the attack) are the row.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startServer } from './http-bench.js';
import { runIfMain } from './lib/main.js';
import { quantile } from './lib/stats.js';

export const HUB_WORKSPACE = 'hub-attack';
export const HUB_EDGES = 50_000;
const HUB_KEY = 'bench-hub-key-0123456789abcdef0123456789abcdef';
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef0123456789abcd';

export interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface HubAttackResult {
  hubEdges: number;
  alone: Latencies;
  underAttack: Latencies;
  attackRequests: number;
  /** Answers of the attacker by outcome: "ok" or the error code. */
  attackOutcomes: Record<string, number>;
  eventLoopLagMaxMs: number | null;
}

/** Writes the hub workspace into the benchmark database. */
export async function seedHub(dbPath: string): Promise<void> {
  const store = createSqliteStore({ path: dbPath });
  try {
    const now = new Date().toISOString();
    const memory = (id: string) => ({
      id,
      key: null,
      title: `hub memory ${id}`,
      content: null,
      kind: 'fact',
      tags: [],
      weight: 0.5,
      metadata: null,
    });
    const ids = Array.from({ length: HUB_EDGES }, (_, i) => `h${i}`);
    await store.importBatch(HUB_WORKSPACE, { memories: [memory('hub'), ...ids.map(memory)], edges: [] }, now);
    const edges = ids.map((id, i) =>
      i % 2 === 0
        ? { id: `hv${i}`, fromId: id, toId: 'hub', type: 'VALIDATES', weight: 0.2 + (i % 70) / 100, metadata: null }
        : { id: `hr${i}`, fromId: 'hub', toId: id, type: 'RELATED_TO', weight: 0.2 + (i % 70) / 100, metadata: null },
    );
    for (let at = 0; at < edges.length; at += 10_000)
      await store.importBatch(HUB_WORKSPACE, { memories: [], edges: edges.slice(at, at + 10_000) }, now);
  } finally {
    await store.close();
  }
}

const ALIASED = `{ ${Array.from({ length: 15 }, (_, i) => `e${i}: memory(id: "hub") { evidence(maxDepth: 1) { score } }`).join(' ')} }`;
const ATTACKS = [
  ALIASED,
  '{ memory(id: "hub") { evidence(maxDepth: 5) { score supporting { memory { id } } } } }',
  '{ context(seeds: ["hub"], budget: 100) { items { memory { id } } truncated } }',
  'mutation { feedback(memoryId: "hub", signal: USED) { newWeight } }',
  'mutation { reinforceCoRetrieval(ids: ["hub", "h1", "h2", "h3"]) { newWeight } }',
];

function summarize(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
  };
}

async function post(
  url: string,
  key: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ ms: number; code: string }> {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return {
    ms: performance.now() - started,
    code: body.errors?.[0]?.extensions?.code ?? (response.ok ? 'ok' : `HTTP ${response.status}`),
  };
}

async function lagMaxMs(url: string): Promise<number | null> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const match = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(await response.text());
  return match ? Number(match[1]) * 1000 : null;
}

/**
 * Runs both phases against one production server over `dbPath`, whose benchmark workspace is
 * reached with `quietKey`; `quietIds` are memories of that workspace for the quiet client.
 */
export async function hubAttack(options: {
  dbPath: string;
  env: Record<string, string>;
  quietKey: string;
  quietWorkspace: string;
  quietIds: string[];
  seconds: number;
}): Promise<HubAttackResult> {
  await seedHub(options.dbPath);
  const server = await startServer('./servers/engram-server.ts', {
    ...options.env,
    ENGRAM_API_KEYS: `${options.quietKey}=${options.quietWorkspace}:write,${HUB_KEY}=${HUB_WORKSPACE}:write,${ADMIN_KEY}=${options.quietWorkspace}:admin`,
  });
  try {
    let next = 0;
    const quiet = async (until: () => boolean): Promise<number[]> => {
      const samples: number[] = [];
      while (!until()) {
        const id = options.quietIds[next++ % options.quietIds.length];
        const { ms, code } = await post(
          server.url,
          options.quietKey,
          'query Q($id: ID!) { memory(id: $id) { neighbors(limit: 20) { memory { title } } } }',
          { id },
        );
        if (code !== 'ok') throw new Error(`the quiet client's query failed: ${code}`);
        samples.push(ms);
        await sleep(20);
      }
      return samples;
    };
    const phase = (seconds: number) => {
      const end = performance.now() + seconds * 1000;
      return () => performance.now() >= end;
    };
    // The hub's index builds in the background on first use; the attack starts once it is warm.
    await post(server.url, HUB_KEY, '{ memory(id: "hub") { degree } }');
    await sleep(2000);
    const alone = await quiet(phase(options.seconds));
    // Each attack once before measuring: the first run of a code path pays for its compilation
    // (one-off spikes of 50-200 ms), which is not what a tenant sees while an attack goes on.
    for (const query of ATTACKS) await post(server.url, HUB_KEY, query);
    await lagMaxMs(server.url);
    const attackOutcomes: Record<string, number> = {};
    let attackRequests = 0;
    let attacking = true;
    const attacker = async () => {
      for (let i = 0; attacking; i++) {
        const { code } = await post(server.url, HUB_KEY, ATTACKS[i % ATTACKS.length] as string);
        attackOutcomes[code] = (attackOutcomes[code] ?? 0) + 1;
        attackRequests++;
      }
    };
    const attackers = [attacker(), attacker()];
    const underAttack = await quiet(phase(options.seconds));
    attacking = false;
    await Promise.all(attackers);
    const eventLoopLagMaxMs = await lagMaxMs(server.url);
    return {
      hubEdges: HUB_EDGES,
      alone: summarize(alone),
      underAttack: summarize(underAttack),
      attackRequests,
      attackOutcomes,
      eventLoopLagMaxMs,
    };
  } finally {
    await server.stop();
  }
}

/**
 * `npx tsx bench/hub-attack.ts [--seconds N]`: this row alone, on a fresh database whose quiet
 * workspace holds 1,000 memories in a ring, e.g. to compare two versions of the code.
 */
async function standalone(): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
  const dir = mkdtempSync(join(tmpdir(), 'engram-hub-attack-'));
  const dbPath = join(dir, 'engram.db');
  try {
    const quietIds = Array.from({ length: 1000 }, (_, i) => `q${i}`);
    const store = createSqliteStore({ path: dbPath });
    const now = new Date().toISOString();
    await store.importBatch(
      'quiet',
      {
        memories: quietIds.map((id) => ({
          id,
          key: null,
          title: `quiet ${id}`,
          content: null,
          kind: null,
          tags: [],
          weight: 0.5,
          metadata: null,
        })),
        edges: quietIds.map((id, i) => ({
          id: `qe${i}`,
          fromId: id,
          toId: quietIds[(i + 1) % quietIds.length] as string,
          type: 'RELATED_TO',
          weight: 0.5,
          metadata: null,
        })),
      },
      now,
    );
    await store.close();
    const quietKey = 'bench-quiet-key-0123456789abcdef0123456789abcdef';
    const result = await hubAttack({
      dbPath,
      env: {
        NODE_ENV: 'production',
        ENGRAM_SQLITE_PATH: dbPath,
        ENGRAM_RATE_POINTS_PER_SECOND: '0',
        BENCH_WORKSPACE: 'quiet',
      },
      quietKey,
      quietWorkspace: 'quiet',
      quietIds,
      seconds: Number(values.seconds),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, standalone);
