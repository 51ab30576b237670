import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fails, ok, type StdioSession, startStdio } from './helpers.js';

/** A type outside the vocabulary is stored, but evidence and contradictions never read it: say so. */
describe('unknown relation types over MCP', () => {
  let dir: string;
  const sessions: StdioSession[] = [];

  async function session(workspace: string, env: Record<string, string> = {}): Promise<StdioSession> {
    const started = await startStdio({ dbPath: join(dir, 'engram.db'), workspace, env });
    sessions.push(started);
    await ok(started.client, 'memory_create', { key: 'exp', title: 'Load test on staging', kind: 'experiment' });
    await ok(started.client, 'memory_create', { key: 'claim', title: 'Caching halves p99', kind: 'hypothesis' });
    return started;
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-types-'));
  });

  afterAll(async () => {
    for (const started of sessions) await started.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('links with an unknown type but warns, in the text and the structured answer', async () => {
    const { client } = await session('open');
    const linked = await call(client, 'memory_link', { source_id: 'exp', target_id: 'claim', edge_type: 'supports' });
    expect(linked.isError).toBe(false);
    expect(linked.structured.edge.type).toBe('SUPPORTS');
    expect(linked.structured.warnings).toEqual([expect.stringContaining('SUPPORTS is not a known relation type')]);
    expect(linked.text).toMatch(/^Warning: SUPPORTS is not a known relation type.*memory_evidence/m);
    expect((await ok(client, 'memory_evidence', { memory_id: 'claim' })).supporting).toEqual([]);

    const known = await ok(client, 'memory_link', { source_id: 'exp', target_id: 'claim', edge_type: 'VALIDATES' });
    expect(known.warnings).toBeUndefined();

    const written = await ok(client, 'memory_write', {
      edges: [
        { source_id: 'claim', target_id: 'exp', edge_type: 'SUPPORTED_BY' },
        { source_id: 'claim', target_id: 'exp', edge_type: 'cites' },
      ],
    });
    expect(written.warnings).toEqual([expect.stringContaining('SUPPORTED_BY is not a known relation type')]);
  });

  it('refuses unknown types under ENGRAM_STRICT_TYPES, for link and batch alike', async () => {
    const { client } = await session('strict', { ENGRAM_STRICT_TYPES: 'true' });
    const refused = await fails(
      client,
      'memory_link',
      { source_id: 'exp', target_id: 'claim', edge_type: 'SUPPORTS' },
      'BAD_USER_INPUT',
    );
    expect(refused.text).toContain('"SUPPORTS" is not a known relation type');
    await fails(
      client,
      'memory_write',
      {
        memories: [{ ref: '@n', title: 'Note' }],
        edges: [{ source_id: '@n', target_id: 'claim', edge_type: 'SUPPORTS' }],
      },
      'BAD_USER_INPUT',
    );
    expect((await ok(client, 'memory_search', { query: 'Note' })).count).toBe(0);
  });
});
