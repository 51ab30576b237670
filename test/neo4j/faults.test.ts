import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLine, generateGraph } from '../../bench/generator.js';
import {
  freePort,
  type LaunchedServer,
  launchNeo4jTestServer,
  TEST_SERVER_TARGET,
} from '../../scripts/neo4j-test-server.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { memoryLine } from '../../src/domain/graph-records.js';
import type { WeightEventRecord } from '../../src/domain/types.js';
import { createLogger } from '../../src/logger.js';
import { createStore } from '../../src/store/create-store.js';
import type { Neo4jStoreConfig } from '../../src/store/neo4j/adapter.js';
import type { GraphStore } from '../../src/store/port.js';
import { workspaceCounts } from '../helpers/neo4j.js';

/**
 * Issue 30: a Neo4j that dies or stalls while Engram serves a steady mixed load. A server of this
 * file's own (the suite's is shared by other files) is killed with SIGKILL and started again on
 * the same store directory and port, then paused with SIGSTOP past the request deadline; Engram
 * keeps running throughout. What every acknowledged write must look like afterwards, and what
 * clients must see meanwhile, is asserted; the figures are printed for the closing note.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REQUEST_TIMEOUT_MS = 4000;
/** Slack over the deadline for a request's answer to travel back through the app. */
const SLACK_MS = 1500;
const WORKSPACES = ['faults-a', 'faults-b', 'faults-c'];
const WORKERS_PER_WORKSPACE = 2;

const sleep = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

interface Answer {
  ok: boolean;
  code: string | null;
  ms: number;
  retryAfter: string | null;
  data: Record<string, any> | null;
}

/** What the load saw and what it was told was done. */
interface Ledger {
  /** By workspace, the memories the load was told it wrote, and those it fed back (earlier tests' too). */
  memories: Map<string, Set<string>>;
  edges: Map<string, { ws: string; acked: number; attempted: number }>;
  acknowledged: number;
  refused: number;
  /** Feedback answered with success: each wrote a memory weight event the audit reads. */
  feedbackAcked: number;
  /** Answers that were neither a success nor UNAVAILABLE, or came after the deadline. */
  violations: string[];
}

if (!process.env.NEO4J_URI) {
  console.warn('SKIPPED: Neo4j fault tests (run `npm run test:neo4j`)');
  describe('Neo4j faults lose nothing', () => {
    it.skip('kills and stalls a live Neo4j under load when NEO4J_URI is set', () => {});
  });
} else {
  describe('Neo4j faults lose nothing', () => {
    const home = mkdtempSync(join(process.env.NEO4J_TEST_DATA_DIR ?? '/dev/shm', 'engram-faults-'));
    const password = randomBytes(18).toString('base64url');
    let port = 0;
    let server: LaunchedServer;
    let store: GraphStore;
    let storeConfig: Neo4jStoreConfig;
    let gql: (ws: string, query: string, variables?: Record<string, unknown>) => Promise<Answer>;
    let ready: () => Promise<number>;
    let storeCallsInFlight: () => Promise<number>;

    const launch = () =>
      launchNeo4jTestServer({ port, password, home, logPath: join(TEST_SERVER_TARGET, 'neo4j-faults.log') });

    beforeAll(async () => {
      port = await freePort();
      server = await launch();
      const config = loadConfig({
        ENGRAM_STORE: 'neo4j',
        NEO4J_URI: `neo4j://127.0.0.1:${port}`,
        NEO4J_USER: 'neo4j',
        NEO4J_PASSWORD: password,
        ENGRAM_LOG_LEVEL: 'silent',
        ENGRAM_RATE_POINTS_PER_SECOND: '0',
        ENGRAM_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      });
      storeConfig = config.store as Neo4jStoreConfig;
      store = await createStore(config);
      const app = createApp({ config, store, logger: createLogger('silent') });
      gql = async (ws, query, variables = {}) => {
        const started = performance.now();
        const response = await app.fetch('http://engram.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-engram-workspace': ws },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await response.json()) as {
          data?: Record<string, any>;
          errors?: { extensions?: { code?: string } }[];
        };
        const code = body.errors?.[0]?.extensions?.code ?? null;
        return {
          ok: !body.errors,
          code,
          ms: performance.now() - started,
          retryAfter: response.headers.get('retry-after'),
          data: body.data ?? null,
        };
      };
      ready = async () => (await app.fetch('http://engram.test/ready')).status;
      storeCallsInFlight = async () => {
        const text = await (await app.fetch('http://engram.test/metrics')).text();
        return Number(/^engram_store_calls_in_flight (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
      };
    }, 240_000);

    afterAll(async () => {
      await store?.close();
      await server?.stop();
      rmSync(home, { recursive: true, force: true });
    }, 60_000);

    /**
     * Steady mixed load from several workspaces into `ledger` until `stop` resolves: creates, links,
     * nudges and recalls. Each worker links an edge as soon as it has two memories, so every kind
     * of write is under way when the fault comes (the test waits for the edges).
     */
    async function load(stop: Promise<void>, ledger: Ledger): Promise<void> {
      let stopped = false;
      void stop.then(() => {
        stopped = true;
      });
      const judge = (what: string, answer: Answer) => {
        if (answer.ms > REQUEST_TIMEOUT_MS + SLACK_MS)
          ledger.violations.push(`${what}: answered after ${Math.round(answer.ms)} ms`);
        if (answer.ok) {
          ledger.acknowledged++;
          return true;
        }
        ledger.refused++;
        if (answer.code !== 'UNAVAILABLE') ledger.violations.push(`${what}: ${answer.code}`);
        else if (answer.retryAfter === null) ledger.violations.push(`${what}: UNAVAILABLE without Retry-After`);
        return false;
      };
      const worker = async (ws: string, seed: number) => {
        const mine: string[] = [];
        const edges: string[] = [];
        for (let step = seed; !stopped; step++) {
          const kind = mine.length < 2 ? 0 : edges.length === 0 ? 2 : step % 5;
          if (kind === 0 || kind === 1) {
            const id = randomUUID();
            const answer = await gql(
              ws,
              'mutation($input: CreateMemoryInput!) { createMemory(input: $input) { id } }',
              {
                input: { id, title: `fault memory ${step}`, content: 'steady load' },
              },
            );
            if (judge('createMemory', answer)) mine.push(id);
          } else if (kind === 2) {
            const [from, to] = [mine[step % mine.length], mine[(step + 1) % mine.length]];
            const answer = await gql(ws, 'mutation($input: LinkInput!) { link(input: $input) { id } }', {
              input: { from, to, type: 'RELATED_TO', weight: 0.5 },
            });
            if (judge('link', answer)) {
              const id = answer.data?.link.id as string;
              if (!ledger.edges.has(id)) ledger.edges.set(id, { ws, acked: 0, attempted: 0 });
              if (!edges.includes(id)) edges.push(id);
            }
          } else if (kind === 3 && edges.length > 0) {
            const edgeId = edges[step % edges.length] as string;
            const entry = ledger.edges.get(edgeId)!;
            entry.attempted++;
            const mutation = step % 2 === 0 ? 'weaken' : 'strengthen';
            const answer = await gql(
              ws,
              `mutation($edgeId: ID!) { ${mutation}(edgeId: $edgeId, amount: 0.01) { newWeight } }`,
              { edgeId },
            );
            if (judge(mutation, answer)) entry.acked++;
          } else {
            const answer = await gql(
              ws,
              'query { recall(query: "fault memory", limit: 5) { id results { memory { id } } } }',
            );
            const recallId = answer.data?.recall.id as string | undefined;
            const used = answer.data?.recall.results[0]?.memory.id as string | undefined;
            if (judge('recall', answer) && recallId && used) {
              // Feedback writes several changes (the memory, learned edges) in one transaction.
              const feedback = await gql(
                ws,
                'mutation($recallId: ID!, $memoryId: ID!) { feedback(recallId: $recallId, memoryId: $memoryId, signal: USED, source: AGENT) { newWeight } }',
                { recallId, memoryId: used },
              );
              if (judge('feedback', feedback)) ledger.feedbackAcked++;
              audited(ledger, ws).add(used);
            }
          }
        }
        for (const id of mine) audited(ledger, ws).add(id);
      };
      await Promise.all(
        WORKSPACES.flatMap((ws) => Array.from({ length: WORKERS_PER_WORKSPACE }, (_, k) => worker(ws, k * 1000))),
      );
    }

    /** The set of a workspace's memories the audit checks. */
    const audited = (ledger: Ledger, ws: string): Set<string> => {
      const set = ledger.memories.get(ws) ?? new Set<string>();
      ledger.memories.set(ws, set);
      return set;
    };

    const newLedger = (): Ledger => ({
      memories: new Map(),
      edges: new Map(),
      acknowledged: 0,
      refused: 0,
      feedbackAcked: 0,
      violations: [],
    });

    /**
     * Starts the load and resolves, with the handle that stops it, once every worker has an edge
     * and the load has had two weight changes acknowledged per worker and one feedback per
     * workspace: on a fresh server the first requests take a second or more each (it plans every
     * statement anew), and a fault that comes before the nudges and the feedback are flowing tests
     * little of what they leave behind (a CI run on a slow machine killed Neo4j before any feedback
     * had been answered, and saw none after the restart, so its audit had no memory event to read).
     */
    async function warmLoad(): Promise<{ ledger: Ledger; finish: () => Promise<Ledger> }> {
      const ledger = newLedger();
      let release!: () => void;
      const running = load(
        new Promise<void>((resolveStop) => {
          release = resolveStop;
        }),
        ledger,
      );
      const started = performance.now();
      const workers = WORKSPACES.length * WORKERS_PER_WORKSPACE;
      const nudgesAcknowledged = () => [...ledger.edges.values()].reduce((sum, edge) => sum + edge.acked, 0);
      while (
        (ledger.edges.size < workers ||
          nudgesAcknowledged() < 2 * workers ||
          ledger.feedbackAcked < WORKSPACES.length) &&
        performance.now() - started < 60_000
      ) {
        await sleep(100);
      }
      return {
        ledger,
        finish: async () => {
          release();
          await running;
          return ledger;
        },
      };
    }

    /** The Bolt connections Engram's driver (user agent `engram`) holds open on the server, as the server counts them. */
    async function engramConnections(): Promise<number> {
      const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('neo4j', password));
      try {
        const { records } = await driver.executeQuery(
          "CALL dbms.listConnections() YIELD userAgent WHERE userAgent STARTS WITH 'engram' RETURN count(*) AS n",
        );
        return Number(records[0]?.get('n') ?? 0);
      } finally {
        await driver.close();
      }
    }

    /**
     * Every acknowledged write is there, once; every edge's and memory's history is one chain
     * ending at its weight.
     * Read once no store call of the app is running: an answer can leave its store call behind (a
     * request answered at its deadline while the driver still ran its transaction), and a weight
     * change committing between reading an edge and reading its history looks like an edge whose
     * weight is not its newest event's (as a CI run reported: "weight 0.51 but its last event says 0.5").
     */
    async function audit(ledger: Ledger) {
      const started = performance.now();
      while ((await storeCallsInFlight()) !== 0 && performance.now() - started < 30_000) await sleep(100);
      expect(await storeCallsInFlight()).toBe(0);
      const lost: string[] = [];
      const doubled: string[] = [];
      let memoryEvents = 0;
      /** Newest first, the newest ends at the weight, and each event starts where the one before it in time ended. */
      const unbroken = (what: string, weight: number, events: readonly WeightEventRecord[]) => {
        const newest = events[0];
        if (newest && Math.abs(newest.new - weight) > 1e-9)
          doubled.push(`${what}: weight ${weight} but its last event says ${newest.new}`);
        const broken = events.findIndex((event, index) => {
          const older = events[index + 1];
          return older !== undefined && Math.abs(older.new - event.old) > 1e-9;
        });
        if (broken >= 0) doubled.push(`${what}: event ${events[broken]?.id} does not start where the one before ended`);
      };
      for (const [ws, set] of ledger.memories) {
        const ids = [...set];
        const found = await store.getMemories(ws, ids);
        for (const [index, memory] of found.entries()) {
          if (!memory) {
            lost.push(`memory ${ids[index]}`);
            continue;
          }
          const events = await store.listWeightEvents(ws, {
            edgeId: null,
            memoryId: memory.id,
            source: null,
            limit: 1000,
          });
          memoryEvents += events.length;
          unbroken(`memory ${memory.id}`, memory.weight, events);
        }
      }
      for (const [edgeId, entry] of ledger.edges) {
        const [edge] = await store.getEdges(entry.ws, [edgeId]);
        if (!edge) {
          lost.push(`edge ${edgeId}`);
          continue;
        }
        const events = await store.listWeightEvents(entry.ws, { edgeId, memoryId: null, source: null, limit: 1000 });
        // weaken and strengthen are CONSCIOUS; link is MANUAL and the load's feedback AGENT.
        const nudges = events.filter((event) => event.source === 'CONSCIOUS');
        if (nudges.length < entry.acked)
          lost.push(`edge ${edgeId}: ${nudges.length} events for ${entry.acked} acknowledged nudges`);
        if (nudges.length > entry.attempted)
          doubled.push(`edge ${edgeId}: ${nudges.length} events for ${entry.attempted} attempts`);
        unbroken(`edge ${edgeId}`, edge.weight, events);
      }
      return { lost, doubled, memoryEvents };
    }

    /**
     * How long until a new request succeeds once Neo4j answers again: a fresh write every 100 ms,
     * each on its own (one that began while Neo4j was down may be waiting out the driver's retry
     * back-off, and ends by its deadline either way); the first to succeed marks the time.
     */
    let probesSent = 0;
    function recovery(): Promise<number> {
      const started = performance.now();
      return new Promise<number>((resolveBack) => {
        let done = false;
        const finish = (at: number) => {
          if (done) return;
          done = true;
          clearInterval(timer);
          resolveBack(at);
        };
        const probe = async () => {
          probesSent++;
          const answer = await gql(
            WORKSPACES[0] as string,
            'mutation { createMemory(input: { title: "probe" }) { id } }',
          );
          if (answer.ok) finish(performance.now() - started);
        };
        const timer = setInterval(() => {
          if (performance.now() - started > 30_000) finish(Number.POSITIVE_INFINITY);
          else void probe();
        }, 100);
        void probe();
      });
    }

    it('kill -9 of Neo4j under load: acknowledged writes all there, none twice, UNAVAILABLE meanwhile, back within 4 s', async () => {
      const { finish } = await warmLoad();
      await sleep(1500);
      const poolBefore = await engramConnections();
      await server.signal('SIGKILL');
      await sleep(1000);
      const readyWhileDown = await ready();
      const downAnswer = await gql(WORKSPACES[1] as string, 'query { memories(ids: ["x"]) { id } }');
      await sleep(2000);
      server = await launch();
      probesSent = 0;
      const back = await recovery();
      await sleep(2500);
      const ledger = await finish();
      const { lost, doubled, memoryEvents } = await audit(ledger);
      const readyAfter = await ready();
      const poolAfter = await engramConnections();
      console.info(
        `[faults] kill -9: ${ledger.acknowledged} writes and reads acknowledged, ${ledger.refused} refused as UNAVAILABLE, ` +
          `${ledger.edges.size} edges and ${memoryEvents} memory weight events audited, lost ${lost.length}, doubled ${doubled.length}, service back ${Math.round(back)} ms after Neo4j was ready, ` +
          `Engram's Bolt connections ${poolBefore} before the kill and ${poolAfter} after (${probesSent} probes)`,
      );
      // The pool is rebuilt, and holds no more than the requests that overlapped could: each of the
      // load's workers and of recovery's probes (a request reads in one transaction and may write
      // in another, so two connections at most).
      expect(poolAfter).toBeGreaterThan(0);
      expect(poolAfter).toBeLessThanOrEqual(2 * (WORKSPACES.length * WORKERS_PER_WORKSPACE + probesSent));
      expect(ledger.violations).toEqual([]);
      expect(lost).toEqual([]);
      expect(doubled).toEqual([]);
      expect(readyWhileDown).toBe(503);
      expect(downAnswer.code).toBe('UNAVAILABLE');
      expect(downAnswer.retryAfter).toBe('1');
      // The bound is 2 s; CI runs measured 536, 554, 1,337, 2,103, 2,128 and 1,603-2,466 ms,
      // quiet local runs 1,923 and 2,072, and on 2026-11-29, when the machine ran everything about
      // 1.5 times slower, 3,031 ms in the whole live suite and 2,337 alone. The time is the restarted
      // server's, not a back-off: with every attempt traced, each request after the restart made ONE
      // attempt, and the first probe (30 ms after ready) took 2.8 s in it, on a fresh JVM planning
      // every statement anew under the load's traffic. 4 s leaves that room and still fails on a
      // service that waits out the driver's retry window (5 s) or does not come back (docs/neo4j.md).
      expect(back).toBeLessThan(4000);
      expect(readyAfter).toBe(200);
      expect(ledger.refused).toBeGreaterThan(0);
      expect(ledger.edges.size).toBeGreaterThanOrEqual(WORKSPACES.length * WORKERS_PER_WORKSPACE);
      expect(memoryEvents).toBeGreaterThan(0);
    }, 180_000);

    it('a Neo4j paused past the deadline: requests end at the deadline with UNAVAILABLE, and all answer again after', async () => {
      const { finish } = await warmLoad();
      await sleep(1500);
      await server.signal('SIGSTOP');
      const stalled = await gql(
        WORKSPACES[2] as string,
        'mutation { createMemory(input: { title: "stalled" }) { id } }',
      );
      await sleep(REQUEST_TIMEOUT_MS);
      await server.signal('SIGCONT');
      const back = await recovery();
      await sleep(2000);
      const ledger = await finish();
      const { lost, doubled, memoryEvents } = await audit(ledger);
      console.info(
        `[faults] SIGSTOP ${REQUEST_TIMEOUT_MS * 2} ms: ${ledger.acknowledged} acknowledged, ${ledger.refused} refused, ` +
          `${memoryEvents} memory weight events audited, stalled request answered in ${Math.round(stalled.ms)} ms (${stalled.code}), lost ${lost.length}, doubled ${doubled.length}, back ${Math.round(back)} ms after SIGCONT`,
      );
      expect(memoryEvents).toBeGreaterThan(0);
      expect(stalled.code).toBe('UNAVAILABLE');
      expect(stalled.ms).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
      expect(ledger.violations).toEqual([]);
      expect(lost).toEqual([]);
      expect(doubled).toEqual([]);
      expect(back).toBeLessThan(2000);
    }, 180_000);

    /**
     * Creates a memory (`input`: its GraphQL input literal), has another Bolt client take its write
     * lock, and runs `body` while that client holds it; `release` rolls the other client back.
     */
    async function whileLocked(
      ws: string,
      input: string,
      body: (id: string, release: () => Promise<void>) => Promise<void>,
    ): Promise<void> {
      const created = await gql(ws, `mutation { createMemory(input: ${input}) { id } }`);
      const id = created.data?.createMemory.id as string;
      const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('neo4j', password));
      const holder = driver.session();
      const hold = holder.beginTransaction();
      try {
        await hold.run('MATCH (m:Memory {workspace: $ws, id: $id}) SET m._heldBy = "another client"', { ws, id });
        await body(id, () => hold.rollback());
      } finally {
        await holder.close();
        await driver.close();
      }
    }

    it('a memory locked by another session past the deadline: UNAVAILABLE at the deadline, nothing half-written, then served', async () => {
      const ws = WORKSPACES[0] as string;
      // Another client holds the memory's write lock for longer than Engram's transaction timeout (5 s).
      await whileLocked(ws, '{ title: "locked", key: "locked" }', async (id, release) => {
        const rename = () =>
          gql(ws, 'mutation($id: ID!) { updateMemory(id: $id, input: { title: "renamed" }) { title } }', { id });
        const blocked = await rename();
        const link = await gql(
          ws,
          'mutation { link(input: { from: "locked", to: "locked-peer", type: "RELATED_TO" }) { id } }',
        );
        await sleep(3000);
        await release();
        const [after] = await store.getMemories(ws, [id]);
        const retried = await rename();
        console.info(
          `[faults] lock held 7 s: update answered ${blocked.code} in ${Math.round(blocked.ms)} ms; after release the retry ${retried.ok ? 'succeeded' : retried.code}`,
        );
        expect(blocked.code).toBe('UNAVAILABLE');
        expect(blocked.retryAfter).toBe('1');
        expect(blocked.ms).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
        expect(['UNAVAILABLE', 'NOT_FOUND']).toContain(link.code);
        expect(after?.title).toBe('locked');
        expect(retried.data?.updateMemory.title).toBe('renamed');
      });
    }, 120_000);

    it('a write whose deadline passed while it waited for a lock does not commit once the lock is free', async () => {
      const ws = WORKSPACES[1] as string;
      await whileLocked(ws, '{ title: "waiting" }', async (id, release) => {
        const blocked = await gql(
          ws,
          'mutation($id: ID!) { updateMemory(id: $id, input: { title: "too late" }) { title } }',
          { id },
        );
        // Released after the request's deadline (4 s) but before Engram's transaction timeout (5 s):
        // the update gets its lock while its client already holds UNAVAILABLE.
        await release();
        await sleep(1500);
        const [after] = await store.getMemories(ws, [id]);
        console.info(
          `[faults] lock released ${Math.round(blocked.ms)} ms into a 4 s request: answered ${blocked.code}, title afterwards "${after?.title}"`,
        );
        expect(blocked.code).toBe('UNAVAILABLE');
        expect(blocked.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
        expect(after?.title).toBe('waiting');
      });
    }, 60_000);

    it('kill -9 during engram import: it reports what committed, and a re-run gives exactly the file', async () => {
      const workspace = 'faults-import';
      const graph = generateGraph({ memories: 8_000, edges: 40_000, seed: 30 });
      const file = join(home, '..', `${basename(home)}-import.ndjson`);
      const lines: string[] = [];
      for (let index = 0; index < graph.spec.memories; index++)
        lines.push(memoryLine({ ...graph.memory(index), createdAt: '', updatedAt: '' }));
      for (let index = 0; index < graph.spec.edges; index++) lines.push(edgeLine(graph, index));
      writeFileSync(file, `${lines.join('\n')}\n`);
      const env = {
        ...process.env,
        ENGRAM_STORE: 'neo4j',
        NEO4J_URI: `neo4j://127.0.0.1:${port}`,
        NEO4J_USER: 'neo4j',
        NEO4J_PASSWORD: password,
        ENGRAM_LOG_LEVEL: 'silent',
      };
      const runImport = () => {
        const child = spawn(process.execPath, [join(ROOT, 'bin/engram.js'), 'import', file, '--workspace', workspace], {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
        return { exit, stderr: () => stderr };
      };
      const records = async () => {
        const [memories] = await store.getMemories(workspace, [graph.ids[0] as string]);
        const page = await store.listEdges(workspace, { afterId: null, limit: 1 });
        return { first: memories, anyEdge: page.length > 0 };
      };
      try {
        const interrupted = runImport();
        // Neo4j dies once the memories are in and the edges are going: mid-import.
        const started = performance.now();
        while (!(await records()).anyEdge && performance.now() - started < 120_000) await sleep(200);
        await server.signal('SIGKILL');
        const code = await interrupted.exit;
        const report = interrupted.stderr();
        const written =
          /Stopped: (?:the ([\d,]+) records of earlier batches were written|no earlier batch was written); the store failed while writing the next batch, which may or may not have been committed/.exec(
            report,
          );
        const reported = Number((written?.[1] ?? '0').replaceAll(',', ''));
        server = await launch();
        await recovery();
        const stored = await workspaceCounts(storeConfig, workspace);
        console.info(
          `[faults] import killed: exit ${code}, reported ${reported} records written, ${stored.memories + stored.edges} in the database`,
        );
        expect(code).toBe(1);
        expect(report).toMatch(/unavailable/i);
        expect(written).not.toBeNull();
        // What the report says was written is there, and at most the one batch it could not vouch for beside it.
        expect(stored.memories + stored.edges).toBeGreaterThanOrEqual(reported);
        expect(stored.memories + stored.edges).toBeLessThanOrEqual(reported + 10_000);

        const rerun = runImport();
        expect(await rerun.exit, rerun.stderr()).toBe(0);
        expect(await workspaceCounts(storeConfig, workspace)).toEqual({
          memories: 8_000,
          edges: 40_000,
          edgeRefs: 40_000,
        });
      } finally {
        rmSync(file, { force: true });
      }
    }, 600_000);
  });
}
