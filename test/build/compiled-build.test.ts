import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startStdio } from '../mcp/helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const LISTENING = /Engram listening on http:\/\/localhost:(\d+)\/graphql/;

/**
 * The build is made into a temporary folder laid out like the Docker image (package.json,
 * schema/, bin/, node_modules, dist/, web/dist, and no src/), so these tests prove that the
 * compiled files run without the sources or tsx, and never touch the checkout's own dist/ that
 * other test files' processes may be running.
 */
let app: string;

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'engram-build-'));
  await run(process.execPath, [
    join(ROOT, 'scripts/build.mjs'),
    '--out-dir',
    join(app, 'dist'),
    '--explorer-out-dir',
    join(app, 'web/dist'),
  ]);
  for (const path of ['package.json', 'schema', 'bin']) cpSync(join(ROOT, path), join(app, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
  mkdirSync(join(app, 'data'));
}, 60_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('npm run build', () => {
  it('writes the three entry points, the build record and the explorer page', () => {
    for (const file of ['dist/server.js', 'dist/cli/main.js', 'dist/mcp/stdio.js', 'web/dist/index.html']) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    const record = JSON.parse(readFileSync(join(app, 'dist/build-info.json'), 'utf8'));
    expect(record.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records the fingerprint of the sources as they are, which --if-stale compares', async () => {
    const { fingerprintSources, isBuildCurrent } = await import('../../scripts/build.mjs');
    const record = JSON.parse(readFileSync(join(app, 'dist/build-info.json'), 'utf8'));
    expect(record.fingerprint).toBe(fingerprintSources());
    expect(await isBuildCurrent({ outDir: join(app, 'dist'), explorerOutDir: join(app, 'web/dist') })).toBe(true);
  });
});

describe('node dist/server.js', () => {
  let server: ChildProcess;
  let base: string;

  beforeAll(async () => {
    server = spawn(process.execPath, ['dist/server.js'], {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        ENGRAM_SQLITE_PATH: join(app, 'data/engram.db'),
        ENGRAM_EXPLORER: 'true',
        ENGRAM_GRAPHIQL: 'true',
        ENGRAM_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    server.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const port = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      server.stdout?.on('data', (chunk) => {
        stdout += chunk;
        const match = LISTENING.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${stderr}`)));
    });
    base = `http://127.0.0.1:${port}`;
  }, 30_000);

  afterAll(async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

  it('answers /health and /ready', async () => {
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
  });

  it('stores and reads a memory through GraphQL on the SQLite file it was given', async () => {
    const gql = async (query: string) => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engram-workspace': 'build-test' },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as { data?: any; errors?: unknown[] };
    };
    const created = await gql('mutation { createMemory(input: { title: "compiled", content: "runs" }) { id title } }');
    expect(created.errors).toBeUndefined();
    const id = created.data.createMemory.id;
    const read = await gql(`{ memory(id: "${id}") { title content } }`);
    expect(read.data).toEqual({ memory: { title: 'compiled', content: 'runs' } });
    expect(read.errors).toBeUndefined();
    expect(existsSync(join(app, 'data/engram.db'))).toBe(true);
  });

  it('serves the explorer page built beside it', async () => {
    const page = await fetch(`${base}/explore`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('serves GraphiQL to a browser, from the module the bundle leaves in node_modules', async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('GraphiQL');
  });
});

describe('the MCP server from the build', () => {
  it.each([
    ['node dist/mcp/stdio.js', ['dist/mcp/stdio.js']],
    ['engram mcp', ['bin/engram.js', 'mcp']],
  ])(
    '%s lists the tools and answers a call',
    async (_label, entry) => {
      const session = await startStdio({
        dbPath: join(app, 'data/mcp.db'),
        workspace: 'build-test',
        from: { cwd: app, entry },
      });
      try {
        const { tools } = await session.client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory_create', 'memory_recall']));
        await ok(session.client, 'memory_create', { title: `from ${entry[0]}` });
      } finally {
        await session.close();
      }
    },
    30_000,
  );
});

describe('engram import and export (bin/engram.js without sources)', () => {
  it('parses the file in the bundled worker and writes what it read', async () => {
    // A memory's line as export writes it, every field present, so the file reads back as it went in.
    const line = (id: string, title: string) =>
      JSON.stringify({
        record: 'memory',
        id,
        key: null,
        title,
        content: null,
        kind: null,
        tags: [],
        weight: 0.5,
        metadata: null,
      });
    const lines = [line('a', 'first'), line('b', 'second')];
    writeFileSync(join(app, 'data/in.ndjson'), `${lines.join('\n')}\n`);
    const env = { ...process.env, ENGRAM_SQLITE_PATH: join(app, 'data/cli.db'), ENGRAM_LOG_LEVEL: 'warn' };
    const cli = (...args: string[]) => run(process.execPath, [join(app, 'bin/engram.js'), ...args], { cwd: app, env });
    const imported = await cli('import', 'data/in.ndjson', '--workspace', 'w');
    expect(imported.stderr).toMatch(/Imported 2 memories and 0 edges/);
    const exported = await cli('export', '--workspace', 'w');
    expect(exported.stdout.trimEnd().split('\n').sort()).toEqual(lines.sort());
  }, 30_000);
});

describe('engram --help (bin/engram.js without sources)', () => {
  it('runs the compiled CLI and lists every command on one line each', async () => {
    const { stdout } = await run(process.execPath, [join(app, 'bin/engram.js'), '--help'], { cwd: app });
    for (const command of ['serve', 'mcp', 'import', 'export'])
      expect(stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });

  it('exits 2 on an unknown command, with the usage on stderr', async () => {
    const failure = await run(process.execPath, [join(app, 'bin/engram.js'), 'frobnicate'], { cwd: app }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "frobnicate"') });
  });
});

describe('the build record', () => {
  it('goes stale when a source changes', async () => {
    const { isBuildCurrent } = await import('../../scripts/build.mjs');
    const copy = mkdtempSync(join(tmpdir(), 'engram-stale-'));
    try {
      for (const path of ['src', 'web', 'schema', 'scripts', 'tsconfig.json', 'package-lock.json']) {
        cpSync(join(ROOT, path), join(copy, path), { recursive: true, filter: (from) => !from.includes('/dist') });
      }
      cpSync(join(app, 'dist'), join(copy, 'dist'), { recursive: true });
      cpSync(join(app, 'web/dist'), join(copy, 'web/dist'), { recursive: true });
      expect(await isBuildCurrent({ root: copy })).toBe(true);
      writeFileSync(join(copy, 'src/config.ts'), `${readFileSync(join(copy, 'src/config.ts'), 'utf8')}\n// edited\n`);
      expect(await isBuildCurrent({ root: copy })).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
