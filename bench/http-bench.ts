import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { quantile } from './lib/stats.js';

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
