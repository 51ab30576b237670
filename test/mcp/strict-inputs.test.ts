import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fails, ok, type StdioSession, startStdio } from './helpers.js';

/** The real `engram mcp` process over stdio: arguments are read strictly, once, for every tool. */
describe('strict tool arguments', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;

  /** Refused with BAD_USER_INPUT and nothing else: the text lists every problem, one per line. */
  async function refused(tool: string, args: Record<string, unknown>): Promise<string[]> {
    const result = await fails(client, tool, args, 'BAD_USER_INPUT');
    return result.text.split('\n').map((line) => line.replace(/^BAD_USER_INPUT: /, ''));
  }

  const edgesOf = async (memory: string): Promise<unknown[]> =>
    (await ok(client, 'memory_related', { memory_id: memory })).neighbors;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-strict-'));
    session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'strict' });
    client = session.client;
    for (const [key, title, kind] of [
      ['kafka', 'Kafka for the event bus', 'decision'],
      ['ordering', 'Per-key ordering is required', 'fact'],
      ['latency', 'Latency stays under 10 ms', 'hypothesis'],
      ['bench', 'Benchmark of the bus', 'experiment'],
    ] as const) {
      await ok(client, 'memory_create', { key, title, kind, content: `${title}.` });
    }
    await ok(client, 'memory_link', { source_id: 'kafka', target_id: 'ordering', edge_type: 'CAUSED_BY' });
    await ok(client, 'memory_link', { source_id: 'ordering', target_id: 'latency', edge_type: 'RELATED_TO' });
    await ok(client, 'memory_link', { source_id: 'bench', target_id: 'latency', edge_type: 'VALIDATES' });
  });

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('unknown arguments', () => {
    it('refuses memory_traverse{depth} instead of walking to the default depth', async () => {
      expect(await refused('memory_traverse', { memory_id: 'kafka', depth: 1 })).toEqual([
        'unknown argument depth; did you mean max_depth?',
      ]);
    });

    it('refuses memory_related{types} instead of ignoring the filter', async () => {
      expect(await refused('memory_related', { memory_id: 'kafka', types: ['CAUSED_BY'] })).toEqual([
        'unknown argument types; did you mean edge_types?',
      ]);
    });

    it('refuses memory_search{kind} instead of returning everything', async () => {
      expect(await refused('memory_search', { query: 'bus', kind: 'hypothesis' })).toEqual([
        'unknown argument kind; did you mean kinds?',
      ]);
    });

    it('names a misspelt id argument with the right spelling, structured too', async () => {
      const result = await fails(
        client,
        'memory_path',
        { source_idd: 'kafka', target_id: 'latency' },
        'BAD_USER_INPUT',
      );
      expect(result.text).toBe('BAD_USER_INPUT: unknown argument source_idd; did you mean source_id?');
      expect(result.structured.error).toMatchObject({ argument: 'source_idd', retryable: false });
    });

    it('names each unknown argument, and writes nothing', async () => {
      const before = await edgesOf('kafka');
      expect(
        await refused('memory_link', {
          source_idd: 'kafka',
          targetid: 'latency',
          edge_type: 'CAUSED_BY',
          colour: 'red',
        }),
      ).toEqual([
        'unknown argument source_idd; did you mean source_id?',
        'unknown argument targetid; did you mean target_id?',
        'unknown argument colour; this tool takes source_id, target_id, edge_type, weight, metadata, reason, from_id, to_id, from_name, to_name, relation',
      ]);
      expect(await edgesOf('kafka')).toEqual(before);
    });

    it('lists the valid arguments when nothing is close', async () => {
      expect(await refused('memory_get', { memory_id: 'kafka', verbose: true })).toEqual([
        'unknown argument verbose; this tool takes memory_id, neighbor_limit, detail, current_only, content_chars, limit',
      ]);
    });

    it('refuses any argument to a tool that takes none', async () => {
      expect(await refused('relation_types', { filter: 'CAUSED' })).toEqual([
        'unknown argument filter; this tool takes no arguments',
      ]);
    });
  });

  describe('missing and malformed arguments', () => {
    it('names a missing required argument and what it is', async () => {
      const result = await fails(client, 'memory_link', { target_id: 'latency', edge_type: 'CITES' }, 'BAD_USER_INPUT');
      expect(result.text).toBe(
        'BAD_USER_INPUT: missing required argument source_id (The memory the edge starts at, by id or key)',
      );
      expect(result.structured.error.argument).toBe('source_id');
    });

    it('names every missing argument at once', async () => {
      expect(await refused('memory_path', {})).toEqual([
        'missing required argument source_id (Start memory, by id or key)',
        'missing required argument target_id (End memory, by id or key)',
      ]);
    });

    it('names the argument of a value of the wrong type', async () => {
      const [line] = await refused('memory_traverse', { memory_id: 'kafka', max_depth: 'two' });
      expect(line).toMatch(/^max_depth: /);
    });
  });

  describe('aliases', () => {
    it('lists each tool’s aliases in its description', async () => {
      const { tools } = await client.listTools();
      const description = (name: string) => tools.find((tool) => tool.name === name)?.description ?? '';
      for (const name of ['memory_link', 'memory_unlink', 'memory_weaken', 'memory_strengthen'])
        expect(description(name), name).toContain(
          'Aliases: from_id, from_name (source_id); to_id, to_name (target_id); relation (edge_type).',
        );
      expect(description('memory_path')).toContain('Aliases: from_id (source_id); to_id (target_id).');
      // Aliases are not advertised as properties: one spelling per argument in the schema.
      const link = tools.find((tool) => tool.name === 'memory_link');
      expect(Object.keys(link?.inputSchema.properties ?? {})).not.toContain('from_id');
    });

    it('memory_link takes from_id, to_id and relation', async () => {
      const out = await ok(client, 'memory_link', { from_id: 'kafka', to_id: 'bench', relation: 'cites' });
      expect(out).toMatchObject({
        created: true,
        edge: { type: 'CITES', source: { key: 'kafka' }, target: { key: 'bench' } },
      });
    });

    it('memory_weaken takes the seed tools’ from_name and to_name', async () => {
      const out = await ok(client, 'memory_weaken', {
        from_name: 'kafka',
        to_name: 'bench',
        relation: 'CITES',
        amount: 0.1,
      });
      expect(out).toMatchObject({ previous_weight: 0.5, new_weight: 0.4 });
    });

    it('memory_strengthen takes from_id, to_id and relation', async () => {
      const out = await ok(client, 'memory_strengthen', {
        from_id: 'kafka',
        to_id: 'bench',
        relation: 'CITES',
        amount: 0.1,
      });
      expect(out.new_weight).toBeCloseTo(0.5);
    });

    it('memory_path takes source_id and target_id', async () => {
      const out = await ok(client, 'memory_path', { source_id: 'kafka', target_id: 'latency' });
      expect(out).toMatchObject({ found: true, hops: 2 });
    });

    it('memory_unlink takes from_id, to_id and relation', async () => {
      const out = await ok(client, 'memory_unlink', { from_id: 'kafka', to_id: 'bench', relation: 'CITES' });
      expect(out.removed).toBe(1);
    });

    it('every edge tool takes from_name, to_name and relation', async () => {
      const names = { from_name: 'ordering', to_name: 'bench', relation: 'related to' };
      expect((await ok(client, 'memory_link', names)).edge.type).toBe('RELATED_TO');
      expect((await ok(client, 'memory_strengthen', { ...names, amount: 0.1 })).new_weight).toBeCloseTo(0.6);
      expect((await ok(client, 'memory_weaken', { ...names, amount: 0.1 })).new_weight).toBeCloseTo(0.5);
      expect((await ok(client, 'memory_unlink', names)).removed).toBe(1);
    });

    it('memory_set_weight and memory_revert take id for edge_id and event_id', async () => {
      const { edge } = await ok(client, 'memory_link', { source_id: 'bench', target_id: 'kafka', edge_type: 'CITES' });
      const set = await ok(client, 'memory_set_weight', { id: edge.id, weight: 0.9 });
      expect(set).toMatchObject({ previous_weight: 0.5, new_weight: 0.9 });
      expect((await ok(client, 'memory_revert', { id: set.event_id })).new_weight).toBe(0.5);
      await ok(client, 'memory_unlink', { edge_id: edge.id });
    });

    it('accepts an alias beside its own name when both say the same', async () => {
      const out = await ok(client, 'memory_path', { from_id: 'kafka', source_id: 'kafka', to_id: 'ordering' });
      expect(out.hops).toBe(1);
    });

    it('refuses an alias that contradicts its own name, and writes nothing', async () => {
      const before = await edgesOf('ordering');
      expect(
        await refused('memory_link', {
          source_id: 'ordering',
          from_id: 'bench',
          target_id: 'kafka',
          edge_type: 'CITES',
        }),
      ).toEqual(['source_id and from_id name the same argument (source_id) with different values; give one']);
      expect(await edgesOf('ordering')).toEqual(before);
    });
  });

  it('still runs a well-formed call after refusals (the session is unharmed)', async () => {
    const result = await call(client, 'memory_search', { query: 'bus', kinds: ['decision'] });
    expect(result.isError).toBe(false);
    expect(result.structured.results.map((memory: { key: string }) => memory.key)).toEqual(['kafka']);
  });
});
