import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { quantile } from './lib/stats.js';
import type { TargetRow } from './report.js';

/** A server in its own process (own event loop and core), so the load generator never competes with it in one loop. */
export interface ChildServer {
  url: string;
  /** The server process's resident set size, in bytes. */
  rss(): Promise<number | null>;
  stop(): Promise<void>;
}

export async function startServer(script: string, env: Record<string, string>): Promise<ChildServer> {
  const child: ChildProcess = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    // The server's own logs (Engram logs every request in production) go nowhere, cheaply.
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    rss: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 2000);
        child.once('message', (message) => {
          clearTimeout(timer);
          resolve((message as { rss?: number }).rss ?? null);
        });
        child.send('rss');
      }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Completed 2xx responses per second. */
  rps: number;
  /** Per-response latencies (ms, sub-millisecond resolution), from autocannon's response events. */
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** A fresh JSON body for each request (e.g. a random pair of memories). */
  body: () => string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** One autocannon run; the warm-up run's numbers are dropped. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await run({ ...spec, seconds: spec.warmupSeconds });
  return run(spec);
}

function run(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const request: autocannon.Request = {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...spec.headers },
    setupRequest: (next) => ({ ...next, body: spec.body() }),
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${spec.url}/graphql`,
        connections: spec.connections,
        duration: spec.seconds,
        requests: [request],
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        const completed = result.requests.total - result.non2xx;
        resolve({
          connections: spec.connections,
          seconds: spec.seconds,
          requests: result.requests.total,
          rps: completed / (result.duration || spec.seconds),
          p50: quantile(latencies, 0.5),
          p95: quantile(latencies, 0.95),
          p99: quantile(latencies, 0.99),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** One request outside the load run, to check the server answers the query without errors. */
export async function probe(url: string, headers: Record<string, string>, body: string): Promise<unknown> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const json = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
  if (response.status !== 200 || json.errors)
    throw new Error(`probe failed (${response.status}): ${JSON.stringify(json.errors ?? json)}`);
  return json.data;
}

/** The real server (src/server.ts, ENGRAM_WORKERS=workers): the port from its start-up line, the pids of its serving processes. */
export interface ClusterServer {
  url: string;
  /** Resident set size of each process that serves requests (the workers, or the single process), in bytes. */
  rss(): number[];
  stop(): Promise<void>;
}

const LISTENING = /Engram listening on http:\/\/localhost:(\d+)\/graphql/;

export async function startWorkers(workers: number, env: Record<string, string>): Promise<ClusterServer> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      ENGRAM_WORKERS: String(workers),
      PORT: '0',
      HOST: '127.0.0.1',
      ENGRAM_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = LISTENING.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`src/server.ts exited with code ${code} before listening`)));
  });
  const pid = child.pid as number;
  return {
    url: `http://127.0.0.1:${port}`,
    rss: () => (workers === 1 ? [pid] : childrenOf(pid)).map(residentBytes),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The cluster's workers: the primary's children that run the server (tsx also runs an esbuild child). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('src/server.ts'));
}

function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

export interface WorkerScaling {
  /** One row per worker count, the first with 1 worker: neighbors(limit 20) throughput on the real server. */
  rows: { workers: number; result: LoadResult; rssBytes: number[] }[];
  /** Each count's throughput over workers x the single process's. */
  efficiency: number[];
}

/**
 * The same load (neighbors(limit 20), `connections` connections) on src/server.ts with 1, then 2
 * (then more) workers, one after the other in this run, so the ratio is what the workers add on
 * this machine. The load generator shares the machine's cores with the server.
 */
export async function workerScaling(spec: {
  env: Record<string, string>;
  headers: Record<string, string>;
  body: () => string;
  counts: number[];
  /** How long the workspace's adjacency index took to build in this run (settle waits for it). */
  indexBuildMs: number;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}): Promise<WorkerScaling> {
  const rows: WorkerScaling['rows'] = [];
  for (const workers of spec.counts) {
    const server = await startWorkers(workers, spec.env);
    try {
      await probe(server.url, spec.headers, spec.body());
      await settle({ ...spec, url: server.url }, spec.indexBuildMs * workers);
      const result = await load({ ...spec, url: server.url });
      rows.push({ workers, result, rssBytes: server.rss() });
    } finally {
      await server.stop();
    }
  }
  const single = rows[0]?.result.rps ?? Number.NaN;
  return { rows, efficiency: rows.map((row) => row.result.rps / (row.workers * single)) };
}

/** Most one-second rounds of load while waiting for a fresh server's throughput to level off. */
const MAX_SETTLE_ROUNDS = 60;

/**
 * The real server builds a workspace's adjacency index on its first walk, each worker its own,
 * and a large one in the background while SQL serves (as slow as it is steady, so steadiness alone
 * does not tell). Load it for at least `minMs` (the build time of the index, times the workers
 * building at once), then until two one-second rounds agree within 10 %.
 */
async function settle(spec: LoadSpec, minMs: number): Promise<void> {
  const until = performance.now() + minMs;
  let last = 0;
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    const { rps } = await load({ ...spec, seconds: 1, warmupSeconds: 0 });
    if (performance.now() >= until && last > 0 && Math.abs(rps - last) <= 0.1 * last) return;
    last = rps;
  }
}

export function renderWorkerScaling(scaling: WorkerScaling): string {
  const header =
    '| workers (src/server.ts) | conn | p50 ms | req/s | x single | per worker vs single | RSS per worker MB | failed |';
  const rows = scaling.rows.map((row, i) => {
    const single = scaling.rows[0]?.result.rps ?? Number.NaN;
    const rss = row.rssBytes.map((bytes) => Math.round(bytes / 1024 ** 2)).join(' / ');
    return `| ${row.workers} | ${row.result.connections} | ${row.result.p50.toFixed(2)} | ${Math.round(row.result.rps)} | ${(row.result.rps / single).toFixed(2)} | ${(scaling.efficiency[i] ?? Number.NaN).toFixed(2)} | ${rss} | ${row.result.non2xx + row.result.errors} |`;
  });
  return [header, '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** Issue 16's target: N workers serve at least 0.85 x N x the single process's throughput. */
export const WORKER_EFFICIENCY_TARGET = 0.85;

export function workerScalingTargets(scaling: WorkerScaling): TargetRow[] {
  const single = scaling.rows[0];
  if (!single) return [];
  return scaling.rows.slice(1).map((row, i) => {
    const ratio = row.result.rps / single.result.rps;
    const goal = WORKER_EFFICIENCY_TARGET * row.workers;
    return {
      target: `HTTP neighbors(limit 20) with ${row.workers} workers`,
      measured: `${Math.round(row.result.rps)} req/s`,
      reference: `1 worker ${Math.round(single.result.rps)} req/s`,
      ratio,
      goal: `>= ${goal.toFixed(2)}x (${WORKER_EFFICIENCY_TARGET} x ${row.workers})`,
      met: (scaling.efficiency[i + 1] ?? 0) >= WORKER_EFFICIENCY_TARGET,
    };
  });
}
