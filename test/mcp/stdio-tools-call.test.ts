import { describe, expect, it } from 'vitest';
import { createApp, type EngramApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { call, fails, ok, useStdioSession } from './helpers.js';

/** The real `engram mcp` process (bin/engram.js, as `npx engram mcp` runs it) on a real SQLite file. */
describe('engram mcp over stdio', () => {
  const { client, dbPath } = useStdioSession({ workspace: 'agent' });
  const ids: Record<string, string> = {};

  describe('tools/call', () => {
    it('relation_types lists the vocabulary with descriptions', async () => {
      const out = await ok(client(), 'relation_types');
      expect(out.relation_types).toContainEqual(
        expect.objectContaining({ name: 'SUPERSEDES', inverse: 'SUPERSEDED_BY' }),
      );
    });

    it('memory_create stores memories and answers with the stored record', async () => {
      const pg = await ok(client(), 'memory_create', {
        title: 'We chose Postgres',
        key: 'postgres-choice',
        kind: 'decision',
        tags: ['db'],
        content: 'Postgres for the ledger service.',
        metadata: { by: 'alice' },
      });
      expect(pg.memory).toMatchObject({
        key: 'postgres-choice',
        title: 'We chose Postgres',
        kind: 'decision',
        tags: ['db'],
        weight: 0.5,
        metadata: { by: 'alice' },
      });
      ids.pg = pg.memory.id;
      ids.acid = (
        await ok(client(), 'memory_create', { title: 'We need ACID transactions', key: 'need-acid', kind: 'fact' })
      ).memory.id;
      ids.mysql = (
        await ok(client(), 'memory_create', { title: 'We chose MySQL', key: 'mysql-choice', kind: 'decision' })
      ).memory.id;
    });

    it('a memory written over MCP reads back over HTTP in the same workspace, and only there', async () => {
      const config = loadConfig({ ENGRAM_SQLITE_PATH: dbPath(), ENGRAM_LOG_LEVEL: 'silent' });
      const store: GraphStore = createSqliteStore({ path: dbPath() });
      const app: EngramApp = createApp({ config, store, logger: createLogger('silent') });
      const read = async (workspace: string) => {
        const response = await app.fetch('http://engram.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-engram-workspace': workspace },
          body: JSON.stringify({ query: '{ memory(key: "postgres-choice") { id title tags } }' }),
        });
        return ((await response.json()) as { data: { memory: unknown } }).data.memory;
      };
      try {
        expect(await read('agent')).toEqual({ id: ids.pg, title: 'We chose Postgres', tags: ['db'] });
        expect(await read('default')).toBeNull();
      } finally {
        await store.close();
      }
    });

    it('memory_link creates, then confirms the same edge (upsert), normalising the type', async () => {
      const first = await ok(client(), 'memory_link', {
        source_id: 'postgres-choice',
        target_id: 'need-acid',
        edge_type: 'caused_by',
      });
      expect(first).toMatchObject({
        created: true,
        edge: {
          type: 'CAUSED_BY',
          source_id: ids.pg,
          target_id: ids.acid,
          source: { id: ids.pg, key: 'postgres-choice' },
          target: { id: ids.acid, key: 'need-acid' },
          weight: 0.5,
          pruned: false,
        },
      });
      const again = await ok(client(), 'memory_link', {
        source_id: ids.pg,
        target_id: ids.acid,
        edge_type: 'CAUSED_BY',
        metadata: { source: 'adr-7' },
      });
      expect(again).toMatchObject({ created: false, edge: { id: first.edge.id, metadata: { source: 'adr-7' } } });
      expect(again.edge.last_confirmed_at).toEqual(expect.any(String));
      ids.causedBy = first.edge.id;
      const supersedes = await ok(client(), 'memory_link', {
        source_id: 'postgres-choice',
        target_id: 'mysql-choice',
        edge_type: 'SUPERSEDES',
        weight: 0.8,
        reason: 'ADR 7',
      });
      ids.supersedes = supersedes.edge.id;
    });

    it('memory_get answers by key with the strongest neighbors first, and NOT_FOUND for a missing memory', async () => {
      const out = await ok(client(), 'memory_get', { memory_id: 'postgres-choice' });
      expect(out.found).toBe(true);
      expect(out.memory).toMatchObject({ id: ids.pg, content: 'Postgres for the ledger service.' });
      expect(out.neighbors.map((n: any) => [n.edge_type, n.direction, n.memory.key])).toEqual([
        ['SUPERSEDES', 'outgoing', 'mysql-choice'],
        ['CAUSED_BY', 'outgoing', 'need-acid'],
      ]);
      const limited = await ok(client(), 'memory_get', { memory_id: ids.pg, neighbor_limit: 1 });
      expect(limited.neighbors).toHaveLength(1);
      await fails(client(), 'memory_get', { memory_id: 'no-such-memory' }, 'NOT_FOUND');
    });

    it('memory_search finds by words, best first, with kind filters', async () => {
      const out = await ok(client(), 'memory_search', { query: 'postgres' });
      expect(out.results[0].key).toBe('postgres-choice');
      expect(out.count).toBe(out.results.length);
      const facts = await ok(client(), 'memory_search', { query: 'we', kinds: ['fact'], limit: 5 });
      expect(facts.results.map((m: any) => m.key)).toEqual(['need-acid']);
    });

    it('memory_related follows direction and type filters', async () => {
      const out = await ok(client(), 'memory_related', {
        memory_id: 'postgres-choice',
        direction: 'outgoing',
        edge_types: ['caused_by'],
      });
      expect(out.memory.key).toBe('postgres-choice');
      expect(out.neighbors).toHaveLength(1);
      expect(out.neighbors[0]).toMatchObject({
        direction: 'outgoing',
        edge: { id: ids.causedBy },
        memory: { key: 'need-acid', kind: 'fact' },
      });
      const incoming = await ok(client(), 'memory_related', { memory_id: 'need-acid', direction: 'incoming' });
      expect(incoming.neighbors.map((n: any) => [n.direction, n.memory.key])).toEqual([
        ['incoming', 'postgres-choice'],
      ]);
    });

    it('memory_path returns the steps with the edge type to the next one, or found: false with a message', async () => {
      const out = await ok(client(), 'memory_path', { source_id: 'mysql-choice', target_id: 'need-acid' });
      expect(out).toMatchObject({ found: true, hops: 2, message: null });
      expect(out.path.map((step: any) => [step.key, step.edge_type_to_next, step.edge_direction_to_next])).toEqual([
        ['mysql-choice', 'SUPERSEDES', 'incoming'],
        ['postgres-choice', 'CAUSED_BY', 'outgoing'],
        ['need-acid', null, null],
      ]);
      const forwardOnly = await call(client(), 'memory_path', {
        source_id: 'mysql-choice',
        target_id: 'need-acid',
        direction: 'outgoing',
        max_hops: 3,
      });
      expect(forwardOnly.isError).toBe(false);
      expect(forwardOnly.structured).toMatchObject({ found: false, hops: 0, path: [] });
      expect(forwardOnly.structured.message).toMatch(/No path/);
    });

    it('memory_traverse reports each memory once with its depth and the edges walked', async () => {
      const out = await ok(client(), 'memory_traverse', { memory_id: 'mysql-choice', max_depth: 2, detail: 'full' });
      expect(out.start.key).toBe('mysql-choice');
      expect(out.hits.map((hit: any) => [hit.depth, hit.memory.key, hit.path.map((e: any) => e.type)])).toEqual([
        [1, 'postgres-choice', ['SUPERSEDES']],
        [2, 'need-acid', ['SUPERSEDES', 'CAUSED_BY']],
      ]);
      const shallow = await ok(client(), 'memory_traverse', { memory_id: 'mysql-choice', max_depth: 1 });
      expect(shallow.hits).toHaveLength(1);
    });

    it('memory_strengthen and memory_weaken move the weight, prune at the threshold, and revive', async () => {
      const edge = { source_id: 'postgres-choice', target_id: 'need-acid', edge_type: 'CAUSED_BY' };
      const up = await ok(client(), 'memory_strengthen', { ...edge, amount: 0.2, reason: 'user confirmed' });
      expect(up).toMatchObject({ target: 'edge', previous_weight: 0.5, pruned: false, reason: 'user confirmed' });
      expect(up.new_weight).toBeCloseTo(0.7);
      const down = await ok(client(), 'memory_weaken', { ...edge, reason: 'user corrected' });
      expect(down.previous_weight).toBeCloseTo(0.7);
      expect(down.new_weight).toBeCloseTo(0.4);
      const pruned = await ok(client(), 'memory_weaken', { ...edge, amount: 0.4 });
      expect(pruned).toMatchObject({ new_weight: 0, pruned: true });

      const visible = await ok(client(), 'memory_related', { memory_id: 'postgres-choice' });
      expect(visible.neighbors.map((n: any) => n.edge.type)).toEqual(['SUPERSEDES']);
      const all = await ok(client(), 'memory_related', { memory_id: 'postgres-choice', include_pruned: true });
      expect(all.neighbors.map((n: any) => n.edge.type)).toEqual(['SUPERSEDES', 'CAUSED_BY']);

      const revived = await ok(client(), 'memory_strengthen', { ...edge, amount: 0.5 });
      expect(revived).toMatchObject({ pruned: false, new_weight: 0.5 });
    });

    it('memory_feedback strengthens the memory and the via edges on used, and only the memory on not_useful', async () => {
      const used = await ok(client(), 'memory_feedback', {
        memory_id: 'need-acid',
        signal: 'used',
        via_edge_ids: [ids.causedBy],
        reason: 'answered the question',
      });
      expect(used.count).toBe(2);
      expect(used.changes.map((c: any) => c.target).sort()).toEqual(['edge', 'memory']);
      for (const change of used.changes) expect(change.new_weight).toBeGreaterThan(change.previous_weight);

      const notUseful = await ok(client(), 'memory_feedback', { memory_id: 'mysql-choice', signal: 'not_useful' });
      expect(notUseful.changes).toHaveLength(1);
      expect(notUseful.changes[0]).toMatchObject({ target: 'memory', memory: { key: 'mysql-choice' } });
      expect(notUseful.changes[0].new_weight).toBeLessThan(notUseful.changes[0].previous_weight);
    });

    it('memory_update changes the given fields; null clears one, left-out fields stay', async () => {
      const out = await ok(client(), 'memory_update', {
        memory_id: 'postgres-choice',
        content: 'Postgres 16 for the ledger.',
        kind: null,
        tags: ['db', 'ledger'],
      });
      expect(out.memory).toMatchObject({
        id: ids.pg,
        title: 'We chose Postgres',
        content: 'Postgres 16 for the ledger.',
        kind: null,
        tags: ['db', 'ledger'],
        metadata: { by: 'alice' },
      });
    });

    it('memory_unlink removes by edge id, and removes nothing the second time', async () => {
      const out = await ok(client(), 'memory_unlink', { edge_id: ids.supersedes });
      expect(out).toMatchObject({ removed: 1, edges: [{ id: ids.supersedes, type: 'SUPERSEDES' }] });
      expect(await ok(client(), 'memory_unlink', { edge_id: ids.supersedes })).toEqual({ removed: 0, edges: [] });
      const byTriple = await ok(client(), 'memory_unlink', {
        source_id: 'postgres-choice',
        target_id: 'mysql-choice',
        edge_type: 'SUPERSEDES',
      });
      expect(byTriple.removed).toBe(0);
    });

    it('memory_delete removes the memory with its edges', async () => {
      const out = await ok(client(), 'memory_delete', { memory_id: 'postgres-choice' });
      expect(out).toEqual({ id: ids.pg, deleted: true, edges_removed: 1 });
      await fails(client(), 'memory_get', { memory_id: 'postgres-choice' }, 'NOT_FOUND');
      await fails(client(), 'memory_delete', { memory_id: 'postgres-choice' }, 'NOT_FOUND');
    });
  });

  describe('errors come back as isError results with the GraphQL code', () => {
    it('weaken on a missing edge is NOT_FOUND and creates nothing', async () => {
      const result = await fails(
        client(),
        'memory_weaken',
        { source_id: 'need-acid', target_id: 'mysql-choice', edge_type: 'CAUSED_BY' },
        'NOT_FOUND',
      );
      expect(result.text).toMatch(/CAUSED_BY/);
      expect(
        (await ok(client(), 'memory_related', { memory_id: 'need-acid', include_pruned: true })).neighbors,
      ).toEqual([]);
    });

    it('a malformed relation type is BAD_USER_INPUT naming edge_type', async () => {
      const result = await fails(
        client(),
        'memory_link',
        { source_id: 'need-acid', target_id: 'mysql-choice', edge_type: '1 not a type!' },
        'BAD_USER_INPUT',
      );
      expect(result.structured.error.argument).toBe('edge_type');
      expect(result.structured.error.message).toMatch(/^edge_type: /);
    });

    it('max_hops 11 is BAD_USER_INPUT naming max_hops', async () => {
      const result = await fails(
        client(),
        'memory_path',
        { source_id: 'need-acid', target_id: 'mysql-choice', max_hops: 11 },
        'BAD_USER_INPUT',
      );
      expect(result.structured.error).toMatchObject({
        argument: 'max_hops',
        message: 'max_hops: must be between 1 and 10',
        retryable: false,
      });
    });

    it('linking a memory to itself, a taken key and a missing start memory keep their codes', async () => {
      const self = await fails(
        client(),
        'memory_link',
        { source_id: 'need-acid', target_id: 'need-acid', edge_type: 'RELATED_TO' },
        'BAD_USER_INPUT',
      );
      expect(self.structured.error.argument).toBe('target_id');
      await fails(client(), 'memory_create', { title: 'Again', key: 'need-acid' }, 'CONFLICT');
      await fails(client(), 'memory_related', { memory_id: 'no-such-memory' }, 'NOT_FOUND');
      await fails(client(), 'memory_traverse', { memory_id: 'no-such-memory' }, 'NOT_FOUND');
      await fails(
        client(),
        'memory_link',
        { source_id: 'need-acid', target_id: 'no-such-memory', edge_type: 'RELATED_TO' },
        'NOT_FOUND',
      );
    });
  });
});
