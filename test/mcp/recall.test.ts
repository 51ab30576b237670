import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fails, ok, type StdioSession, startStdio, useStdioSession } from './helpers.js';

/*
 * The recall loop an agent runs, through the real `engram mcp` process on a real SQLite file:
 * recall by words, follow the activation path, then feedback with the recall_id moves exactly
 * the path's edges and names the recall in their history.
 *
 *   warmup -CAUSED_BY-> tiering -CAUSED_BY-> quota      (the chain recall should follow)
 *   warmup -RELATES_TO-> lunch                          (a weak side edge)
 */
describe('memory_recall and memory_feedback with recall_id over MCP', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;
  const edges: Record<string, string> = {};
  const ids: Record<string, string> = {};

  /** An edge's weight as memory_related reads it (a new edge's starting weight writes no event). */
  const edgeWeight = async (edgeId: string | undefined): Promise<number> => {
    const from = edgeId === edges.warmupLunch ? 'warmup' : 'tiering';
    const related = await ok(client, 'memory_related', {
      memory_id: from,
      include_pruned: true,
      detail: 'ids',
      limit: 5,
    });
    const found = related.neighbors.find((neighbor: any) => neighbor.edge.id === edgeId);
    if (!found) throw new Error(`edge ${edgeId} not found`);
    return found.edge.weight;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-recall-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'recall' });
    client = session.client;
    const memories = [
      { key: 'warmup', title: 'JIT warmup spikes after deploy', kind: 'observation' },
      { key: 'tiering', title: 'Tiered compilation is disabled in the image', kind: 'fact' },
      { key: 'quota', title: 'Container CPU quota of one core', kind: 'fact' },
      { key: 'lunch', title: 'Team lunch on Friday', kind: 'note' },
    ];
    for (const memory of memories) ids[memory.key] = (await ok(client, 'memory_create', memory)).memory.id;
    const link = async (name: string, source: string, target: string, type: string, weight: number) => {
      edges[name] = (
        await ok(client, 'memory_link', { source_id: source, target_id: target, edge_type: type, weight })
      ).edge.id;
    };
    await link('warmupTiering', 'warmup', 'tiering', 'CAUSED_BY', 0.9);
    await link('tieringQuota', 'tiering', 'quota', 'CAUSED_BY', 0.8);
    await link('warmupLunch', 'warmup', 'lunch', 'RELATES_TO', 0.1);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is where the server instructions send an agent to recall, and feedback carries its recall_id', () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/Recall with memory_recall .* or memory_search/);
    expect(instructions).toContain('with the recall_id of memory_recall');
  });

  it('advertises its inputs with the API ranges and defaults, and a nullable recall_id as a type list', async () => {
    const tool = (await client.listTools()).tools.find((listed) => listed.name === 'memory_recall');
    const inputs = tool?.inputSchema.properties as Record<string, any>;
    expect(Object.keys(inputs)).toEqual([
      'query',
      'seeds',
      'limit',
      'max_depth',
      'edge_types',
      'min_weight',
      'current_only',
      'detail',
    ]);
    expect(inputs.max_depth).toMatchObject({ type: 'integer', minimum: 1, maximum: 5, default: 2 });
    expect(inputs.limit).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(tool?.inputSchema.required ?? []).toEqual([]);
    expect(tool?.outputSchema?.properties).toEqual({
      recall_id: { type: ['string', 'null'] },
      expires_at: { type: ['string', 'null'] },
      truncated: { type: 'boolean' },
      results: { type: 'array' },
      omitted: { type: 'number' },
    });
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('ranks the lexical hit first and reaches the chain two hops out, each with its activation path', async () => {
    const recall = await ok(client, 'memory_recall', { query: 'warmup spikes', max_depth: 2 });
    expect(recall.recall_id).toEqual(expect.any(String));
    expect(recall.truncated).toBe(false);
    const keys = recall.results.map((result: any) => result.memory.key);
    expect(keys[0]).toBe('warmup');
    expect(keys.indexOf('tiering')).toBeGreaterThan(0);
    expect(keys.indexOf('quota')).toBeGreaterThan(keys.indexOf('tiering'));

    const byKey = new Map<string, any>(recall.results.map((result: any) => [result.memory.key, result]));
    expect(byKey.get('warmup')).toMatchObject({ seed: true, path_edge_ids: [] });
    expect(byKey.get('warmup').lexical).toBeGreaterThan(0);
    expect(byKey.get('tiering')).toMatchObject({ seed: false, path_edge_ids: [edges.warmupTiering] });
    expect(byKey.get('quota')).toMatchObject({
      seed: false,
      path_edge_ids: [edges.warmupTiering, edges.tieringQuota],
    });
    expect(byKey.get('quota').graph).toBeGreaterThan(0);
    const scores = recall.results.map((result: any) => result.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
  });

  it('gives the recall_id and the ids a next call needs in the text, under 4,000 characters', async () => {
    const result = await call(client, 'memory_recall', { query: 'warmup spikes' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain(`Recall ${result.structured.recall_id}`);
    expect(result.text).toContain('recall_id');
    for (const id of [ids.warmup, ids.tiering, ids.quota, edges.warmupTiering, edges.tieringQuota])
      expect(result.text).toContain(id);
    expect(result.text.length).toBeLessThan(4_000);
    expect(JSON.stringify(result.structured).length).toBeLessThan(4_000);
  });

  it('starts from seeds named by key, and spells out each path step at detail full', async () => {
    const recall = await ok(client, 'memory_recall', { seeds: ['tiering'], detail: 'full', edge_types: ['caused_by'] });
    const quota = recall.results.find((result: any) => result.memory.key === 'quota');
    expect(quota.path).toEqual([
      {
        edge_id: edges.tieringQuota,
        edge_type: 'CAUSED_BY',
        source_id: ids.tiering,
        target_id: ids.quota,
        weight: 0.8,
      },
    ]);
    expect(quota.memory.content).toBeDefined();
    expect(recall.results.map((result: any) => result.memory.key)).not.toContain('lunch');
  });

  it('used with the recall_id strengthens exactly the recorded path, learns an association, and the history names the recall', async () => {
    const recall = await ok(client, 'memory_recall', { query: 'warmup spikes', max_depth: 2 });
    const before = {
      warmupTiering: await edgeWeight(edges.warmupTiering),
      tieringQuota: await edgeWeight(edges.tieringQuota),
      warmupLunch: await edgeWeight(edges.warmupLunch),
    };
    const feedback = await ok(client, 'memory_feedback', {
      memory_id: 'quota',
      signal: 'used',
      recall_id: recall.recall_id,
    });
    const changedEdges = feedback.changes.filter((change: any) => change.target === 'edge');
    const learned = changedEdges.filter((change: any) => change.edge.type === 'RECALLED_WITH');
    expect(
      changedEdges
        .filter((change: any) => !learned.includes(change))
        .map((change: any) => change.edge.id)
        .sort(),
    ).toEqual([edges.warmupTiering, edges.tieringQuota].sort());
    // The recall's word match (warmup) is now associated with the memory used.
    expect(learned).toHaveLength(1);
    expect(learned[0]).toMatchObject({ previous_weight: 0, new_weight: 0.5, source: 'CONSCIOUS' });
    expect(learned[0].reason).toContain(recall.recall_id);
    expect(await edgeWeight(edges.warmupTiering)).toBeGreaterThan(before.warmupTiering);
    expect(await edgeWeight(edges.tieringQuota)).toBeGreaterThan(before.tieringQuota);
    expect(await edgeWeight(edges.warmupLunch)).toBe(before.warmupLunch);

    const history = await ok(client, 'memory_history', { edge_id: edges.tieringQuota, limit: 1 });
    expect(history.events[0]).toMatchObject({ source: 'CONSCIOUS' });
    expect(history.events[0].reason).toContain(recall.recall_id);

    // The question was filed as a cue of quota, on the association just learned.
    const again = await call(client, 'memory_recall', { query: 'warmup spikes', max_depth: 2 });
    const quota = again.structured.results.find((result: any) => result.memory.key === 'quota');
    expect(quota).toMatchObject({ seed: true, cue: { edge_id: learned[0].edge.id, match: 1 } });
    expect(again.text).toContain(`cue 1.00 via ${learned[0].edge.id}`);
  });

  it('not_relevant with the recall_id weakens that result’s path only', async () => {
    const recall = await ok(client, 'memory_recall', { query: 'warmup spikes', max_depth: 2 });
    // Which neighbour carried tiering depends on what earlier tests taught (quota answered this
    // question above, so it is a seed now too): the recorded path is what feedback follows.
    const path: string[] = recall.results.find((result: any) => result.memory.key === 'tiering').path_edge_ids;
    expect(path).toHaveLength(1);
    const onPath = path[0] as string;
    const offPath = onPath === edges.warmupTiering ? edges.tieringQuota : edges.warmupTiering;
    const before = await edgeWeight(onPath);
    const offBefore = await edgeWeight(offPath);
    await ok(client, 'memory_feedback', { memory_id: 'tiering', signal: 'not_relevant', recall_id: recall.recall_id });
    expect(await edgeWeight(onPath)).toBeLessThan(before);
    expect(await edgeWeight(offPath)).toBe(offBefore);
  });

  it('refuses an unknown recall_id, a memory the recall did not return, and a recall with nothing to start from', async () => {
    const recall = await ok(client, 'memory_recall', { seeds: ['tiering'], edge_types: ['CAUSED_BY'] });
    const weight = await edgeWeight(edges.warmupLunch);
    await fails(
      client,
      'memory_feedback',
      { memory_id: 'quota', signal: 'used', recall_id: 'no-such-recall' },
      'NOT_FOUND',
    );
    const notReturned = await fails(
      client,
      'memory_feedback',
      { memory_id: 'lunch', signal: 'used', recall_id: recall.recall_id },
      'BAD_USER_INPUT',
    );
    expect(notReturned.text).toContain('recall');
    expect(await edgeWeight(edges.warmupLunch)).toBe(weight);
    await fails(client, 'memory_recall', {}, 'BAD_USER_INPUT');
    const deep = await fails(client, 'memory_recall', { query: 'warmup', max_depth: 9 }, 'BAD_USER_INPUT');
    expect(deep.structured.error.argument).toBe('max_depth');
  });
});

describe('memory_recall at the work budget', () => {
  let dir: string;
  let session: StdioSession;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-recall-budget-'));
    session = await startStdio({
      dbPath: join(dir, 'engram.db'),
      workspace: 'recall',
      env: { ENGRAM_RECALL_BUDGET: '1' },
    });
    await ok(session.client, 'memory_create', { key: 'hub', title: 'Cache warmup hub' });
    for (const key of ['left', 'right']) {
      await ok(session.client, 'memory_create', { key, title: `Spoke ${key}` });
      await ok(session.client, 'memory_link', { source_id: 'hub', target_id: key, edge_type: 'RELATES_TO' });
    }
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says the spreading was cut short, in the structured answer and in the text', async () => {
    const result = await call(session.client, 'memory_recall', { query: 'warmup hub' });
    expect(result.isError).toBe(false);
    expect(result.structured.truncated).toBe(true);
    expect(result.text).toContain('Spreading stopped at the work budget');
    expect(result.structured.results[0].memory.key).toBe('hub');
  });
});

describe('memory_recall shows the association that brought a result (ENGRAM_ASSOCIATIONS=true)', () => {
  const { client } = useStdioSession({ workspace: 'associations', env: { ENGRAM_ASSOCIATIONS: 'true' } });

  it('names the shared terms and the memory they join it to, in the structured answer and in the text', async () => {
    const intro = (await ok(client(), 'memory_create', { title: 'Rosa: my team lead Cyrus is great' })).memory;
    const news = (await ok(client(), 'memory_create', { title: 'Cyrus got a place in Bologna' })).memory;
    const result = await call(client(), 'memory_recall', { query: 'team lead' });
    expect(result.isError).toBe(false);
    const [first, second] = result.structured.results;
    expect(first.memory.id).toBe(intro.id);
    expect(first.associations).toBeUndefined();
    expect(second.memory.id).toBe(news.id);
    expect(second.path_edge_ids).toEqual([]);
    expect(second.associations).toEqual([
      { kind: 'TERMS', from_id: intro.id, terms: ['cyrus'], weight: expect.closeTo(0.4489, 4) },
    ]);
    expect(result.text).toContain(`shares cyrus with ${intro.id}`);
  });
});
