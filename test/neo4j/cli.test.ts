import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLine, generateGraph, RELATION_TYPES } from '../../bench/generator.js';
import { memoryLine } from '../../src/domain/graph-records.js';
import { clearNamespace, liveNeo4jConfig, workspaceCounts } from '../helpers/neo4j.js';

/**
 * `engram import` and `engram export` as a user runs them, with ENGRAM_STORE=neo4j. The request
 * transaction timeout is cut to 1 s here, so the import only passes if its batches fit the bulk
 * settings (smaller batches, a longer timeout) rather than the per-request ones.
 */

if (!process.env.NEO4J_URI) {
  console.warn('SKIPPED: engram import/export on Neo4j (run `npm run test:neo4j`)');
  describe('engram import/export on Neo4j', () => {
    it.skip('imports and exports through the CLI when NEO4J_URI is set', () => {});
  });
} else {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const config = liveNeo4jConfig();
  const prefix = `engram-cli-${Date.now().toString(36)}-`;
  const workspace = `${prefix}import`;
  const graph = generateGraph({ memories: 3_000, edges: 12_000, seed: 5 });
  let dir: string;
  let file: string;

  const cli = (args: string[]) =>
    promisify(execFile)(process.execPath, [join(ROOT, 'bin/engram.js'), ...args], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        ENGRAM_STORE: 'neo4j',
        NEO4J_TRANSACTION_TIMEOUT_MS: '1000',
        ENGRAM_LOG_LEVEL: 'silent',
      },
    });

  const counts = () => workspaceCounts(config, workspace);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-neo4j-cli-'));
    file = join(dir, 'graph.ndjson');
    const lines: string[] = [];
    for (let index = 0; index < graph.spec.memories; index++)
      lines.push(memoryLine({ ...graph.memory(index), createdAt: '', updatedAt: '' }));
    for (let index = 0; index < graph.spec.edges; index++) {
      lines.push(edgeLine(graph, index));
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await clearNamespace(config, prefix);
  }, 120_000);

  describe('engram import/export on Neo4j', () => {
    it('imports a 3,000 / 12,000 graph in bulk batches, idempotently, and exports it back', async () => {
      const first = await cli(['import', file, '--workspace', workspace]);
      expect(first.stderr).toMatch(/Imported 3,000 memories and 12,000 edges/);
      console.log(first.stderr.trim().split('\n').at(-1));
      expect(await counts()).toEqual({ memories: 3_000, edges: 12_000, edgeRefs: 12_000 });

      await cli(['import', file, '--workspace', workspace]);
      expect(await counts()).toEqual({ memories: 3_000, edges: 12_000, edgeRefs: 12_000 });

      const exported = await cli(['export', '--workspace', workspace]);
      const records = exported.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              record: string;
              id?: string;
              from?: string;
              to?: string;
              type?: string;
              weight?: number;
            },
        );
      const memories = records.filter((record) => record.record === 'memory');
      const edges = records.filter((record) => record.record === 'edge');
      expect(memories.map((memory) => memory.id).sort()).toEqual([...graph.ids].sort());
      expect(edges).toHaveLength(12_000);
      const expected = new Map(
        Array.from({ length: graph.spec.edges }, (_, index) => [
          `${graph.ids[graph.edgeFrom[index] as number]}>${graph.ids[graph.edgeTo[index] as number]}:${RELATION_TYPES[graph.edgeType[index] as number]}`,
          graph.edgeWeight[index],
        ]),
      );
      for (const edge of edges) expect(edge.weight).toBe(expected.get(`${edge.from}>${edge.to}:${edge.type}`));
    }, 300_000);
  });
}
