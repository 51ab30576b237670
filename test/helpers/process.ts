import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphQLResponse } from './app.js';
import { SERVER_ENTRY } from './server-entry.js';

/** Repository root: the child runs the server (SERVER_ENTRY) from here. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The one line the server prints on stdout once it listens. */
const LISTENING = /Engram listening on http:\/\/localhost:(\d+)\/graphql/;

export interface HttpGraphQLResponse<T = Record<string, any>> extends GraphQLResponse<T> {
  /** Set when the request never got an HTTP answer (connection refused/reset, timeout). */
  networkError?: string;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EngramServer {
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port>/graphql */
  readonly url: string;
  readonly dbPath: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited, however it ended. */
  readonly exited: Promise<ServerExit>;
  /** Everything the process wrote to stderr so far (pino logs, crashes). */
  stderr(): string;
  /** POSTs one operation over a real socket. Never rejects: network failures come back as `networkError`. */
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { workspace?: string; timeoutMs?: number },
  ): Promise<HttpGraphQLResponse<T>>;
  /** Sends a signal (SIGKILL by default) and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<ServerExit>;
}

export interface ServerPool {
  /** Starts the server on a free port (PORT=0, HOST=127.0.0.1) over the given SQLite file. */
  start(options: { dbPath: string; env?: Record<string, string>; startTimeoutMs?: number }): Promise<EngramServer>;
  /** SIGKILLs every server of this pool still alive and waits for each to exit. Safe to call twice. */
  stopAll(): Promise<void>;
  /** A fresh temp folder, removed by `cleanup()`. */
  tempDir(): string;
  /** stopAll, then removes every temp folder of this pool. For afterEach/afterAll. */
  cleanup(): Promise<void>;
}

const exitOf = (child: ChildProcess): Promise<ServerExit> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

/**
 * One POST on its own TCP connection (no keep-alive agent): a pooled connection that the server
 * closes as idle just as a request is written to it fails with ECONNRESET under load, which would
 * read as a lost write here. Never rejects: failures come back as `networkError`.
 */
function post(
  port: number,
  body: string,
  options: { workspace?: string; timeoutMs?: number },
): Promise<HttpGraphQLResponse<any>> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(options.workspace ? { 'x-engram-workspace': options.workspace } : {}),
        },
        timeout: options.timeoutMs ?? 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', (error) =>
          resolve({ status: 0, networkError: (error as NodeJS.ErrnoException).code ?? error.message }),
        );
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, ...(JSON.parse(text) as Omit<GraphQLResponse, 'status'>) });
          } catch {
            // A body cut short by the process dying is not an answer.
            resolve({
              status: 0,
              networkError: `HTTP ${response.statusCode} with an unparsable body (${text.length} bytes)`,
            });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'TIMEOUT' })));
    req.on('error', (error) =>
      resolve({ status: 0, networkError: (error as NodeJS.ErrnoException).code ?? error.message }),
    );
    req.end(body);
  });
}

/**
 * Starts real Engram server processes for tests and guarantees they die: `cleanup()` in
 * afterEach/afterAll kills what is left, and a process 'exit' hook kills anything a crashed test
 * run forgot, so no server outlives the test worker.
 */
export function createServerPool(): ServerPool {
  const live = new Set<ChildProcess>();
  const dirs: string[] = [];
  const killLeftovers = () => {
    for (const child of live) child.kill('SIGKILL');
  };
  process.once('exit', killLeftovers);

  async function start(options: {
    dbPath: string;
    env?: Record<string, string>;
    startTimeoutMs?: number;
  }): Promise<EngramServer> {
    const child = spawn(process.execPath, SERVER_ENTRY, {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        ENGRAM_STORE: 'sqlite',
        ENGRAM_SQLITE_PATH: options.dbPath,
        ENGRAM_LOG_LEVEL: 'warn',
        ENGRAM_GRAPHIQL: 'false',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    const exited = exitOf(child).then((exit) => {
      live.delete(child);
      return exit;
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

    // Start-up takes ~1.5 s idle, far more on a loaded 2-core box.
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not print its listening line within ${timeoutMs} ms`), timeoutMs);
      const onData = () => {
        const match = LISTENING.exec(stdout);
        if (!match) return;
        done();
        resolve(Number(match[1]));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        fail(`exited before listening (code ${code}, signal ${signal})`);
      const done = () => {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
      };
      const fail = (why: string) => {
        done();
        child.kill('SIGKILL');
        reject(new Error(`Engram server (pid ${child.pid}) ${why}.\nstdout: ${stdout}\nstderr: ${stderr}`));
      };
      child.stdout?.on('data', onData);
      child.once('exit', onExit);
    });
    const url = `http://127.0.0.1:${port}/graphql`;

    return {
      pid: child.pid as number,
      port,
      url,
      dbPath: options.dbPath,
      child,
      exited,
      stderr: () => stderr,
      gql(query, variables, requestOptions = {}) {
        return post(port, JSON.stringify({ query, variables }), requestOptions);
      },
      async kill(signal: NodeJS.Signals = 'SIGKILL') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
    };
  }

  async function stopAll(): Promise<void> {
    await Promise.all(
      [...live].map((child) => {
        const exit = exitOf(child);
        child.kill('SIGKILL');
        return exit;
      }),
    );
  }

  return {
    start,
    stopAll,
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), 'engram-proc-'));
      dirs.push(dir);
      return dir;
    },
    async cleanup() {
      await stopAll();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when a response is an acknowledged success: HTTP 200, data present, no errors. */
export function acknowledged(response: HttpGraphQLResponse | GraphQLResponse): boolean {
  return (
    response.status === 200 && response.data != null && (response.errors === undefined || response.errors.length === 0)
  );
}

/** The error codes in a response (UNAVAILABLE, CONFLICT ...), or the network error. */
export function failureOf(response: HttpGraphQLResponse): string[] {
  if (response.networkError) return [`network:${response.networkError}`];
  return (response.errors ?? []).map((error) => String(error.extensions?.code ?? error.message));
}

/**
 * Starts the server expecting it to stop on its own (a start-up mistake): resolves with how it
 * exited and what it wrote. Killed after `timeoutMs` if it is still running.
 */
export async function runToExit(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerExit & { stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVER_ENTRY, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', ENGRAM_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exitOf(child);
  clearTimeout(timer);
  return { ...exit, stdout, stderr };
}
