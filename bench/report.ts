/** The benchmark's verdict against the targets, and the tables `npm run bench` prints. */
import type { LoadResult } from './http-bench.js';
import type { HubAttackResult } from './hub-attack.js';
import type { Summary } from './lib/stats.js';
import { type RecallBenchResult, renderRecallBench } from './recall-bench.js';
import type { PathComparison, Timed } from './store-bench.js';

export const TARGETS = {
  pathRatio: 3,
  httpPathP50Ratio: 1.3,
  neighborsRpsRatio: 0.6,
  importEdgesPerSecond: 200_000,
  largePathP95Ms: 20,
  largeRssBytes: 1.5 * 1024 ** 3,
};

export interface ImportRun {
  ms: number;
  memories: number;
  edges: number;
  /** Edges (memories) over the whole import (parse, validation, memories and edges). */
  edgesPerSecond: number;
  memoriesPerSecond: number;
  /** Time inside the store's import calls (importBatch, or the bulk load's add and finish). */
  storeMs: number;
  /** Whether it ran as one bulk load. */
  bulk: boolean;
}

/** engram import as it runs by default (a bulk load into the empty workspace), and batch by batch in the same run. */
export interface ImportResult extends ImportRun {
  ordinary: ImportRun;
}

export interface CallCount {
  adjacency: number;
  memory: number;
  total: number;
  byMethod: Record<string, number>;
}

export interface HttpResults {
  connections: { latency: number; throughput: number };
  floorLatency: LoadResult;
  floorThroughput: LoadResult;
  path: LoadResult;
  neighbors: LoadResult;
  pathThroughput: LoadResult;
  neighborsLatency: LoadResult;
  /** The same queries on Engram without its plugins (servers/bare-server.ts): what execution alone costs. */
  bare: { path: LoadResult; neighbors: LoadResult };
  serverRssBytes: number | null;
}

export interface TargetRow {
  target: string;
  measured: string;
  reference: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
}

export function evaluate(
  paths: PathComparison[],
  http: HttpResults | null,
  calls: CallCount,
  imported: ImportResult,
  mode: string,
  hub: HubAttackResult | null,
  recall: RecallBenchResult | null = null,
): TargetRow[] {
  const rows: TargetRow[] = [];
  if (recall) rows.push(...recallTargets(recall));
  if (hub) {
    rows.push({
      target: `hub under attack (${hub.hubEdges.toLocaleString('en-US')}-edge hub): another tenant's p99`,
      measured: `${fmt(hub.underAttack.p99)} ms`,
      reference: `${fmt(hub.alone.p99)} ms alone`,
      ratio: hub.underAttack.p99 / hub.alone.p99,
      goal: '< 50 ms',
      met: hub.underAttack.p99 < 50,
    });
  }
  for (const path of paths) {
    rows.push({
      target: `store path median, maxHops ${path.maxHops}`,
      measured: `${fmt(path.store.median)} ms (p95 ${fmt(path.store.p95)})`,
      reference: `CSR BFS ${fmt(path.bound.median)} ms (p95 ${fmt(path.bound.p95)})`,
      ratio: path.ratio,
      goal: `<= ${TARGETS.pathRatio}x`,
      met: path.ratio <= TARGETS.pathRatio && path.mismatches === 0,
    });
  }
  if (http) {
    const pathRatio = http.path.p50 / http.floorLatency.p50;
    rows.push({
      target: 'HTTP path (maxHops 6) p50, 1 connection',
      measured: `${fmt(http.path.p50)} ms`,
      reference: `floor ${fmt(http.floorLatency.p50)} ms`,
      ratio: pathRatio,
      goal: `<= ${TARGETS.httpPathP50Ratio}x`,
      met: pathRatio <= TARGETS.httpPathP50Ratio,
    });
    const neighborsRatio = http.neighbors.rps / http.floorThroughput.rps;
    rows.push({
      target: 'HTTP neighbors(limit:20){memory{title}}, 8 connections',
      measured: `${Math.round(http.neighbors.rps)} req/s`,
      reference: `floor ${Math.round(http.floorThroughput.rps)} req/s`,
      ratio: neighborsRatio,
      goal: `>= ${TARGETS.neighborsRpsRatio}x`,
      met: neighborsRatio >= TARGETS.neighborsRpsRatio,
    });
  }
  rows.push({
    target: 'neighbors of 100 memories, one query',
    measured: `${calls.adjacency} adjacency + ${calls.memory} memory calls`,
    reference: `${calls.total} store calls in all`,
    ratio: null,
    goal: 'exactly 1 + 1',
    met: calls.adjacency === 1 && calls.memory === 1,
  });
  rows.push({
    target: `bulk import (engram import, whole file${imported.bulk ? ', one bulk load' : ''})`,
    measured: `${Math.round(imported.edgesPerSecond).toLocaleString('en-US')} edges/s, ${Math.round(imported.memoriesPerSecond).toLocaleString('en-US')} memories/s`,
    reference: `batch by batch ${Math.round(imported.ordinary.edgesPerSecond).toLocaleString('en-US')} edges/s, ${Math.round(imported.ordinary.memoriesPerSecond).toLocaleString('en-US')} memories/s`,
    ratio: null,
    goal: `>= ${TARGETS.importEdgesPerSecond.toLocaleString('en-US')} edges/s`,
    met: imported.edgesPerSecond >= TARGETS.importEdgesPerSecond,
  });
  if (mode === 'large') {
    const six = paths.find((path) => path.maxHops === 6);
    rows.push({
      target: 'large: store path p95, maxHops 6',
      measured: `${fmt(six?.store.p95 ?? Number.NaN)} ms`,
      reference: '',
      ratio: null,
      goal: `<= ${TARGETS.largePathP95Ms} ms`,
      met: (six?.store.p95 ?? Infinity) <= TARGETS.largePathP95Ms,
    });
    if (http?.serverRssBytes) {
      rows.push({
        target: 'large: server RSS after warm-up and load',
        measured: `${(http.serverRssBytes / 1024 ** 3).toFixed(2)} GB`,
        reference: '',
        ratio: null,
        goal: '<= 1.5 GB',
        met: http.serverRssBytes <= TARGETS.largeRssBytes,
      });
    }
  }
  return rows;
}

export const fmt = (ms: number): string => (ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function render(results: {
  mode: string;
  spec: { memories: number; edges: number; seed: number };
  environment: { date: string; node: string; cpus: string; loadAverageAtStart?: number; loadAverageAtEnd?: number };
  import: ImportResult;
  index: { buildMs: number };
  paths: PathComparison[];
  storeReads: Timed[];
  storeWrites: Timed[];
  http: HttpResults | null;
  hubAttack: HubAttackResult | null;
  recall?: RecallBenchResult | null;
  targets: TargetRow[];
}): string {
  const { spec, environment } = results;
  const title =
    `Engram benchmark (${results.mode}): ${spec.memories.toLocaleString('en-US')} memories / ${spec.edges.toLocaleString('en-US')} edges, seed ${spec.seed}\n` +
    `${environment.date} · Node ${environment.node} · ${environment.cpus} · load average ${environment.loadAverageAtStart?.toFixed(1)} -> ${environment.loadAverageAtEnd?.toFixed(1)}`;
  const targets = table(
    ['target', 'measured', 'bound / floor', 'ratio', 'goal', 'met'],
    results.targets.map((row) => [
      row.target,
      row.measured,
      row.reference,
      row.ratio === null ? '' : `${row.ratio.toFixed(2)}x`,
      row.goal,
      row.met === null ? '' : row.met ? 'yes' : 'NO',
    ]),
  );
  const timing = (label: string, summary: Summary, extra = '') => [
    label,
    fmt(summary.median),
    fmt(summary.p95),
    String(summary.n),
    extra,
  ];
  const rows: string[][] = [];
  for (const path of results.paths) {
    rows.push(
      timing(
        `path maxHops ${path.maxHops} (store: index search)`,
        path.store,
        `${path.ratio.toFixed(2)}x bound; ${path.found}/${path.pairs} found; ${path.mismatches} hop mismatches`,
      ),
    );
    rows.push(timing(`path maxHops ${path.maxHops} (bound: CSR BFS)`, path.bound));
  }
  for (const row of [...results.storeReads, ...results.storeWrites])
    rows.push(timing(row.label, row.summary, row.note ?? ''));
  const operations = table(['operation (store level)', 'median ms', 'p95 ms', 'n', ''], rows);
  const sections = [title, targets, operations];
  if (results.http) {
    const h = results.http;
    const httpRow = (label: string, result: LoadResult) => [
      label,
      String(result.connections),
      fmt(result.p50),
      fmt(result.p95),
      String(Math.round(result.rps)),
      String(result.non2xx + result.errors),
    ];
    sections.push(
      table(
        ['HTTP (autocannon)', 'conn', 'p50 ms', 'p95 ms', 'req/s', 'failed'],
        [
          httpRow('floor: { hello }', h.floorLatency),
          httpRow('floor: { hello }', h.floorThroughput),
          httpRow('Engram: path maxHops 6', h.path),
          httpRow('Engram: path maxHops 6', h.pathThroughput),
          httpRow('Engram: memory { neighbors(limit: 20) { memory { title } } }', h.neighborsLatency),
          httpRow('Engram: memory { neighbors(limit: 20) { memory { title } } }', h.neighbors),
          httpRow('Engram without plugins: path maxHops 6', h.bare.path),
          httpRow('Engram without plugins: memory { neighbors(limit: 20) { memory { title } } }', h.bare.neighbors),
        ],
      ),
    );
  }
  if (results.hubAttack) {
    const hub = results.hubAttack;
    const outcomes = Object.entries(hub.attackOutcomes)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    sections.push(
      `${table(
        ['hub under attack (another tenant, 1 query / 20 ms)', 'n', 'p50 ms', 'p99 ms', 'max ms'],
        [
          ['alone', String(hub.alone.n), fmt(hub.alone.p50), fmt(hub.alone.p99), fmt(hub.alone.max)],
          [
            `during ${hub.attackRequests} attack requests (${outcomes})`,
            String(hub.underAttack.n),
            fmt(hub.underAttack.p50),
            fmt(hub.underAttack.p99),
            fmt(hub.underAttack.max),
          ],
        ],
      )}\nlongest event-loop block in the server during the attack: ${fmt(hub.eventLoopLagMaxMs ?? Number.NaN)} ms`,
    );
  }
  if (results.recall) sections.push(renderRecallBench(results.recall));
  const imported = results.import;
  sections.push(
    `import: ${imported.memories.toLocaleString('en-US')} memories + ${imported.edges.toLocaleString('en-US')} edges in ${(imported.ms / 1000).toFixed(1)} s · adjacency index built in ${(results.index.buildMs / 1000).toFixed(1)} s`,
  );
  return sections.join('\n\n');
}

/**
 * recall's store calls must not grow with the graph: seeds, one expandFrontier per hop, the
 * results' memories and paths, and the record's write. maxDepth + 5 leaves room for those and
 * nothing per node (a per-node loop would cost tens of calls at these sizes).
 */
function recallTargets(recall: RecallBenchResult): TargetRow[] {
  const rows: TargetRow[] = recall.latency.map((row) => ({
    target: `store calls per ${row.label}`,
    measured: `max ${row.calls.max} (mean ${row.calls.mean.toFixed(2)})`,
    reference: `p50 ${fmt(row.summary.median)} ms`,
    ratio: null,
    goal: `<= ${row.maxDepth + 5}`,
    met: row.calls.max <= row.maxDepth + 5,
  }));
  const { search, rounds } = recall.quality;
  const before = rounds[0];
  const after = rounds[rounds.length - 1];
  if (before && after) {
    rows.push({
      target: 'recall quality: hit@5 of the right memory (seeded known-answer graph)',
      measured: `recall ${before.hitAt5.toFixed(2)} -> ${after.hitAt5.toFixed(2)} after ${after.round} feedback rounds`,
      reference: `search ${search.hitAt5.toFixed(2)}`,
      ratio: null,
      goal: 'recall > search; feedback raises it',
      met: before.hitAt5 > search.hitAt5 && after.hitAt5 > before.hitAt5,
    });
  }
  return rows;
}
