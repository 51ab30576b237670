import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngramServer, ServerPool } from '../helpers/process.js';
import { SERVER_ENTRY } from '../helpers/server-entry.js';

/** A real primary with two real workers (src/cluster/), over a fresh SQLite file. */
export function startTwoWorkers(pool: ServerPool, env: Record<string, string> = {}): Promise<EngramServer> {
  return pool.start({
    dbPath: `${pool.tempDir()}/engram.db`,
    env: { ENGRAM_WORKERS: '2', ...env },
    startTimeoutMs: 90_000,
  });
}

export interface Answer {
  status: number;
  /** The worker that answered (x-engram-worker), or null when the request got no answer. */
  worker: string | null;
  body: string;
  networkError?: string;
}

/**
 * One request on its own connection: node:cluster hands out connections, not requests, so only
 * fresh connections spread over the workers.
 */
export function send(
  server: EngramServer,
  options: { path?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: options.path ?? '/graphql',
        method: options.body === undefined ? 'GET' : 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'x-engram-workspace': 'default', ...options.headers },
        timeout: options.timeoutMs ?? 30_000,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            worker: String(response.headers['x-engram-worker'] ?? ''),
            body,
          }),
        );
        response.on('error', (error) => resolve({ status: 0, worker: null, body, networkError: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) =>
      resolve({
        status: 0,
        worker: null,
        body: '',
        networkError: (error as NodeJS.ErrnoException).code ?? error.message,
      }),
    );
    req.end(options.body);
  });
}

export const operation = (query: string, workspace = 'default') => ({
  body: JSON.stringify({ query }),
  headers: { 'x-engram-workspace': workspace },
});

/** The primary's worker processes: its children running the server (not helpers such as an esbuild child). */
export function workerPids(primaryPid: number): number[] {
  let children: string;
  try {
    children = execFileSync('pgrep', ['-P', String(primaryPid)], { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when there is none
  }
  return children
    .split('\n')
    .filter((line) => line !== '')
    .map(Number)
    .filter((pid) => commandLine(pid).includes(SERVER_ENTRY.join('\0')));
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return ''; // gone meanwhile
  }
}

/** Polls until `check` is true or the time is up; returns the last result. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

/** A sample's value in Prometheus text, e.g. sample(text, 'graphql_envelop_request{operationName="Probe"'). */
export function sample(metrics: string, prefix: string): number | null {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}
