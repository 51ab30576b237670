import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok, type StdioSession, startStdio } from './helpers.js';
import { SESSION_EDGES, SESSION_MEMORIES } from './research-session.js';

/** The research session as one memory_write call: new memories by local ref, edges between refs. */
const batch = {
  memories: SESSION_MEMORIES.map((memory) => ({ ref: `@${memory.key}`, ...memory })),
  edges: SESSION_EDGES.map((edge) => ({
    source_id: `@${edge.source}`,
    target_id: `@${edge.target}`,
    edge_type: edge.type,
    weight: edge.weight,
  })),
};

describe('memory_write over MCP', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;

  /** Everything an agent could see of the graph: every edge and both its ends, in full. */
  async function snapshot(): Promise<unknown> {
    const memories = [];
    for (const { key } of SESSION_MEMORIES) {
      const got = await ok(client, 'memory_related', { memory_id: key, limit: 10, detail: 'full' });
      memories.push(got.neighbors);
    }
    return memories;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-batch-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'batch' });
    client = session.client;
  });

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes 12 memories and 19 edges in one call, and the same call again changes nothing', async () => {
    const first = await ok(client, 'memory_write', batch);
    expect(first).toMatchObject({ memories_written: 12, edges_written: 19 });
    expect(first.memories).toHaveLength(12);
    expect(first.memories.map((memory: any) => memory.status)).toEqual(Array(12).fill('created'));
    expect(first.warnings).toBeUndefined();
    const related = await ok(client, 'memory_related', { memory_id: 'h-cache' });
    expect(related.neighbors).toHaveLength(6);
    const before = await snapshot();

    const again = await ok(client, 'memory_write', batch);
    expect(again.memories.map((memory: any) => memory.id)).toEqual(first.memories.map((memory: any) => memory.id));
    expect(again.memories.map((memory: any) => memory.status)).toEqual(Array(12).fill('unchanged'));
    expect(await snapshot()).toEqual(before);
    expect(again).toMatchObject({ memories_written: 0, edges_written: 0, edges_unchanged: 19 });

    const weakened = await ok(client, 'memory_weaken', {
      source_id: 'h-gc',
      target_id: 'q-latency',
      edge_type: 'RELATED_TO',
    });
    const withoutWeights = { ...batch, edges: batch.edges.map(({ weight: _weight, ...edge }) => edge) };
    expect(await ok(client, 'memory_write', withoutWeights)).toMatchObject({ edges_written: 0, edges_unchanged: 19 });
    const neighbors = (await ok(client, 'memory_get', { memory_id: 'h-gc', neighbor_limit: 10 })).neighbors;
    expect(neighbors.find((n: any) => n.edge_id === weakened.edge.id).edge_weight).toBe(weakened.new_weight);
  });

  it('links new memories to existing ones by key, and keeps the weight feedback gave', async () => {
    await ok(client, 'memory_feedback', { memory_id: 'q-latency', signal: 'used' });
    const weight = (await ok(client, 'memory_get', { memory_id: 'q-latency' })).memory.weight;
    expect(weight).toBeGreaterThan(0.5);
    const result = await ok(client, 'memory_write', {
      memories: [
        { ref: '@fix', title: 'Fix: pin the eviction policy per tenant', kind: 'decision' },
        { key: 'q-latency', title: 'Why did p99 latency double after the 4.2 release? (answered)' },
      ],
      edges: [{ from_id: '@fix', to_id: 'd-revert', relation: 'extends' }],
    });
    expect(result.memories[1]).toMatchObject({ key: 'q-latency', status: 'replaced' });
    const question = await ok(client, 'memory_get', { memory_id: 'q-latency' });
    expect(question.memory).toMatchObject({ title: expect.stringMatching(/answered/), weight });
    const fix = await ok(client, 'memory_related', { memory_id: result.memories[0].id });
    expect(fix.neighbors.map((n: any) => [n.edge.type, n.memory.key])).toEqual([['EXTENDS', 'd-revert']]);
  });

  it('refuses the whole batch when an edge names nothing, and writes none of it', async () => {
    const refused = await fails(
      client,
      'memory_write',
      {
        memories: [{ ref: '@lost', title: 'Never written' }],
        edges: [
          { source_id: '@lost', target_id: 'no-such-memory', edge_type: 'CITES' },
          { source_id: '@nobody', target_id: 'q-latency', edge_type: 'CITES' },
        ],
      },
      'NOT_FOUND',
    );
    expect(refused.text).toContain('edges[0].target_id: no memory "no-such-memory"');
    expect(refused.text).toContain('edges[1].source_id: "@nobody" is not the ref of a memory in this call');
    expect((await ok(client, 'memory_search', { query: 'Never written' })).count).toBe(0);
  });

  it('reads the records as strictly as the arguments: a misspelt or doubly given field is refused, nothing written', async () => {
    const refused = await fails(
      client,
      'memory_write',
      {
        memories: [{ ref: '@typo', title: 'Never written either', knd: 'fact' }],
        edges: [
          { from_id: '@typo', source_id: 'q-latency', target_id: 'h-cache', edge_type: 'CITES' },
          { source_id: '@typo', target_id: 'q-latency', edge_typ: 'CITES' },
        ],
      },
      'BAD_USER_INPUT',
    );
    expect(refused.text).toContain('memories[0]: unknown argument knd; did you mean kind?');
    expect(refused.text).toContain('edges[0]: from_id and source_id name the same argument (source_id)');
    expect(refused.text).toContain('edges[1]: unknown argument edge_typ; did you mean edge_type?');
    expect((await ok(client, 'memory_search', { query: 'Never written either' })).count).toBe(0);
  });

  it('accepts memory_link aliases inside each edge', async () => {
    const out = await ok(client, 'memory_write', {
      edges: [{ from_id: 'q-latency', to_id: 'h-cache', relation: 'CITES' }],
    });
    expect(out.edges_written + out.edges_unchanged).toBe(1);
  });
});
