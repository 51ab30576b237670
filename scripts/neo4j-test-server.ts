/**
 * Starts the live suite's Neo4j test server (test/neo4j-server, built by `npm run test:neo4j`):
 * shared by that script and by the fault tests, which kill it and start it again on the same store
 * directory and port (test/neo4j/faults.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const TEST_SERVER_MODULE = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'test', 'neo4j-server');
export const TEST_SERVER_TARGET = join(TEST_SERVER_MODULE, 'target');
const READY = 'NEO4J_TEST_SERVER_READY';

export interface LaunchOptions {
  port: number;
  /** The neo4j user's password, at least 8 characters. */
  password: string;
  /** Where the server writes its stderr. */
  logPath: string;
  /** A parent directory for a throw-away store (a tmpfs, say); ignored with `home`. */
  parent?: string | null;
  /** A store directory kept across restarts. */
  home?: string;
  timeoutMs?: number;
  /** Lines of stdout other than the ready line. */
  onLine?: (line: string) => void;
}

export interface LaunchedServer {
  uri: string;
  version: string;
  edition: string;
  child: ChildProcess;
  /** SIGTERM (the server shuts down cleanly), SIGKILL after 30 s. */
  stop(): Promise<void>;
  /** Sends `signal` and, unless it only pauses or resumes the process, waits for the exit. */
  signal(signal: NodeJS.Signals): Promise<void>;
}

/** A port of 127.0.0.1 nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function tailOf(file: string, lines = 40): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no log)';
}

/** Resolves once Bolt accepts connections; rejects, with the log's last lines, when the server does not start. */
export async function launchNeo4jTestServer(options: LaunchOptions): Promise<LaunchedServer> {
  const classpath = `${join(TEST_SERVER_TARGET, 'classes')}:${readFileSync(join(TEST_SERVER_TARGET, 'classpath.txt'), 'utf8').trim()}`;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const child = spawn(
    'java',
    [
      '-Xms512m',
      '-Xmx2g',
      '-XX:+UseG1GC',
      '-XX:+ExitOnOutOfMemoryError',
      '-cp',
      classpath,
      'engram.testserver.Neo4jTestServer',
      String(options.port),
      ...(options.parent && !options.home ? [options.parent] : []),
    ],
    // stdin stays a pipe owned by this process: when it ends (we exit or crash), the server stops.
    {
      env: { ...process.env, NEO4J_TEST_PASSWORD: options.password, NEO4J_TEST_HOME: options.home ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stderr?.pipe(createWriteStream(options.logPath, { flags: 'a' }));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;

  const stop = async (): Promise<void> => {
    if (gone()) return;
    child.stdin?.end();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (gone()) return;
    child.kill(name);
    if (name !== 'SIGSTOP' && name !== 'SIGCONT') await exited;
  };

  const ready = await new Promise<string | null>((done) => {
    const timer = setTimeout(() => done(null), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith(READY)) {
        clearTimeout(timer);
        done(line);
      } else options.onLine?.(line);
    });
    void exited.then(() => {
      clearTimeout(timer);
      done(null);
    });
  });
  if (!ready) {
    await stop();
    throw new Error(
      `the Neo4j test server did not start within ${timeoutMs / 1000} s; last lines of ${options.logPath}:\n${tailOf(options.logPath)}`,
    );
  }
  return {
    uri: `neo4j://127.0.0.1:${options.port}`,
    version: /version=(\S+)/.exec(ready)?.[1] ?? 'unknown',
    edition: /edition=(\S+)/.exec(ready)?.[1] ?? 'unknown',
    child,
    stop,
    signal,
  };
}
