import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const TOOL_NAMES = [
  'memory_create',
  'memory_get',
  'memory_search',
  'memory_recall',
  'memory_update',
  'memory_delete',
  'memory_link',
  'memory_unlink',
  'memory_related',
  'memory_path',
  'memory_traverse',
  'memory_weaken',
  'memory_strengthen',
  'memory_feedback',
  'memory_evidence',
  'memory_contradictions',
  'memory_context',
  'memory_reinforce',
  'memory_history',
  'memory_revert',
  'memory_set_weight',
  'memory_write',
  'relation_types',
];

export interface StdioSession {
  client: Client;
  /** Everything the process wrote to stderr so far (its logs). */
  stderr(): string;
  /** Closes the client, which ends the process (stdin closes). */
  close(): Promise<void>;
}

/**
 * Starts the real `engram mcp` process (bin/engram.js, as `npx engram mcp` runs it) on the SQLite
 * file `dbPath`, in `workspace`, and connects an MCP client to it over stdio.
 */
export async function startStdio(options: {
  dbPath: string;
  workspace: string;
  env?: Record<string, string>;
  /** Extra arguments of `engram mcp`, e.g. ['--profile', 'server-memory']. */
  args?: string[];
  /** Another installation to run, by its folder and what node starts there (default: this checkout's `bin/engram.js mcp`). */
  from?: { cwd: string; entry: string[] };
}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.from?.entry ?? [join(ROOT, 'bin/engram.js'), 'mcp']), ...(options.args ?? [])],
    cwd: options.from?.cwd ?? ROOT,
    env: {
      ...getDefaultEnvironment(),
      ENGRAM_SQLITE_PATH: options.dbPath,
      ENGRAM_WORKSPACE: options.workspace,
      ENGRAM_LOG_LEVEL: 'info',
      ...options.env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'engram-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/**
 * One `engram mcp` process on a fresh SQLite file in a temporary folder, shared by the calling
 * describe block (its steps run in order, like an agent's session), closed and removed after it.
 */
export function useStdioSession(options: { workspace: string; env?: Record<string, string> }): {
  session: () => StdioSession;
  client: () => Client;
  dbPath: () => string;
} {
  let dir: string | undefined;
  let session: StdioSession | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-mcp-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: options.workspace, env: options.env });
  });
  afterAll(async () => {
    await session?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const current = (): StdioSession => {
    if (!session) throw new Error('useStdioSession: no session outside the describe block');
    return session;
  };
  return {
    session: current,
    client: () => current().client,
    dbPath: () => join(dir as string, 'engram.db'),
  };
}

export interface ToolCall {
  isError: boolean;
  text: string;
  structured: any;
}

/** Calls a tool and returns its text and structured content; protocol errors still throw. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
  return { isError: result.isError === true, text, structured: result.structuredContent };
}

/** Calls a tool that must succeed. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} failed: ${result.text}`).toBe(false);
  expect(result.text.length).toBeGreaterThan(0);
  return result.structured;
}

/** Calls a tool that must fail with the given GraphQL error code. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<ToolCall> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} should have failed: ${result.text}`).toBe(true);
  expect(result.structured?.error?.code).toBe(code);
  expect(result.text).toMatch(new RegExp(`^${code}: `));
  return result;
}
