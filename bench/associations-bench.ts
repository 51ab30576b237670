/**
 * What associations cost (issue 28): the import rate, createMemory and updateMemory latency with
 * association terms on and off, and recall latency with recall spreading through them or not, on
 * the benchmark graph (100k memories / 500k edges by default).
 *
 *   npx tsx bench/associations-bench.ts [--quick] [--seed N] [--writes N]
 *
 * Writes go through the domain services (as the mutations run them) into the loaded database,
 * alternating on and off so a drifting machine moves both; recall goes through the app in process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import * as writes from '../src/services/writes.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { generateGraph, randomPairs } from './generator.js';
import { importGraph, writeNdjson } from './import-run.js';
import { now, type Summary, summarize } from './lib/stats.js';
import { benchRecallLatency, type RecallLatencyRow } from './recall-latency.js';
import { fmt } from './report.js';

const WORKSPACE = 'bench';

export interface AssociationBenchResult {
  memories: number;
  edges: number;
  imports: { label: string; associations: boolean; edgesPerSecond: number; memoriesPerSecond: number; ms: number }[];
  writes: { label: string; on: Summary; off: Summary }[];
  recall: { on: RecallLatencyRow[]; off: RecallLatencyRow[] };
  loadAverage: [number, number];
}

export async function runAssociationBench(options: {
  memories: number;
  edges: number;
  seed: number;
  writes: number;
  log: (line: string) => void;
}): Promise<AssociationBenchResult> {
  const loadBefore = loadavg()[0] as number;
  const dir = mkdtempSync(join(tmpdir(), 'engram-assoc-bench-'));
  try {
    const graph = generateGraph({ memories: options.memories, edges: options.edges, seed: options.seed });
    const file = join(dir, 'graph.ndjson');
    await writeNdjson(graph, file);
    const config = loadConfig({ ENGRAM_SQLITE_PATH: join(dir, 'unused.db'), ENGRAM_LOG_LEVEL: 'silent' });
    const imports: AssociationBenchResult['imports'] = [];
    const paths = { on: join(dir, 'on.db'), off: join(dir, 'off.db') };
    // Off first, then on, for both modes: the order a cold cache would favour is the old one.
    for (const mode of ['never', 'auto'] as const) {
      for (const associations of [false, true]) {
        const path = mode === 'auto' ? (associations ? paths.on : paths.off) : join(dir, 'batch.db');
        const run = await importGraph(WORKSPACE, file, path, config, mode, associations);
        if (mode === 'never') for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
        const label = mode === 'auto' ? 'engram import (bulk load)' : 'engram import (batch by batch)';
        imports.push({
          label,
          associations,
          edgesPerSecond: run.edgesPerSecond,
          memoriesPerSecond: run.memoriesPerSecond,
          ms: run.ms,
        });
        options.log(`${label}, associations ${associations ? 'on' : 'off'}: ${Math.round(run.edgesPerSecond)} edges/s`);
      }
    }

    // Writes on the database with terms (what a server with associations on writes into).
    const store = createSqliteStore({ path: paths.on });
    const scope = (associations: boolean): writes.WriteScope => ({
      store,
      workspace: WORKSPACE,
      policy: config.policy,
      strictTypes: false,
      limits: config.limits,
      findMemory: async (ref) => (await store.getMemories(WORKSPACE, [ref]))[0] ?? null,
      associations,
    });
    const samples = {
      create: { on: [] as number[], off: [] as number[] },
      update: { on: [] as number[], off: [] as number[] },
    };
    const pairs = randomPairs(graph, options.writes, options.seed ^ 0x5a);
    for (const [index, [a]] of pairs.entries()) {
      const associations = index % 2 === 0;
      const side = associations ? 'on' : 'off';
      // A text like the graph's own: a bench memory's title and content, under a new id.
      const like = graph.memory(a);
      let started = now();
      const created = await writes.createMemory(scope(associations), {
        title: `${like.title} new`,
        content: like.content,
        tags: like.tags,
      });
      samples.create[side].push(now() - started);
      started = now();
      await writes.updateMemory(scope(associations), created.id, {
        title: `${like.title} changed`,
        content: `${like.content} more`,
      });
      samples.update[side].push(now() - started);
    }
    const writeRows = [
      {
        label: 'createMemory (service, SQLite)',
        on: summarize(samples.create.on),
        off: summarize(samples.create.off),
      },
      { label: 'updateMemory title + content', on: summarize(samples.update.on), off: summarize(samples.update.off) },
    ];
    await store.close();

    const recallStore = createSqliteStore({ path: paths.on });
    await recallStore.warmAdjacencyIndex(WORKSPACE);
    const recallPairs = randomPairs(graph, 200, options.seed ^ 0x33);
    const headers = { 'x-engram-workspace': WORKSPACE };
    const recallWith = (associations: boolean) =>
      benchRecallLatency({
        store: recallStore,
        config: loadConfig({
          ENGRAM_SQLITE_PATH: paths.on,
          ENGRAM_LOG_LEVEL: 'silent',
          ENGRAM_RATE_POINTS_PER_SECOND: '0',
          ENGRAM_ASSOCIATIONS: String(associations),
        }),
        headers,
        graph,
        starts: recallPairs.map(([a]) => a),
        warmupStarts: recallPairs.map(([, b]) => b),
        maxDepths: [2],
      });
    const off = await recallWith(false);
    const on = await recallWith(true);
    await recallStore.close();
    return {
      memories: options.memories,
      edges: options.edges,
      imports,
      writes: writeRows,
      recall: { on, off },
      loadAverage: [loadBefore, loadavg()[0] as number],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderAssociationBench(result: AssociationBenchResult): string {
  const lines = [
    `Associations on and off, ${result.memories.toLocaleString('en-US')} memories / ${result.edges.toLocaleString('en-US')} edges (load average ${result.loadAverage[0].toFixed(1)} -> ${result.loadAverage[1].toFixed(1)}):`,
    '',
    '| import | associations off | on | on / off |',
    '|---|---|---|---|',
  ];
  for (const label of [...new Set(result.imports.map((run) => run.label))]) {
    const [off, on] = [false, true].map((flag) =>
      result.imports.find((run) => run.label === label && run.associations === flag),
    );
    if (!off || !on) continue;
    lines.push(
      `| ${label} | ${Math.round(off.edgesPerSecond).toLocaleString('en-US')} edges/s (${(off.ms / 1000).toFixed(1)} s) | ${Math.round(on.edgesPerSecond).toLocaleString('en-US')} edges/s (${(on.ms / 1000).toFixed(1)} s) | ${(on.edgesPerSecond / off.edgesPerSecond).toFixed(2)} |`,
    );
  }
  lines.push('', '| write | off p50 / p95 ms | on p50 / p95 ms | p50 on - off |', '|---|---|---|---|');
  for (const row of result.writes) {
    lines.push(
      `| ${row.label} (n ${row.on.n + row.off.n}) | ${fmt(row.off.median)} / ${fmt(row.off.p95)} | ${fmt(row.on.median)} / ${fmt(row.on.p95)} | ${row.on.median - row.off.median >= 0 ? '+' : ''}${fmt(row.on.median - row.off.median)} |`,
    );
  }
  lines.push('', '| recall | off p50 / p95 ms | on p50 / p95 ms | store calls off / on |', '|---|---|---|---|');
  result.recall.on.forEach((on, index) => {
    const off = result.recall.off[index];
    if (!off) return;
    lines.push(
      `| ${on.label} | ${fmt(off.summary.median)} / ${fmt(off.summary.p95)} | ${fmt(on.summary.median)} / ${fmt(on.summary.p95)} | ${off.calls.mean.toFixed(1)} / ${on.calls.mean.toFixed(1)} |`,
    );
  });
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      seed: { type: 'string', default: '42' },
      writes: { type: 'string', default: '1000' },
    },
  });
  const size = values.quick ? { memories: 10_000, edges: 50_000 } : { memories: 100_000, edges: 500_000 };
  const result = await runAssociationBench({
    ...size,
    seed: Number(values.seed),
    writes: Number(values.writes),
    log: (line) => process.stderr.write(`associations: ${line}\n`),
  });
  process.stdout.write(`${renderAssociationBench(result)}\n`);
}
