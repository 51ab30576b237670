import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createServerPool, type EngramServer, type HttpGraphQLResponse } from '../helpers/process.js';

/**
 * A hub under attack, through a real server process and real sockets: one workspace holds a
 * memory with HUB_EDGES edges (half incoming VALIDATES, half outgoing RELATED_TO); while it sends
 * the queries that used to freeze the server for everyone (aliased and deep evidence, context,
 * feedback without via, reinforcement, deleting the hub), a client of ANOTHER workspace sends a
 * trivial query every 20 ms. The other workspace's worst latency is the test.
 */
const HUB_EDGES = 50_000;
const HALF = HUB_EDGES / 2;
const HUB = 'hub';

const pool = createServerPool();
let server: EngramServer;

/** The server's longest event-loop delay since the previous scrape (prom-client resets it on every collect). */
async function eventLoopLagMaxMs(target: EngramServer): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${target.port}/metrics`);
  const text = await response.text();
  const match = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  if (!match) throw new Error(`no nodejs_eventloop_lag_max_seconds in /metrics (HTTP ${response.status})`);
  return Number(match[1]) * 1000;
}

describe('a hub under attack (issue 12, finding 1)', () => {
  beforeAll(async () => {
    const dir = pool.tempDir();
    const dbPath = join(dir, 'hub.db');
    const store = createSqliteStore({ path: dbPath });
    const now = new Date().toISOString();
    const memory = (id: string) => ({
      id,
      key: null,
      title: `memory ${id}`,
      content: `content of ${id}`,
      kind: 'fact',
      tags: ['t'],
      weight: 0.5,
      metadata: null,
    });
    const ids = Array.from({ length: HUB_EDGES }, (_, i) => `m${i}`);
    await store.importBatch('attacker', { memories: [memory(HUB)], edges: [] }, now);
    for (let at = 0; at < ids.length; at += 10_000) {
      await store.importBatch('attacker', { memories: ids.slice(at, at + 10_000).map(memory), edges: [] }, now);
    }
    const edges = ids.map((id, i) =>
      i < HALF
        ? { id: `v${i}`, fromId: id, toId: HUB, type: 'VALIDATES', weight: 0.2 + (i % 70) / 100, metadata: null }
        : { id: `r${i}`, fromId: HUB, toId: id, type: 'RELATED_TO', weight: 0.2 + (i % 70) / 100, metadata: null },
    );
    for (let at = 0; at < edges.length; at += 10_000)
      await store.importBatch('attacker', { memories: [], edges: edges.slice(at, at + 10_000) }, now);
    await store.importBatch('bystander', { memories: [memory('quiet')], edges: [] }, now);
    await store.close();
    server = await pool.start({
      dbPath,
      env: { ENGRAM_REQUEST_TIMEOUT_MS: '1000', ENGRAM_WALK_BUDGET: '1000', ENGRAM_LOG_LEVEL: 'error' },
    });
    // Let the hub's workspace index build (a background build for a workspace this size).
    await server.gql('{ memory(id: "hub") { degree } }', undefined, { workspace: 'attacker' });
    await sleep(1500);
  }, 180_000);

  afterAll(() => pool.cleanup());

  it('keeps another workspace responsive while the hub queries run, and bounds every heavy answer', async () => {
    const latencies: number[] = [];
    const worstDuring = new Map<string, number>();
    let running = 'start';
    let probing = true;
    await eventLoopLagMaxMs(server);
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const during = running;
        const response = await server.gql('{ memory(id: "quiet") { id title } }', undefined, {
          workspace: 'bystander',
          timeoutMs: 60_000,
        });
        const ms = performance.now() - started;
        latencies.push(ms);
        worstDuring.set(during, Math.max(worstDuring.get(during) ?? 0, ms));
        expect(response.data?.memory?.id).toBe('quiet');
        await sleep(20);
      }
    })();

    const aliases = Array.from(
      { length: 15 },
      (_, i) => `e${i}: memory(id: "${HUB}") { evidence(maxDepth: 1) { score } }`,
    ).join('\n');
    const attacks: [string, string][] = [
      ['aliased evidence', `{ ${aliases} }`],
      ['deep evidence', `{ memory(id: "${HUB}") { evidence(maxDepth: 5) { score supporting { memory { id } } } } }`],
      ['context', `{ context(seeds: ["${HUB}"], budget: 100) { items { memory { id } } truncated } }`],
      ['feedback without via', `mutation { feedback(memoryId: "${HUB}", signal: USED) { newWeight } }`],
      ['reinforce', `mutation { reinforceCoRetrieval(ids: ["${HUB}", "m1", "m2", "m${HALF + 1}"]) { newWeight } }`],
      ['delete the hub', `mutation { deleteMemory(id: "${HUB}") { deleted edgesRemoved } }`],
    ];
    const outcomes: { name: string; ms: number; bytes: number; codes: string[]; response: HttpGraphQLResponse }[] = [];
    await sleep(100);
    for (const [name, query] of attacks) {
      running = name;
      const started = performance.now();
      const response = await server.gql(query, undefined, { workspace: 'attacker', timeoutMs: 120_000 });
      outcomes.push({
        name,
        ms: Math.round(performance.now() - started),
        bytes: JSON.stringify(response).length,
        codes: (response.errors ?? []).map((error) => String(error.extensions?.code)),
        response,
      });
      await sleep(50);
    }
    running = 'after';
    await sleep(300);
    probing = false;
    await probe;
    const lagMaxMs = await eventLoopLagMaxMs(server);

    expect(latencies.length).toBeGreaterThan(0);
    for (const [during, worst] of worstDuring)
      expect(worst, `the other workspace's longest wait during ${during}`).toBeLessThan(250);
    // No attack blocked the server's event loop for longer than the other workspace may wait.
    expect(lagMaxMs).toBeLessThan(250);
    for (const outcome of outcomes) {
      // No answer runs past the request deadline (with room for the socket), none is huge, and none is a server fault.
      expect(outcome.ms, outcome.name).toBeLessThan(1500);
      expect(outcome.bytes, outcome.name).toBeLessThan(200_000);
      expect(
        outcome.codes.filter((code) => code === 'INTERNAL_SERVER_ERROR'),
        outcome.name,
      ).toEqual([]);
    }
  }, 240_000);
});
