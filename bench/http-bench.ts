import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ClientRun, LoadClientMessage, LoadClientTask } from './load-client.js';

/** The HTTP rows' queries: a shortest path between two memories, and one memory's neighbours. */
export const PATH =
  'query Path($from: ID!, $to: ID!) { path(from: $from, to: $to, maxHops: 6) { found hops steps { memory { id title } } } }';
export const NEIGHBORS = 'query Neighbors($id: ID!) { memory(id: $id) { neighbors(limit: 20) { memory { title } } } }';

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

/** The client's figures for one load, with its CPU under a clearer name and the server's beside it. */
export interface LoadResult extends Omit<ClientRun, 'cpuMs'> {
  connections: number;
  seconds: number;
  /** CPU the load generator spent in the measured run, ms (its own process: load-client.ts). */
  clientCpuMs: number;
  /** CPU the server's processes spent in the measured run, ms, when their pids were given. */
  serverCpuMs?: number;
}

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** The request bodies (e.g. a random pair of memories each): called BODY_POOL times before the load. */
  body: () => string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** The processes serving the load, to measure the server's CPU in the measured run. */
  serverPids?: () => number[];
}

/** Bodies in the client's pool: requests cycle through it, so each costs the client no serializing. */
const BODY_POOL = 256;

/**
 * One autocannon run in a child process (load-client.ts), after a warm-up run whose numbers are
 * dropped. The client gets its own process so that the bench's heap (the generated graph) and its
 * collections stay out of the client's way, and its CPU is measured apart from the server's.
 */
export function load(spec: LoadSpec): Promise<LoadResult> {
  const task: LoadClientTask = {
    url: spec.url,
    headers: spec.headers,
    bodies: Array.from({ length: BODY_POOL }, spec.body),
    connections: spec.connections,
    seconds: spec.seconds,
    warmupSeconds: spec.warmupSeconds,
  };
  const client = fork(fileURLToPath(new URL('./load-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let serverCpuAtStart: number | null = null;
  return new Promise((resolve, reject) => {
    client.on('message', (message: LoadClientMessage) => {
      if (message.kind === 'measuring') {
        if (spec.serverPids) serverCpuAtStart = cpuMsOf(spec.serverPids());
        return;
      }
      if (message.kind === 'failed') return reject(new Error(`load client: ${message.message}`));
      const { cpuMs, ...result } = message.result;
      resolve({
        connections: spec.connections,
        seconds: spec.seconds,
        ...result,
        clientCpuMs: cpuMs,
        ...(spec.serverPids && serverCpuAtStart !== null
          ? { serverCpuMs: cpuMsOf(spec.serverPids()) - serverCpuAtStart }
          : {}),
      });
    });
    client.once('exit', (code) => reject(new Error(`the load client exited with code ${code} before its result`)));
    client.send(task);
  });
}

/** Linux's clock ticks per second for /proc/<pid>/stat's CPU times (USER_HZ, 100 on every usual build). */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU of the processes so far (all their threads), ms, from /proc/<pid>/stat. */
function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
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
