/**
 * Issue 24's admission measured over HTTP, on the benchmark graph, with the server in its own
 * process (servers/engram-server.ts, every production plugin):
 *
 * - A/B: the scheduler off (ENGRAM_CONCURRENCY=0) and on (the default), in the order off, on, on,
 *   off, so drift in the machine's load weighs on both: path p50 on one connection and neighbours
 *   throughput on 8, as the HTTP rows measure them;
 * - a lone client at the defaults: a mix of recall, path, neighbours, search and feedback from 16
 *   connections, requests per second and refusals;
 * - two greedy workspaces, 8 connections each, the same mix: each one's share of the completed
 *   requests, scheduler on and off;
 * - heavy against light: one workspace reads two levels of neighbours from the top hub (50 x 50),
 *   the other one level from random memories, 8 connections each: what each gets, scheduler on and off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { type GeneratedGraph, generateGraph, randomPairs } from './generator.js';
import { type LoadResult, load, NEIGHBORS, PATH, probe, startServer } from './http-bench.js';
import { importGraph, writeNdjson } from './import-run.js';
import { runIfMain } from './lib/main.js';
import { fmt, table } from './report.js';

export interface AdmissionBodies {
  path(): string;
  neighbors(): string;
  /** Two levels of neighbours from the top hub. */
  heavy(): string;
  /** The lone client's and the greedy workspaces' mix, request by request. */
  mixed(): string;
}

export interface AdmissionBenchInput {
  /** The production environment of the server, with API keys for both workspaces. */
  env: Record<string, string>;
  /** Headers that select each workspace. */
  first: Record<string, string>;
  second: Record<string, string>;
  bodies: AdmissionBodies;
  seconds: number;
  warmupSeconds: number;
}

interface Arm {
  pathP50: number;
  neighborsRps: number;
}

export interface SharedRun {
  first: LoadResult;
  second: LoadResult;
  /** The first workspace's share of the requests both completed. */
  share: number;
}

export interface AdmissionBenchResult {
  ab: { off: Arm; on: Arm; rounds: { scheduler: 'off' | 'on'; pathP50: number; neighborsRps: number }[] };
  lone: LoadResult;
  greedy: { on: SharedRun; off: SharedRun };
  heavyLight: { on: SharedRun; off: SharedRun };
}

const SCHEDULER_OFF = { ENGRAM_CONCURRENCY: '0' };

const RECALL = 'query Recall($q: String!) { recall(query: $q, limit: 10) { results { score memory { id title } } } }';
const SEARCH = 'query Search($q: String!) { searchMemories(query: $q, limit: 10) { id title } }';
const FEEDBACK = 'mutation Feedback($id: ID!) { feedback(memoryId: $id, signal: NOT_USEFUL) { newWeight } }';
const HUB_FAN =
  'query Fan($id: ID!) { memory(id: $id) { neighbors(limit: 50) { memory { neighbors(limit: 50) { memory { title } } } } } }';

/** The rows' request bodies on the benchmark graph: memories and words from the seeded pairs. */
export function admissionBodies(graph: GeneratedGraph, pairs: readonly [number, number][]): AdmissionBodies {
  let at = 0;
  const pick = () => pairs[at++ % pairs.length] as [number, number];
  const words = (index: number) => graph.memory(index).title.split(' ').slice(0, 2).join(' ');
  const path = () => {
    const [a, b] = pick();
    return JSON.stringify({ query: PATH, variables: { from: graph.ids[a], to: graph.ids[b] } });
  };
  const neighbors = () => JSON.stringify({ query: NEIGHBORS, variables: { id: graph.ids[pick()[0]] } });
  let turn = 0;
  const mixed = () => {
    const [a] = pick();
    switch (turn++ % 5) {
      case 0:
        return JSON.stringify({ query: RECALL, variables: { q: words(a) } });
      case 1:
        return path();
      case 2:
        return neighbors();
      case 3:
        return JSON.stringify({ query: SEARCH, variables: { q: words(a) } });
      default:
        return JSON.stringify({ query: FEEDBACK, variables: { id: graph.ids[a] } });
    }
  };
  const heavy = () => JSON.stringify({ query: HUB_FAN, variables: { id: graph.ids[graph.topHub.index] } });
  return { path, neighbors, mixed, heavy };
}

export async function runAdmissionBench(input: AdmissionBenchInput): Promise<AdmissionBenchResult> {
  const timing = { seconds: input.seconds, warmupSeconds: input.warmupSeconds };
  const withServer = async <T>(env: Record<string, string>, measure: (url: string) => Promise<T>): Promise<T> => {
    const server = await startServer('./servers/engram-server.ts', { ...input.env, ...env });
    try {
      for (const body of [input.bodies.path(), input.bodies.neighbors(), input.bodies.heavy()]) {
        await probe(server.url, input.first, body);
      }
      for (let i = 0; i < 10; i++) await probe(server.url, input.second, input.bodies.mixed());
      return await measure(server.url);
    } finally {
      await server.stop();
    }
  };
  const run = (url: string, headers: Record<string, string>, body: () => string, connections: number) =>
    load({ url, headers, body, connections, ...timing });
  const shared = async (url: string, first: () => string, second: () => string): Promise<SharedRun> => {
    const [a, b] = await Promise.all([run(url, input.first, first, 8), run(url, input.second, second, 8)]);
    return { first: a, second: b, share: a.rps / (a.rps + b.rps) };
  };

  const rounds: AdmissionBenchResult['ab']['rounds'] = [];
  for (const scheduler of ['off', 'on', 'on', 'off'] as const) {
    await withServer(scheduler === 'off' ? SCHEDULER_OFF : {}, async (url) => {
      const path = await run(url, input.first, input.bodies.path, 1);
      const neighbors = await run(url, input.first, input.bodies.neighbors, 8);
      rounds.push({ scheduler, pathP50: path.p50, neighborsRps: neighbors.rps });
    });
  }
  const arm = (scheduler: 'off' | 'on'): Arm => {
    const mine = rounds.filter((round) => round.scheduler === scheduler);
    const mean = (pick: (round: (typeof rounds)[number]) => number) =>
      mine.reduce((sum, round) => sum + pick(round), 0) / mine.length;
    return { pathP50: mean((round) => round.pathP50), neighborsRps: mean((round) => round.neighborsRps) };
  };

  const lone = await withServer({}, (url) => run(url, input.first, input.bodies.mixed, 16));
  const contended = (env: Record<string, string>) =>
    withServer(env, async (url) => ({
      greedy: await shared(url, input.bodies.mixed, input.bodies.mixed),
      heavyLight: await shared(url, input.bodies.heavy, input.bodies.neighbors),
    }));
  const on = await contended({});
  const off = await contended(SCHEDULER_OFF);
  return {
    ab: { off: arm('off'), on: arm('on'), rounds },
    lone,
    greedy: { on: on.greedy, off: off.greedy },
    heavyLight: { on: on.heavyLight, off: off.heavyLight },
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const rps = (result: LoadResult) => Math.round(result.rps).toLocaleString('en-US');

export function renderAdmissionBench(result: AdmissionBenchResult): string {
  const { ab, lone, greedy, heavyLight } = result;
  const rows = [
    [
      'A/B: path p50, 1 connection (ms)',
      fmt(ab.off.pathP50),
      fmt(ab.on.pathP50),
      `${(ab.on.pathP50 / ab.off.pathP50).toFixed(2)}x`,
    ],
    [
      'A/B: neighbors, 8 connections (req/s)',
      Math.round(ab.off.neighborsRps).toLocaleString('en-US'),
      Math.round(ab.on.neighborsRps).toLocaleString('en-US'),
      `${(ab.on.neighborsRps / ab.off.neighborsRps).toFixed(2)}x`,
    ],
    [
      'lone client, 16 connections, mixed (req/s; refused; p50 / p99 ms)',
      '',
      `${rps(lone)}; ${lone.non2xx} refused of ${lone.requests.toLocaleString('en-US')}; ${fmt(lone.p50)} / ${fmt(lone.p99)}`,
      '',
    ],
    [
      'two greedy workspaces x 8 connections, mixed (share each; refused)',
      `${pct(greedy.off.share)} / ${pct(1 - greedy.off.share)}; ${greedy.off.first.non2xx + greedy.off.second.non2xx}`,
      `${pct(greedy.on.share)} / ${pct(1 - greedy.on.share)}; ${greedy.on.first.non2xx + greedy.on.second.non2xx}`,
      '',
    ],
    [
      'heavy (hub, 2 levels of neighbors) vs light (neighbors), 8 connections each: req/s each; light p50 ms',
      `${rps(heavyLight.off.first)} / ${rps(heavyLight.off.second)}; ${fmt(heavyLight.off.second.p50)}`,
      `${rps(heavyLight.on.first)} / ${rps(heavyLight.on.second)}; ${fmt(heavyLight.on.second.p50)}`,
      '',
    ],
  ];
  return `admission (issue 24): the fair scheduler off (ENGRAM_CONCURRENCY=0) and on (default 8)\n${table(['measure', 'scheduler off', 'scheduler on', 'on / off'], rows)}`;
}

/**
 * Alone: `npx tsx bench/admission-bench.ts [--quick] [--seconds N]` generates the benchmark graph
 * (100k / 500k, or 10k / 50k with --quick), loads it into two workspaces and prints the rows.
 */
async function standalone(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      seed: { type: 'string', default: '42' },
    },
  });
  const seed = Number(values.seed);
  const spec = values.quick ? { memories: 10_000, edges: 50_000 } : { memories: 100_000, edges: 500_000 };
  const dir = mkdtempSync(join(tmpdir(), 'engram-admission-'));
  try {
    const dbPath = join(dir, 'engram.db');
    const graph = generateGraph({ ...spec, seed });
    const file = join(dir, 'graph.ndjson');
    await writeNdjson(graph, file);
    const config = loadConfig({ ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'silent' });
    const keys = {
      first: 'bench-key-0123456789abcdef0123456789abcdef',
      second: 'bench-key-b123456789abcdef0123456789abcdef',
    };
    for (const workspace of ['bench', 'bench-b']) await importGraph(workspace, file, dbPath, config, 'auto');
    const result = await runAdmissionBench({
      env: {
        NODE_ENV: 'production',
        ENGRAM_MODE: 'production',
        ENGRAM_SQLITE_PATH: dbPath,
        ENGRAM_API_KEYS: `${keys.first}=bench:write,${keys.second}=bench-b:write`,
        BENCH_WORKSPACE: 'bench,bench-b',
      },
      first: { authorization: `Bearer ${keys.first}` },
      second: { authorization: `Bearer ${keys.second}` },
      bodies: admissionBodies(graph, randomPairs(graph, 200, seed + 1)),
      seconds: Number(values.seconds ?? (values.quick ? 2 : 8)),
      warmupSeconds: values.quick ? 0.5 : 2,
    });
    process.stdout.write(`${renderAdmissionBench(result)}\n\n${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, standalone);
