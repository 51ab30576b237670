import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type SeededGraph, seedGraph } from '../fixtures/graphs.js';
import { contradictionMix, hypothesisEvidence } from '../fixtures/research-graphs.js';
import { call, fails, ok, type StdioSession, startStdio } from './helpers.js';

const WORKSPACE = 'lab';
const keysOf = (items: { memory: { key: string | null } }[]) => items.map((item) => item.memory.key);

/**
 * The research tools on the real `engram mcp` process over stdio, on a SQLite file seeded before
 * the process starts with a hypothesis (3 validating experiments at 0.9, 0.8, 0.6 and 1
 * contradicting at 0.7) and a mix of direct, mixed and resolved contradictions.
 */
describe('research tools over stdio', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;
  let hyp: SeededGraph;
  let mix: SeededGraph;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-mcp-research-'));
    const dbPath = join(dir, 'engram.db');
    const store = createSqliteStore({ path: dbPath });
    try {
      hyp = await seedGraph(store, WORKSPACE, hypothesisEvidence);
      mix = await seedGraph(store, WORKSPACE, contradictionMix);
    } finally {
      await store.close();
    }
    session = await startStdio({ dbPath, workspace: WORKSPACE });
    client = session.client;
  });

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('tools/list', () => {
    it('marks evidence, contradictions and context read-only and idempotent, and reinforce a non-idempotent, non-destructive write', async () => {
      const { tools } = await client.listTools();
      const hints = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
      for (const name of ['memory_evidence', 'memory_contradictions', 'memory_context']) {
        expect(hints(name), name).toMatchObject({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
      }
      expect(hints('memory_reinforce')).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
    });

    it('advertises snake_case inputs with their ranges and defaults, and points context at reinforce', async () => {
      const { tools } = await client.listTools();
      const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
      const props = (name: string) => tool(name).inputSchema.properties as Record<string, any>;
      expect(props('memory_evidence').max_depth).toMatchObject({ type: 'integer', minimum: 1, maximum: 5, default: 3 });
      expect(props('memory_evidence').min_weight).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
      expect(tool('memory_evidence').inputSchema.required).toEqual(['memory_id']);
      expect(props('memory_contradictions').kinds.items).toMatchObject({ enum: ['direct', 'mixed'] });
      expect(props('memory_contradictions').limit).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
      expect(props('memory_context').seeds).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
      expect(props('memory_context').budget).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
      expect(Object.keys(props('memory_context'))).toEqual(['seeds', 'budget', 'edge_types', 'min_weight', 'detail']);
      expect(Object.keys(props('memory_reinforce'))).toEqual(['memory_ids', 'reason']);
      expect(tool('memory_context').description).toMatch(/memory_reinforce/);
      expect(tool('memory_reinforce').description).toMatch(/0\.00001/);
    });
  });

  describe('memory_evidence', () => {
    it('scores a hypothesis with 3 validating and 1 contradicting experiment at 0.4, strongest evidence first', async () => {
      const result = await call(client, 'memory_evidence', { memory_id: 'hyp' });
      expect(result.isError, result.text).toBe(false);
      const out = result.structured;
      expect(out.memory).toEqual({ id: hyp.id('h'), key: 'hyp', title: 'Caching halves p99 latency' });
      expect(out.score).toBeCloseTo(0.4);
      expect(keysOf(out.supporting)).toEqual(['hyp-e1', 'hyp-e2', 'hyp-e3']);
      expect(out.supporting.map((item: any) => item.weight)).toEqual([0.9, 0.8, 0.6]);
      expect(out.supporting[0]).toEqual({
        memory: { id: hyp.id('e1'), key: 'hyp-e1', title: 'Load test on staging', kind: 'experiment' },
        relation: 'VALIDATES',
        weight: 0.9,
        via: [
          {
            edge_id: hyp.edge('e1', 'h').id,
            type: 'VALIDATES',
            source_id: hyp.id('e1'),
            target_id: hyp.id('h'),
            weight: 0.9,
          },
        ],
      });
      expect(out.contradicting).toHaveLength(1);
      expect(out.contradicting[0]).toMatchObject({ relation: 'CONTRADICTS', weight: 0.7, memory: { key: 'hyp-e4' } });

      expect(result.text.split('\n')[0]).toMatch(/score 0\.40 · 3 supporting · 1 contradicting$/);
      expect(result.text).toMatch(/^\+ 0\.9 VALIDATES "Load test on staging"/m);
      expect(result.text).toMatch(/^- 0\.7 CONTRADICTS "Cold-cache benchmark"/m);
    });

    it('min_weight leaves lighter edges out of the chains and the score', async () => {
      const out = await ok(client, 'memory_evidence', { memory_id: hyp.id('h'), min_weight: 0.75, max_depth: 1 });
      expect(keysOf(out.supporting)).toEqual(['hyp-e1', 'hyp-e2']);
      expect(out.contradicting).toEqual([]);
      expect(out.score).toBeCloseTo(1.7 / 2.7);
    });

    it('is NOT_FOUND for a memory that does not exist, and BAD_USER_INPUT naming max_depth beyond 5', async () => {
      const missing = await fails(client, 'memory_evidence', { memory_id: 'no-such-hypothesis' }, 'NOT_FOUND');
      expect(missing.structured.error).toMatchObject({ argument: 'memory_id', retryable: false });
      expect(missing.text).toMatch(/no-such-hypothesis/);
      const deep = await fails(client, 'memory_evidence', { memory_id: 'hyp', max_depth: 6 }, 'BAD_USER_INPUT');
      expect(deep.structured.error).toMatchObject({
        argument: 'max_depth',
        message: 'max_depth: must be between 1 and 5',
      });
    });
  });

  describe('memory_contradictions', () => {
    it('lists open pairs strongest first and resolved ones last, one text line each', async () => {
      const result = await call(client, 'memory_contradictions', {});
      expect(result.isError, result.text).toBe(false);
      const out = result.structured;
      const pairs = out.contradictions.map((pair: any) => [
        pair.resolved ? 'resolved' : 'open',
        pair.kind,
        pair.source.key,
        pair.target.key,
        pair.strength,
      ]);
      expect(pairs).toEqual([
        ['open', 'direct', 'mix-claim-a', 'mix-claim-b', 0.9],
        ['open', 'direct', 'hyp-e4', 'hyp', 0.7],
        ['open', 'mixed', 'mix-replication', 'mix-result', 0.6],
        ['open', 'mixed', 'mix-review', 'mix-theory', 0.5],
        ['open', 'direct', 'mix-weak', 'mix-claim-b', 0.2],
        ['resolved', 'direct', 'mix-old', 'mix-claim-c', 0.95],
      ]);
      expect(out.count).toBe(6);
      expect(out.contradictions[1].edge_id).toBe(hyp.edge('e4', 'h').id);
      expect(out.contradictions[2]).toMatchObject({
        edge_id: null,
        edges: [
          { type: 'REPRODUCES', weight: 0.7 },
          { type: 'FAILS_TO_REPRODUCE', weight: 0.6 },
        ],
      });
      expect(result.text.split('\n')).toEqual([
        'OPEN DIRECT mix-claim-a → mix-claim-b 0.90',
        'OPEN DIRECT hyp-e4 → hyp 0.70',
        'OPEN MIXED mix-replication → mix-result 0.60',
        'OPEN MIXED mix-review → mix-theory 0.50',
        'OPEN DIRECT mix-weak → mix-claim-b 0.20',
        'RESOLVED DIRECT mix-old → mix-claim-c 0.95',
      ]);
    });

    it('filters by kinds, min_weight and limit', async () => {
      const mixed = await ok(client, 'memory_contradictions', { kinds: ['mixed'] });
      expect(mixed.contradictions.map((pair: any) => pair.source.key)).toEqual(['mix-replication', 'mix-review']);
      const strong = await ok(client, 'memory_contradictions', { kinds: ['direct'], min_weight: 0.5, limit: 2 });
      expect(strong.contradictions.map((pair: any) => pair.source.key)).toEqual(['mix-claim-a', 'hyp-e4']);
    });

    it('is BAD_USER_INPUT naming limit outside 1-100', async () => {
      const result = await fails(client, 'memory_contradictions', { limit: 0 }, 'BAD_USER_INPUT');
      expect(result.structured.error.argument).toBe('limit');
    });
  });

  describe('memory_context', () => {
    it('bundles the seed, the open contradiction and the neighbors, with the edges among them', async () => {
      const result = await call(client, 'memory_context', { seeds: ['hyp'] });
      expect(result.isError, result.text).toBe(false);
      const out = result.structured;
      expect(out.items.map((item: any) => [item.role, item.memory.key])).toEqual([
        ['seed', 'hyp'],
        ['contradicting', 'hyp-e4'],
        ['neighbor', 'hyp-e1'],
        ['neighbor', 'hyp-e2'],
        ['neighbor', 'hyp-e3'],
      ]);
      expect(out.items[0].memory).toMatchObject({
        id: hyp.id('h'),
        title: 'Caching halves p99 latency',
        kind: 'hypothesis',
        snippet: '',
      });
      expect(out.items[2].score).toBeCloseTo(0.9);
      expect(out.truncated).toBe(false);
      expect(out.edges).toHaveLength(4);
      expect(out.edges).toContainEqual({
        id: hyp.edge('e1', 'h').id,
        type: 'VALIDATES',
        source_id: hyp.id('e1'),
        target_id: hyp.id('h'),
        weight: 0.9,
      });
      expect(out.contradictions).toEqual([
        {
          kind: 'direct',
          strength: 0.7,
          source_id: hyp.id('e4'),
          target_id: hyp.id('h'),
          edge_id: hyp.edge('e4', 'h').id,
        },
      ]);
      expect(result.text).toMatch(/^5 memories in context, 4 edges among them:/);
      expect(result.text).toMatch(/^- contradicting [0-9.]+: hyp-e4 "Cold-cache benchmark"/m);
      expect(result.text).toMatch(/^- DIRECT hyp-e4 → hyp 0\.70$/m);
    });

    it('cuts to budget and says so, and filters neighbors by edge_types', async () => {
      const cut = await ok(client, 'memory_context', { seeds: [hyp.id('h')], budget: 2 });
      expect(cut.items.map((item: any) => item.role)).toEqual(['seed', 'contradicting']);
      expect(cut.truncated).toBe(true);
      const onlyValidations = await ok(client, 'memory_context', {
        seeds: ['hyp'],
        edge_types: ['validates'],
        min_weight: 0.7,
      });
      expect(
        onlyValidations.items.filter((item: any) => item.role === 'neighbor').map((item: any) => item.memory.key),
      ).toEqual(['hyp-e1', 'hyp-e2']);
    });

    it('is NOT_FOUND naming seeds when a seed does not exist, and BAD_USER_INPUT for no seeds', async () => {
      const missing = await fails(client, 'memory_context', { seeds: ['hyp', 'no-such-seed'] }, 'NOT_FOUND');
      expect(missing.structured.error.argument).toBe('seeds');
      expect(missing.text).toMatch(/no-such-seed/);
      const none = await fails(client, 'memory_context', { seeds: [] }, 'BAD_USER_INPUT');
      expect(none.structured.error.argument).toBe('seeds');
    });
  });

  describe('memory_reinforce', () => {
    it('strengthens the edges among the memories used by the AGENT step, and again on every call', async () => {
      const context = await ok(client, 'memory_context', { seeds: ['hyp'] });
      const used = context.items
        .filter((item: any) => ['hyp', 'hyp-e1', 'hyp-e2'].includes(item.memory.key))
        .map((item: any) => item.memory.id);

      const result = await call(client, 'memory_reinforce', {
        memory_ids: used,
        reason: 'answered the latency question',
      });
      expect(result.isError, result.text).toBe(false);
      expect(result.structured.count).toBe(2);
      for (const change of result.structured.changes) {
        expect(change).toMatchObject({
          target: 'edge',
          source: 'AGENT',
          reason: 'answered the latency question',
          pruned: false,
        });
        expect(change.new_weight - change.previous_weight).toBeCloseTo(0.00001, 10);
      }
      expect(result.structured.changes.map((change: any) => change.edge.id).sort()).toEqual(
        [hyp.edge('e1', 'h').id, hyp.edge('e2', 'h').id].sort(),
      );
      expect(result.text.split('\n')[0]).toBe('Strengthened 2 edges by 0.00001:');
      expect(result.text).toMatch(
        /^- hyp-e1 -\[VALIDATES\]-> hyp \(edge id \S+\): 0\.9 -> 0\.90001 \(event id \S+\)$/m,
      );

      const again = await ok(client, 'memory_reinforce', { memory_ids: ['hyp', 'hyp-e1'] });
      expect(again.changes[0].new_weight).toBeCloseTo(0.90002, 10);
      const evidence = await ok(client, 'memory_evidence', { memory_id: 'hyp' });
      expect(evidence.supporting[0].weight).toBeCloseTo(0.90002, 10);
    });

    it('changes nothing for memories without edges among them', async () => {
      const result = await call(client, 'memory_reinforce', { memory_ids: ['hyp-e1', 'hyp-e2'] });
      expect(result).toMatchObject({ isError: false, structured: { count: 0, changes: [] } });
      expect(result.text).toMatch(/^Nothing to strengthen/);
      expect((await ok(client, 'memory_reinforce', { memory_ids: ['hyp'] })).count).toBe(0);
    });

    it('is NOT_FOUND naming memory_ids when one names no memory, and changes nothing', async () => {
      const result = await fails(
        client,
        'memory_reinforce',
        { memory_ids: ['mix-claim-a', 'no-such-memory', 'mix-claim-b'] },
        'NOT_FOUND',
      );
      expect(result.structured.error.argument).toBe('memory_ids');
      expect(result.text).toMatch(/no-such-memory/);
      const direct = await ok(client, 'memory_contradictions', { kinds: ['direct'], limit: 1 });
      expect(direct.contradictions[0]).toMatchObject({ source: { id: mix.id('claimA') }, strength: 0.9 });
    });
  });
});
