import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok, type StdioSession, startStdio } from './helpers.js';

/** History, undo and exact weights through the real `engram mcp` process over stdio. */
describe('weight history and undo over MCP', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;
  const triple = { source_id: 'retry', target_id: 'outage', edge_type: 'CAUSED_BY' };
  let edgeId: string;

  const edgeWeight = async (): Promise<number> =>
    (await ok(client, 'memory_history', { edge_id: edgeId, limit: 1 })).events[0].new_weight;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-undo-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'undo' });
    client = session.client;
    await ok(client, 'memory_create', { key: 'retry', title: 'Retry storm in the client' });
    await ok(client, 'memory_create', { key: 'outage', title: 'Outage of 3 March' });
    await ok(client, 'memory_create', { key: 'unrelated', title: 'Unrelated note' });
    await ok(client, 'memory_create', { key: 'other', title: 'Another note' });
    const linked = await ok(client, 'memory_link', { ...triple, reason: 'postmortem says so' });
    edgeId = linked.edge.id;
  });

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a new link's reason in its history", async () => {
    const history = await ok(client, 'memory_history', { edge_id: edgeId });
    expect(history).toMatchObject({
      count: 1,
      events: [{ source: 'MANUAL', old_weight: 0.5, new_weight: 0.5, reason: 'postmortem says so', reverted_by: null }],
    });
  });

  it('round trip: weaken until pruned, read the history, revert, and the weight is back', async () => {
    const weakened = await ok(client, 'memory_weaken', { ...triple, amount: 0.47, reason: 'user: it was the DNS' });
    expect(weakened).toMatchObject({ previous_weight: 0.5, pruned: true, reason: 'user: it was the DNS' });
    expect(weakened.new_weight).toBeCloseTo(0.03);
    expect((await ok(client, 'memory_related', { memory_id: 'retry' })).neighbors).toEqual([]);

    const history = await ok(client, 'memory_history', { edge_id: edgeId });
    expect(history.count).toBe(2);
    expect(history.events[0]).toMatchObject({
      event_id: weakened.event_id,
      source: 'CONSCIOUS',
      edge_id: edgeId,
      old_weight: 0.5,
      reason: 'user: it was the DNS',
    });

    const reverted = await ok(client, 'memory_revert', { event_id: weakened.event_id });
    expect(reverted).toMatchObject({ new_weight: 0.5, pruned: false, source: 'MANUAL' });
    expect(reverted.previous_weight).toBeCloseTo(0.03);
    expect(await edgeWeight()).toBe(0.5);
    expect((await ok(client, 'memory_related', { memory_id: 'retry' })).neighbors).toHaveLength(1);

    const after = await ok(client, 'memory_history', { edge_id: edgeId });
    expect(after.events[0]).toMatchObject({ event_id: reverted.event_id, reason: `revert of ${weakened.event_id}` });
    expect(after.events[1]).toMatchObject({ event_id: weakened.event_id, reverted_by: reverted.event_id });

    await fails(client, 'memory_revert', { event_id: weakened.event_id }, 'CONFLICT');
    expect(await edgeWeight()).toBe(0.5);
  });

  it('tells the truth about reviving a pruned edge in the weaken text', async () => {
    const { tools } = await client.listTools();
    const weaken = tools.find((tool) => tool.name === 'memory_weaken')?.description ?? '';
    expect(weaken).toContain('memory_revert');
    expect(weaken).not.toContain('memory_strengthen revives it');
  });

  it('memory_set_weight sets an exact MANUAL weight, and revives a pruned edge in one call', async () => {
    await ok(client, 'memory_weaken', { edge_id: edgeId, amount: 0.5 });
    const set = await ok(client, 'memory_set_weight', { edge_id: edgeId, weight: 0.8, reason: 'user is sure' });
    expect(set).toMatchObject({ previous_weight: 0, new_weight: 0.8, pruned: false, source: 'MANUAL' });
    expect(set.edge).toMatchObject({ id: edgeId, weight: 0.8 });
    await fails(client, 'memory_set_weight', { edge_id: 'no-such-edge', weight: 0.5 }, 'NOT_FOUND');
    const outOfRange = await fails(client, 'memory_set_weight', { edge_id: edgeId, weight: 1.5 }, 'BAD_USER_INPUT');
    expect(outOfRange.structured.error.argument).toBe('weight');
    expect(await edgeWeight()).toBe(0.8);
  });

  describe('edge_id instead of the triple', () => {
    it('weakens and strengthens by edge_id', async () => {
      const down = await ok(client, 'memory_weaken', { edge_id: edgeId, amount: 0.2 });
      expect(down.new_weight).toBeCloseTo(0.6);
      const up = await ok(client, 'memory_strengthen', { edge_id: edgeId, amount: 0.1 });
      expect(up.new_weight).toBeCloseTo(0.7);
      expect(up.edge.id).toBe(edgeId);
    });

    it('refuses edge_id with the triple, a partial triple, and nothing at all', async () => {
      for (const args of [{ edge_id: edgeId, ...triple }, { source_id: 'retry', edge_type: 'CAUSED_BY' }, {}]) {
        const result = await fails(client, 'memory_weaken', args, 'BAD_USER_INPUT');
        expect(result.text).toMatch(
          /^BAD_USER_INPUT: edge_id: give either edge_id, or all of source_id, target_id and edge_type/,
        );
      }
      expect(await edgeWeight()).toBeCloseTo(0.7);
    });

    it('answers NOT_FOUND naming edge_id for an unknown edge', async () => {
      const result = await fails(client, 'memory_strengthen', { edge_id: 'no-such-edge' }, 'NOT_FOUND');
      expect(result.structured.error.argument).toBe('edge_id');
    });

    it('unlinks by edge_id, and the history outlives the edge', async () => {
      const extra = await ok(client, 'memory_link', { source_id: 'unrelated', target_id: 'other', edge_type: 'CITES' });
      const removed = await ok(client, 'memory_unlink', { edge_id: extra.edge.id });
      expect(removed).toMatchObject({ removed: 1, edges: [{ id: extra.edge.id }] });
      expect((await ok(client, 'memory_history', { edge_id: edgeId })).count).toBeGreaterThan(0);
    });
  });

  describe('memory_history', () => {
    it("lists a memory's own weight changes by key", async () => {
      const used = await ok(client, 'memory_feedback', { memory_id: 'outage', signal: 'not_useful', reason: 'stale' });
      const [memoryChange] = used.changes;
      const history = await ok(client, 'memory_history', { memory_id: 'outage' });
      expect(history.events[0]).toMatchObject({ event_id: memoryChange.event_id, edge_id: null, reason: 'stale' });
      expect(history.events[0].memory_id).toBe(memoryChange.memory.id);
    });

    it('needs exactly one of edge_id and memory_id', async () => {
      await fails(client, 'memory_history', {}, 'BAD_USER_INPUT');
      await fails(client, 'memory_history', { edge_id: edgeId, memory_id: 'outage' }, 'BAD_USER_INPUT');
      await fails(client, 'memory_history', { memory_id: 'nobody' }, 'NOT_FOUND');
    });
  });

  it('memory_feedback refuses a via edge that does not touch the memory, changing nothing', async () => {
    const before = await edgeWeight();
    const result = await fails(
      client,
      'memory_feedback',
      { memory_id: 'unrelated', signal: 'used', via_edge_ids: [edgeId] },
      'BAD_USER_INPUT',
    );
    expect(result.structured.error.argument).toBe('via_edge_ids');
    expect(await edgeWeight()).toBe(before);
    expect((await ok(client, 'memory_history', { memory_id: 'unrelated' })).count).toBe(0);
  });
});
