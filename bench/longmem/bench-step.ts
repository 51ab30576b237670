import type { TargetRow } from '../report.js';
import type { Shape } from './generator.js';
import { runShape, type ShapeResult, VECTORS_NO_ASSOCIATIONS } from './harness.js';
import type { RecallRow } from './metrics.js';
import { f3, GOALS, meetsRatio, signed } from './report.js';
import { type Endpoint, startEndpoint } from './vectors.js';

/**
 * The long-memory step of `npm run bench`: bench/longmem on both shapes at two seeds, with the
 * default questions and with every fact asked two ways (`--asks 2`, the recurrence of the set
 * issue 25 was measured on), without vectors. Issues 25 and 28 ask for their targets in the
 * bench's rows; this step puts them there. `npx tsx bench/longmem/run.ts` prints the full tables.
 */

const LONGMEM_SEEDS = [42, 7] as const;
const LONGMEM_ASKS = [1, 2] as const;
const SHAPES: Shape[] = ['dialogue', 'notes'];

/** One run's figures, without the question traces (megabytes) the full result holds. */
export type LongmemRun = Omit<ShapeResult, 'questions'>;

/**
 * The plain runs; with `vectors`, the default questions once more with all-MiniLM-L6-v2 vectors
 * (vectors.ts starts the endpoint: about 2 minutes a set), for issue 25's rows on recall with vectors.
 */
export async function runLongmemStep(log: (message: string) => void, vectors: boolean): Promise<LongmemRun[]> {
  const runs: LongmemRun[] = [];
  const run = async (shape: Shape, seed: number, asks: number, endpoint: Endpoint | null) => {
    const started = performance.now();
    const { questions: _traces, ...result } = await runShape({ shape, seed, asks, endpoint, log: () => {} });
    runs.push(result);
    const label = `longmem ${shape} seed ${seed} asks ${asks}${endpoint ? ' with vectors' : ''}`;
    log(`${label}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  };
  for (const asks of LONGMEM_ASKS) {
    for (const seed of LONGMEM_SEEDS) for (const shape of SHAPES) await run(shape, seed, asks, null);
  }
  if (!vectors) return runs;
  const endpoint = await startEndpoint({ log });
  try {
    for (const seed of LONGMEM_SEEDS) for (const shape of SHAPES) await run(shape, seed, 1, endpoint);
  } finally {
    await endpoint.stop();
  }
  return runs;
}

const label = (run: LongmemRun) => `${run.shape} ${run.seed}`;

function byKind(run: LongmemRun, method: string): ShapeResult['methods'][number]['byKind'] | undefined {
  return run.methods.find((candidate) => candidate.name === method)?.byKind;
}

function noFeedback(run: LongmemRun): { before: RecallRow; after: RecallRow } | undefined {
  return run.learning.groups[run.learning.groups.length - 1];
}

/**
 * The targets of issues 25 and 28 this step can check, one row each, every run in the row: met
 * only when it holds on all of them.
 */
export function longmemTargets(all: readonly LongmemRun[]): TargetRow[] {
  const runs = all.filter((run) => run.embeddings === null);
  const withVectors = all.filter((run) => run.embeddings !== null);
  const rows: TargetRow[] = [];
  const row = (
    target: string,
    goal: string,
    of: readonly LongmemRun[],
    measure: (run: LongmemRun) => [string, boolean],
  ) => {
    if (of.length === 0) return;
    const measured = of.map((run) => {
      const [text, ok] = measure(run);
      return { text: `${label(run)} ${text}`, ok };
    });
    rows.push({
      target,
      measured: measured.map((m) => m.text).join(', '),
      reference: '',
      ratio: null,
      goal,
      met: measured.every((m) => m.ok),
    });
  };
  for (const asks of LONGMEM_ASKS) {
    const of = runs.filter((run) => run.asks === asks);
    row(`issue 25: learning gain R@5, test half (longmem, asks ${asks})`, '>= +0.10', of, (run) => {
      const gain = run.learning.after.all.r5 - run.learning.before.all.r5;
      return [`${signed(gain)} (oracle ${signed(run.learning.oracle)})`, gain >= GOALS.learningGain];
    });
    row(`issue 25: evidence without feedback, R@5 change (asks ${asks})`, '>= -0.01', of, (run) => {
      const group = noFeedback(run);
      const change = group ? group.after.r5 - group.before.r5 : Number.NaN;
      return [signed(change), !(change < GOALS.untouchedChange)];
    });
  }
  const plain = runs.filter((run) => run.asks === 1);
  row('issue 25: recall (no vectors) - searchMemories, R@5 (longmem)', '>= +0.03', plain, (run) => {
    const diff = (byKind(run, 'recall')?.all.r5 ?? Number.NaN) - (byKind(run, 'searchMemories')?.all.r5 ?? Number.NaN);
    return [signed(diff), diff >= GOALS.recallOverSearch];
  });
  // Issue 28: associations on against off, without vectors and with vectors on both sides.
  const associationRows = (of: readonly LongmemRun[], vectors: string, on: string, off: string) => {
    row(`issue 28: multi-hop R@5${vectors}, associations on / off (longmem)`, '>= 1.5x', of, (run) => {
      const onR5 = byKind(run, on)?.['multi-hop'].r5 ?? Number.NaN;
      const offR5 = byKind(run, off)?.['multi-hop'].r5 ?? Number.NaN;
      return [`x ${(onR5 / offR5).toFixed(2)}`, meetsRatio(onR5, offR5, GOALS.multiHopRatio)];
    });
    row(`issue 28: single-hop R@5${vectors}, associations on - off (longmem)`, '>= 0', of, (run) => {
      const diff =
        (byKind(run, on)?.['single-hop'].r5 ?? Number.NaN) - (byKind(run, off)?.['single-hop'].r5 ?? Number.NaN);
      return [signed(diff), diff >= 0];
    });
  };
  associationRows(plain, '', 'recall', 'recall, no associations');
  associationRows(withVectors, ' with vectors', 'recall with vectors', VECTORS_NO_ASSOCIATIONS);
  for (const k of ['r1', 'r5', 'r10'] as const) {
    const at = k.replace('r', 'R@');
    row(
      `issue 25: recall with vectors >= max(search, vectors alone), ${at} (longmem)`,
      'recall >= the better',
      withVectors,
      (run) => {
        const recall = byKind(run, 'recall with vectors')?.all[k] ?? Number.NaN;
        const better = Math.max(
          byKind(run, 'searchMemories')?.all[k] ?? Number.NaN,
          byKind(run, 'vector alone (cosine)')?.all[k] ?? Number.NaN,
        );
        return [`${f3(recall)} vs ${f3(better)}`, recall >= better];
      },
    );
  }
  return rows;
}

/** One line per run: the R@5 figures behind the target rows. */
export function renderLongmem(runs: readonly LongmemRun[]): string {
  const lines = [
    'Long-memory retrieval (bench/longmem; R@5; on a run with vectors, "recall" and "on" are recall with vectors and associations, "off" recall with vectors only; learning on the test half after feedback on the train half):',
    '',
    '| run | asks | search | recall | multi-hop off / on | single-hop off / on | learning gain | headroom / oracle | without feedback | recall p50 / p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const run of runs) {
    const search = byKind(run, 'searchMemories');
    const recall = byKind(run, run.embeddings ? 'recall with vectors' : 'recall');
    const off = byKind(run, run.embeddings ? VECTORS_NO_ASSOCIATIONS : 'recall, no associations');
    const l = run.learning;
    const group = noFeedback(run);
    const latency = run.latency[run.embeddings ? 'recall with vectors' : 'recall'];
    lines.push(
      `| ${label(run)}${run.embeddings ? ', vectors' : ''} | ${run.asks} | ${f3(search?.all.r5 ?? Number.NaN)} | ${f3(recall?.all.r5 ?? Number.NaN)} | ` +
        `${f3(off?.['multi-hop'].r5 ?? Number.NaN)} / ${f3(recall?.['multi-hop'].r5 ?? Number.NaN)} | ` +
        `${f3(off?.['single-hop'].r5 ?? Number.NaN)} / ${f3(recall?.['single-hop'].r5 ?? Number.NaN)} | ` +
        `${signed(l.after.all.r5 - l.before.all.r5)} | ${signed(l.headroom)} / ${signed(l.oracle)} | ` +
        `${group ? `${signed(group.after.r5 - group.before.r5)} (n ${group.before.n})` : 'n/a'} | ` +
        `${latency ? `${latency.p50.toFixed(2)} / ${latency.p95.toFixed(2)}` : 'n/a'} |`,
    );
  }
  return lines.join('\n');
}
