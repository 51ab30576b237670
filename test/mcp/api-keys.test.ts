import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, type StdioSession, startStdio } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
function withoutMcpKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ENGRAM_MCP_API_KEY: _ignored, ...rest } = env;
  return rest;
}

const KEYS = 'agent-key-0123456789=team-a:write,reader-key-0123456789=team-b:read';

describe('engram mcp with API keys configured', () => {
  let dir: string;
  let dbPath: string;
  let session: StdioSession | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-mcp-keys-'));
    dbPath = join(dir, 'engram.db');
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes into the workspace of ENGRAM_MCP_API_KEY's key, whatever ENGRAM_WORKSPACE says", async () => {
    session = await startStdio({
      dbPath,
      workspace: 'default',
      env: { ENGRAM_API_KEYS: KEYS, ENGRAM_MCP_API_KEY: 'agent-key-0123456789' },
    });
    const created = await call(session.client, 'memory_create', { title: 'Keys decide the workspace', key: 'keyed' });
    expect(created.isError).toBe(false);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT workspace FROM memories WHERE key = ?').all('keyed')).toEqual([
        { workspace: 'team-a' },
      ]);
    } finally {
      db.close();
    }
  });

  it('answers FORBIDDEN to writes when the key is read-only, and writes nothing', async () => {
    session = await startStdio({
      dbPath,
      workspace: 'default',
      env: { ENGRAM_API_KEYS: KEYS, ENGRAM_MCP_API_KEY: 'reader-key-0123456789' },
    });
    const created = await call(session.client, 'memory_create', { title: 'Not allowed' });
    expect(created.isError).toBe(true);
    expect(created.text).toMatch(/FORBIDDEN/);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM memories').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('refuses to start without ENGRAM_MCP_API_KEY, naming the variable', async () => {
    const run = promisify(execFile)(process.execPath, [join(ROOT, 'bin/engram.js'), 'mcp'], {
      cwd: ROOT,
      env: { ...withoutMcpKey(process.env), ENGRAM_SQLITE_PATH: dbPath, ENGRAM_API_KEYS: KEYS },
      timeout: 20_000,
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('ENGRAM_MCP_API_KEY: API keys are configured'),
    });
  });
});
