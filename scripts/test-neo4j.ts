/**
 * `npm run test:neo4j`: the live suite against a real Neo4j 5 Community server.
 *
 * 1. builds the test server (test/neo4j-server, `mvn -q package`; Maven's cache makes reruns fast),
 * 2. starts it on a free port of 127.0.0.1 with a fresh password, in a temporary directory,
 * 3. runs the whole shared contract suite, the live-only tests (test/neo4j/) and the end-to-end
 *    API subset with the app on Neo4j (ENGRAM_TEST_STORE=neo4j), in one vitest run,
 * 4. prints the counts and the Neo4j version, and fails when a test failed OR was skipped,
 * 5. stops the server, also when a step failed or the run was interrupted.
 *
 * `npm run test:neo4j -- --serve [--port 7687]` builds and starts the server only, prints the
 * environment to point Engram at it, and keeps it until Ctrl-C (for `ENGRAM_STORE=neo4j npm start`
 * and `npm run bench`). Extra arguments otherwise go to vitest (e.g. a file filter).
 * Needs Java 17+ and Maven 3.8+ (plain `npm test` needs neither).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launchNeo4jTestServer, TEST_SERVER_MODULE, TEST_SERVER_TARGET } from './neo4j-test-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODULE = TEST_SERVER_MODULE;
const TARGET = TEST_SERVER_TARGET;
const SERVER_LOG = join(TARGET, 'neo4j-test-server.log');
const RESULTS = join(TARGET, 'live-results.json');
/** Written after a successful build: Maven leaves unchanged outputs (classpath.txt) with their old times. */
const BUILT = join(TARGET, 'built.stamp');
const START_TIMEOUT_MS = 180_000;

/** What runs against the server: every test that reads NEO4J_URI or ENGRAM_TEST_STORE. */
const LIVE_TESTS = [
  'test/contract/neo4j.contract.test.ts',
  'test/neo4j/',
  // The end-to-end subset: API tests that observe the app only through GraphQL and the port
  // (not by reading the SQLite file), run with the app's store on Neo4j.
  'test/api/batching.test.ts',
  'test/api/history-pages.test.ts',
  'test/api/http.test.ts',
  'test/api/neighbors-connection.test.ts',
  'test/store/neighbor-pages-hub.test.ts',
  'test/api/research-views/',
  'test/api/search.test.ts',
  'test/api/walks/',
  'test/api/recall/recall.test.ts',
  'test/api/recall/bounds.test.ts',
  'test/api/recall/associations.test.ts',
  'test/api/vectors/hybrid-recall.test.ts',
  'test/api/vectors/vectors.test.ts',
  'test/mcp/executor.test.ts',
  'test/mcp/http.test.ts',
];

const log = (line: string) => process.stdout.write(`[test:neo4j] ${line}\n`);

function fail(message: string): never {
  process.stderr.write(`[test:neo4j] ${message}\n`);
  process.exit(1);
}

function requireTool(command: string, args: string[], what: string): void {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    fail(
      `${what} is needed for the live Neo4j suite (\`${command} ${args.join(' ')}\` failed). Plain \`npm test\` needs neither.`,
    );
}

/** The build's outputs are newer than its inputs (pom and the one class): Maven need not run. */
function upToDate(): boolean {
  const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : Number.NaN);
  const inputs = [join(MODULE, 'pom.xml'), join(MODULE, 'src/main/java/engram/testserver/Neo4jTestServer.java')].map(
    mtime,
  );
  const built = mtime(BUILT);
  return existsSync(join(TARGET, 'classpath.txt')) && inputs.every((input) => built > input);
}

function build(): void {
  requireTool('java', ['-version'], 'Java 17 or newer');
  if (upToDate()) {
    log('test server up to date (delete test/neo4j-server/target to rebuild)');
    return;
  }
  requireTool('mvn', ['-v'], 'Maven 3.8 or newer');
  const started = Date.now();
  const result = spawnSync('mvn', ['-q', '-B', '-f', join(MODULE, 'pom.xml'), 'package'], { stdio: 'inherit' });
  if (result.status !== 0)
    fail(`building the test server failed (mvn -q -B -f test/neo4j-server/pom.xml package, exit ${result.status})`);
  writeFileSync(BUILT, `${new Date().toISOString()}\n`);
  log(`test server built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

interface RunningServer {
  uri: string;
  password: string;
  version: string;
  edition: string;
  stop(): Promise<void>;
}

/** A tmpfs for the throw-away store when there is one: commits then cost no disk flush. NEO4J_TEST_DATA_DIR overrides. */
function dataParent(): string | null {
  const wanted = process.env.NEO4J_TEST_DATA_DIR ?? '/dev/shm';
  try {
    accessSync(wanted, constants.W_OK);
    return statSync(wanted).isDirectory() ? wanted : null;
  } catch {
    return null;
  }
}

async function startServer(port: number): Promise<RunningServer> {
  mkdirSync(TARGET, { recursive: true });
  const parent = dataParent();
  const password = randomBytes(18).toString('base64url');
  const started = Date.now();
  writeFileSync(SERVER_LOG, '');
  const server = await launchNeo4jTestServer({
    port,
    password,
    parent,
    logPath: SERVER_LOG,
    timeoutMs: START_TIMEOUT_MS,
    onLine: (line) => process.stdout.write(`[neo4j] ${line}\n`),
  }).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
  const { version, edition } = server;
  log(
    `Neo4j ${version} ${edition} ready on bolt://127.0.0.1:${port} in ${((Date.now() - started) / 1000).toFixed(1)} s (data under ${parent ?? 'the system temp directory'})`,
  );
  return { uri: server.uri, password, version, edition, stop: server.stop };
}

interface VitestJson {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

async function runVitest(
  server: RunningServer,
  extra: string[],
): Promise<{ code: number; results: VitestJson | null }> {
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [
    vitest,
    'run',
    ...(extra.length > 0 ? extra : LIVE_TESTS),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${RESULTS}`,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NEO4J_URI: server.uri,
      NEO4J_USER: 'neo4j',
      NEO4J_PASSWORD: server.password,
      ENGRAM_TEST_STORE: 'neo4j',
    },
  });
  const code = await new Promise<number>((done) => child.once('exit', (exitCode) => done(exitCode ?? 1)));
  const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as VitestJson) : null;
  return { code, results };
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const [value] = args.splice(index, 2).slice(1);
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const serve = args.includes('--serve');
  if (serve) args.splice(args.indexOf('--serve'), 1);
  const fixedPort = option(args, '--port');
  const started = Date.now();

  build();
  const server = await startServer(fixedPort ? Number(fixedPort) : await freePort());
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(130));
  process.once('SIGTERM', () => void shutdown(143));

  if (serve) {
    log('serving until Ctrl-C; point Engram at it with:');
    process.stdout.write(
      `export ENGRAM_STORE=neo4j NEO4J_URI=${server.uri} NEO4J_USER=neo4j NEO4J_PASSWORD=${server.password}\n`,
    );
    return;
  }

  let code = 1;
  try {
    const { code: vitestCode, results } = await runVitest(server, args);
    code = vitestCode;
    if (!results) {
      log('no results file from vitest');
      code = 1;
    } else {
      const skipped = results.numPendingTests + results.numTodoTests;
      log(
        `live suite against Neo4j ${server.version} ${server.edition}: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped (of ${results.numTotalTests})`,
      );
      if (skipped > 0) {
        log('FAILED: a live test was skipped; the live suite must run every test against the server');
        code = 1;
      }
      if (results.numTotalTests === 0) code = 1;
    }
  } finally {
    await server.stop();
  }
  log(
    `${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s (server log: ${SERVER_LOG})`,
  );
  process.exit(code);
}

await main();
