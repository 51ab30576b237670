import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, type StdioSession } from './helpers.js';
import { startResearchSession } from './research-session.js';

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
  ['memory_recall', { query: 'latency' }],
];

describe('output size on a research session (12 memories of ~3.4 KB, 19 relations)', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;

  beforeAll(async () => {
    ({ dir, session } = await startResearchSession('engram-detail-'));
    client = session.client;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps tools/list under 25,600 characters, with no 2^53 integer bounds', async () => {
    const listed = JSON.stringify((await client.listTools()).tools);
    if (process.env.SHOW_SIZES) console.error('tools/list', listed.length);
    expect(listed.includes('9007199254740991'), 'a 2^53 integer bound in a schema').toBe(false);
    // 24,996 before issue 29; each of the four paged tools adds its cursor argument (25,436).
    expect(listed.length).toBeLessThanOrEqual(25_600);
  });

  it.each(DEFAULT_CALLS)('keeps %s under 4,000 characters at the default detail', async (name, args) => {
    const chars = await outputChars(client, name, args);
    if (process.env.SHOW_SIZES) console.error(name, chars);
    expect(chars.text).toBeLessThan(4_000);
    expect(chars.structured).toBeLessThan(4_000);
  });

  describe('current_only (h-gc-v2 SUPERSEDES h-gc)', () => {
    it("fills memory_search's limit from current memories (the search leaves superseded ones out, no filter after it)", async () => {
      const all = (await ok(client, 'memory_search', { query: 'GC pauses', limit: 100 })).results;
      const limit = all.findIndex((m: any) => m.key === 'h-gc') + 1;
      expect(limit).toBeGreaterThan(0);
      expect(all.length - 1).toBeGreaterThanOrEqual(limit);
      const current = await ok(client, 'memory_search', { query: 'GC pauses', current_only: true, limit });
      expect(current.results).toHaveLength(limit);
      expect(current.results.map((m: any) => m.key)).not.toContain('h-gc');
    });

    it('flags the superseded memory by default and leaves it out of search and related on request', async () => {
      const search = await ok(client, 'memory_search', { query: 'GC pauses' });
      expect(search.results.find((m: any) => m.key === 'h-gc')).toMatchObject({ superseded: true });
      expect(search.results.find((m: any) => m.key === 'h-gc-v2').superseded).toBeUndefined();
      const current = await ok(client, 'memory_search', { query: 'GC pauses', current_only: true });
      expect(current.results.map((m: any) => m.key)).toContain('h-gc-v2');
      expect(current.results.map((m: any) => m.key)).not.toContain('h-gc');

      const related = await ok(client, 'memory_related', { memory_id: 'q-latency', current_only: true });
      expect(related.neighbors.map((n: any) => n.memory.key)).not.toContain('h-gc');
      expect(related.neighbors).toHaveLength(3);
    });

    it('walks around superseded memories in traverse and path', async () => {
      const all = await ok(client, 'memory_traverse', { memory_id: 'q-latency' });
      expect(all.hits.map((hit: any) => hit.memory.key)).toContain('h-gc');
      const current = await ok(client, 'memory_traverse', { memory_id: 'q-latency', current_only: true });
      expect(current.hits.map((hit: any) => hit.memory.key)).not.toContain('h-gc');
      expect(current.hits.length).toBeLessThan(all.hits.length);

      expect((await ok(client, 'memory_path', { source_id: 'q-latency', target_id: 'e-gc-log' })).found).toBe(true);
      const around = await ok(client, 'memory_path', {
        source_id: 'q-latency',
        target_id: 'e-gc-log',
        current_only: true,
      });
      expect(around.found).toBe(false);
    });

    it('answers the newest version from memory_get', async () => {
      const old = await ok(client, 'memory_get', { memory_id: 'h-gc' });
      expect(old.memory).toMatchObject({ key: 'h-gc', superseded: true });
      const newest = await ok(client, 'memory_get', { memory_id: 'h-gc', current_only: true, detail: 'summary' });
      expect(newest.memory.key).toBe('h-gc-v2');
      expect(newest.asked_id).toBe(old.memory.id);
    });
  });

  it('takes limit on every tool that bounds a list, as an alias of neighbor_limit and budget', async () => {
    expect((await ok(client, 'memory_get', { memory_id: 'h-cache', limit: 2 })).neighbors).toHaveLength(2);
    const context = await ok(client, 'memory_context', { seeds: ['q-latency'], limit: 3 });
    expect(context.items).toHaveLength(3);
    expect(context.truncated).toBe(true);
  });
});
