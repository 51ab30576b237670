import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import type { GraphStore } from '../src/store/port.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { GeneratedGraph } from './generator.js';
import { benchRecallLatency, type RecallLatencyRow, renderRecallLatency } from './recall-latency.js';
import { type Gql, type QualityResult, renderRecallQuality, runRecallQuality } from './recall-quality.js';

/**
 * The recall rows of `npm run bench`: latency and store calls on the bench graph, then the quality
 * check. The quality check alone, on a temporary SQLite file (a few seconds):
 *
 *   npx tsx bench/recall-bench.ts [--seed 42]
 */
export interface RecallBenchResult {
  latency: RecallLatencyRow[];
  quality: QualityResult;
}

/** Sizes of the quality check: small enough for --quick, large enough that one case does not swing a percentage. */
export const QUALITY_RUN = { cases: 40, rounds: 20, every: 5 };

export async function runRecallBench(input: {
  store: GraphStore;
  config: Config;
  headers: Record<string, string>;
  graph: GeneratedGraph;
  starts: number[];
  warmupStarts: number[];
  /** A folder for the quality check's own SQLite file. */
  dir: string;
  seed: number;
}): Promise<RecallBenchResult> {
  const latency = await benchRecallLatency(input);
  const quality = await runQualityOnSqlite(join(input.dir, 'recall-quality.db'), input.seed);
  return { latency, quality };
}

/** The quality check on a fresh SQLite file, through the app as `npm test` builds it (default workspace). */
export async function runQualityOnSqlite(path: string, seed: number): Promise<QualityResult> {
  const store = createSqliteStore({ path });
  const app = createApp({
    config: loadConfig({ ENGRAM_SQLITE_PATH: path, ENGRAM_LOG_LEVEL: 'silent', ENGRAM_RATE_POINTS_PER_SECOND: '0' }),
    store,
    logger: createLogger('silent'),
  });
  const gql: Gql = async (query, variables) => {
    const response = await app.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as Awaited<ReturnType<Gql>>;
  };
  try {
    return await runRecallQuality({ gql, store, workspace: 'default', seed, ...QUALITY_RUN });
  } finally {
    await store.close();
  }
}

export function renderRecallBench(result: RecallBenchResult): string {
  return `${renderRecallLatency(result.latency)}\n\n${renderRecallQuality(result.quality)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '42' } } });
  const dir = mkdtempSync(join(tmpdir(), 'engram-recall-quality-'));
  try {
    const quality = await runQualityOnSqlite(join(dir, 'recall-quality.db'), Number(values.seed));
    process.stdout.write(`${renderRecallQuality(quality)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
