import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, startStdio, type StdioSession } from './helpers.js';
import { SESSION_EDGES, SESSION_MEMORIES } from './research-session.js';

/**
 * What a call puts in an agent's context. Clients hand the model one channel, the text block or
 * the structured content, so each must fit on its own.
 */
async function outputChars(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: number; structured: number }> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} failed: ${result.text}`).toBe(false);
  return { text: result.text.length, structured: JSON.stringify(result.structured).length };
}

const DEFAULT_CALLS: [string, Record<string, unknown>][] = [
  ['memory_search', { query: 'latency' }],
  ['memory_related', { memory_id: 'h-cache' }],
  ['memory_traverse', { memory_id: 'q-latency' }],
  ['memory_context', { seeds: ['q-latency', 'h-cache'] }],
];

describe('output size on a research session (12 memories of ~3.4 KB, 19 relations)', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-detail-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'research' });
    client = session.client;
    for (const memory of SESSION_MEMORIES) await ok(client, 'memory_create', { ...memory });
    for (const edge of SESSION_EDGES)
      await ok(client, 'memory_link', {
        source_id: edge.source,
        target_id: edge.target,
        edge_type: edge.type,
        weight: edge.weight,
      });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps tools/list under 25,000 characters, with no 2^53 integer bounds', async () => {
    const listed = JSON.stringify((await client.listTools()).tools);
    if (process.env.SHOW_SIZES) console.error('tools/list', listed.length);
    if (process.env.SHOW_SIZES) (await import('node:fs')).writeFileSync('/tmp/agent2-tools.json', listed);
    expect(listed.includes('9007199254740991'), 'a 2^53 integer bound in a schema').toBe(false);
    expect(listed.length).toBeLessThanOrEqual(25_000);
  });

  it.each(DEFAULT_CALLS)('keeps %s under 4,000 characters at the default detail', async (name, args) => {
    const chars = await outputChars(client, name, args);
    if (process.env.SHOW_SIZES) console.error(name, chars);
    expect(chars.text).toBeLessThan(4_000);
    expect(chars.structured).toBeLessThan(4_000);
  });
});
