/**
 * Issue 16's multi-core serving measured: the real server with 1, 2 (4, 8) workers under the same
 * load, and the CPU the server and the load generator spend per request, which explains the ratio
 * on a machine whose cores they share (bench/README.md#workers-throughput-with-n-processes).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type LoadResult, type LoadSpec, load, probe } from './http-bench.js';
import type { TargetRow } from './report.js';

/** The real server as `npm start` runs it (the compiled build, ENGRAM_WORKERS=workers): the port from its start-up line, the pids of its processes. */
export interface ClusterServer {
  url: string;
  /** Every process of the server: the single process, or the primary and its workers. */
  pids(): number[];
  /** Resident set size of each process that serves requests (the workers, or the single process), in bytes. */
  rss(): number[];
  stop(): Promise<void>;
}

const LISTENING = /Engram listening on http:\/\/localhost:(\d+)\/graphql/;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_ENTRY = 'dist/server.js';

/** What `npm start`'s prestart does: compiles src/ into dist/ unless dist/ is up to date. */
export function buildServer(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'ignore' });
}

export async function startWorkers(workers: number, env: Record<string, string>): Promise<ClusterServer> {
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
    cwd: ROOT,
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
    child.once('exit', (code) => reject(new Error(`${SERVER_ENTRY} exited with code ${code} before listening`)));
  });
  const pid = child.pid as number;
  const serving = () => (workers === 1 ? [pid] : childrenOf(pid));
  return {
    url: `http://127.0.0.1:${port}`,
    pids: () => (workers === 1 ? [pid] : [pid, ...childrenOf(pid)]),
    rss: () => serving().map(residentBytes),
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

/** The cluster's workers: the primary's children that run the server. */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(SERVER_ENTRY));
}

function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

export interface WorkerScaling {
  /** One row per worker count, the first with 1 worker: neighbors(limit 20) throughput on the real server. */
  rows: {
    workers: number;
    result: LoadResult;
    /** The single process's rounds measured around this count's (the first row's own result). */
    single: LoadResult;
    rssBytes: number[];
  }[];
  /** Each count's throughput over workers x the single process's (its paired rounds). */
  efficiency: number[];
}

/**
 * The same load (neighbors(limit 20), `connections` connections) on the compiled server with 1
 * worker (the single process) and with each larger count. The single process stays up beside each
 * larger server, and the two are measured in the order 1, N, N, 1 (each row is the mean of its two
 * rounds), so a drift in the machine's load over the run weighs on both sides alike. The load
 * generator shares the machine's cores with the server: the CPU both spend per request (in the
 * table) says how much of the cores the client leaves.
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
  buildServer();
  const ready = async (workers: number) => {
    const server = await startWorkers(workers, spec.env);
    await probe(server.url, spec.headers, spec.body());
    await settle({ ...spec, url: server.url }, spec.indexBuildMs * workers);
    return server;
  };
  const measure = (server: ClusterServer) => load({ ...spec, url: server.url, serverPids: server.pids });
  const single = await ready(1);
  const singleRounds: LoadResult[] = [];
  const rows: WorkerScaling['rows'] = [];
  try {
    for (const workers of spec.counts.filter((count) => count > 1)) {
      const server = await ready(workers);
      try {
        const first = await measure(single);
        const rounds = [await measure(server), await measure(server)];
        const last = await measure(single);
        singleRounds.push(first, last);
        rows.push({ workers, result: meanOf(rounds), single: meanOf([first, last]), rssBytes: server.rss() });
      } finally {
        await server.stop();
      }
    }
    if (singleRounds.length === 0) singleRounds.push(await measure(single));
    const all = meanOf(singleRounds);
    rows.unshift({ workers: 1, result: all, single: all, rssBytes: single.rss() });
  } finally {
    await single.stop();
  }
  return { rows, efficiency: rows.map((row) => row.result.rps / (row.workers * row.single.rps)) };
}

/** Rounds of the same load as one: throughput and latency quantiles averaged, requests and CPU summed. */
function meanOf(rounds: LoadResult[]): LoadResult {
  const [first] = rounds;
  if (!first) throw new Error('no rounds to average');
  const sum = (pick: (round: LoadResult) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  const mean = (pick: (round: LoadResult) => number) => sum(pick) / rounds.length;
  return {
    connections: first.connections,
    seconds: sum((round) => round.seconds),
    requests: sum((round) => round.requests),
    rps: mean((round) => round.rps),
    p50: mean((round) => round.p50),
    p95: mean((round) => round.p95),
    p99: mean((round) => round.p99),
    non2xx: sum((round) => round.non2xx),
    errors: sum((round) => round.errors),
    clientCpuMs: sum((round) => round.clientCpuMs),
    serverCpuMs: sum((round) => round.serverCpuMs ?? Number.NaN),
  };
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
    '| workers (dist/server.js) | conn | p50 ms | req/s | x single | per worker vs single | server CPU µs/req | client CPU µs/req | k = client / server | cores busy | RSS per worker MB | failed |';
  const rows = scaling.rows.map((row, i) => {
    const { result } = row;
    const cpu = cpuPerRequest(result);
    const rss = row.rssBytes.map((bytes) => Math.round(bytes / 1024 ** 2)).join(' / ');
    const busy = (result.rps * (cpu.serverUs + cpu.clientUs)) / 1e6;
    return `| ${row.workers} | ${result.connections} | ${result.p50.toFixed(2)} | ${Math.round(result.rps)} | ${(result.rps / row.single.rps).toFixed(2)} | ${(scaling.efficiency[i] ?? Number.NaN).toFixed(2)} | ${Math.round(cpu.serverUs)} | ${Math.round(cpu.clientUs)} | ${cpu.k.toFixed(2)} | ${busy.toFixed(2)} | ${rss} | ${result.non2xx + result.errors} |`;
  });
  return [header, '|---|---|---|---|---|---|---|---|---|---|---|---|', ...rows, '', cpuModel(scaling)].join('\n');
}

/** CPU per request of a run, µs, and k: what the client spends per request over what the server spends. */
export function cpuPerRequest(result: LoadResult): { serverUs: number; clientUs: number; k: number } {
  const serverUs = ((result.serverCpuMs ?? Number.NaN) * 1000) / result.requests;
  const clientUs = (result.clientCpuMs * 1000) / result.requests;
  return { serverUs, clientUs, k: clientUs / serverUs };
}

/**
 * The ratio the CPU figures allow, on paper: one process saturates its core (1/s requests per
 * second, the client on a spare core); N workers on N cores shared with the client reach N/(s + c).
 * So N workers give N x s1 / (sN + cN) of one, whatever N: N / (1 + k) when a worker costs what
 * the single process does. 4 and 8 workers need as many cores; on fewer this is their projection.
 */
function cpuModel(scaling: WorkerScaling): string {
  const last = scaling.rows[scaling.rows.length - 1];
  if (!last || last.workers === 1) return '';
  const one = cpuPerRequest(last.single);
  const many = cpuPerRequest(last.result);
  const perWorker = one.serverUs / (many.serverUs + many.clientUs);
  const projected = [2, 4, 8].map((n) => `${n} -> ${(n * perWorker).toFixed(2)}x`).join(', ');
  return `CPU model (N workers, each on its own core, sharing the cores with the client): N x ${Math.round(one.serverUs)} / (${Math.round(many.serverUs)} + ${Math.round(many.clientUs)}) µs = ${perWorker.toFixed(2)} per worker: ${projected}`;
}

/** Issue 16's target: N workers serve at least 0.85 x N x the single process's throughput. */
export const WORKER_EFFICIENCY_TARGET = 0.85;

export function workerScalingTargets(scaling: WorkerScaling): TargetRow[] {
  return scaling.rows.slice(1).map((row, i) => {
    const goal = WORKER_EFFICIENCY_TARGET * row.workers;
    return {
      target: `HTTP neighbors(limit 20) with ${row.workers} workers`,
      measured: `${Math.round(row.result.rps)} req/s`,
      reference: `1 worker ${Math.round(row.single.rps)} req/s (rounds 1, ${row.workers}, ${row.workers}, 1)`,
      ratio: row.result.rps / row.single.rps,
      goal: `>= ${goal.toFixed(2)}x (${WORKER_EFFICIENCY_TARGET} x ${row.workers})`,
      met: (scaling.efficiency[i + 1] ?? 0) >= WORKER_EFFICIENCY_TARGET,
    };
  });
}
