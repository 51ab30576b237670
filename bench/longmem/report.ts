import { availableParallelism } from 'node:os';
import { QUESTION_KINDS } from './generator.js';
import { type ShapeResult, VECTORS_NO_ASSOCIATIONS } from './harness.js';
import { bridgingCeiling, type RecallRow } from './metrics.js';

/** A recall figure to three places; n/a when there was nothing to average. */
export const f3 = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
/** A change, with its sign. */
export const signed = (value: number) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(3)}` : 'n/a';

/**
 * The goals of issues 25 and 28 this benchmark checks: one place for a run's own table
 * (renderTargets) and `npm run bench`'s summary (bench-step.ts).
 */
export const GOALS = {
  /** Learning gain, R@5 of the test half. */
  learningGain: 0.1,
  /** The most R@5 the questions whose evidence got no feedback may lose (a change >= this). */
  untouchedChange: -0.01,
  /** Recall without vectors over searchMemories, R@5. */
  recallOverSearch: 0.03,
  /** Multi-hop R@5 with associations over without. */
  multiHopRatio: 1.5,
} as const;

/** `on / off` against a ratio goal as printed: in floating point 0.6 / 0.4 is 1.4999999999999998. */
export const meetsRatio = (on: number, off: number, goal: number) => off > 0 && on / off >= goal - 1e-9;

/** Markdown tables of one shape's run: recall@k by method and kind, the learning gain, latency, the targets. */
export function renderShape(result: ShapeResult): string {
  const cpus = availableParallelism();
  const int = (value: number) => value.toLocaleString('en-US');
  const c = result.counts;
  const edges = Object.entries(c.edges)
    .map(([type, count]) => `${type} ${int(count)}`)
    .join(', ');
  const kinds = QUESTION_KINDS.map((kind) => `${kind} ${c.questions[kind]}`).join(', ');
  const total = QUESTION_KINDS.reduce((sum, kind) => sum + c.questions[kind], 0);
  const lines: string[] = [];
  const asks = result.asks > 1 ? `, asks ${result.asks}` : '';
  lines.push(`### ${result.shape}: seed ${result.seed}, scale ${result.scale}${asks} (set ${result.fingerprint})`);
  lines.push('');
  lines.push(
    `${int(c.memories)} memories in ${c.groups} ${result.shape === 'dialogue' ? 'conversations' : 'projects'}, ${edges}; ` +
      `${total} questions (${kinds}). Code: ${result.code}. Loaded through importGraph in ${(result.loadMs / 1000).toFixed(1)} s.` +
      (result.embeddings
        ? ` Embeddings: ${result.embeddings.model} (${result.embeddings.dims} dimensions, ${result.embeddings.backend}), ${int(result.embeddings.stored)} vectors stored by the back-fill in ${(result.embeddings.ms / 1000).toFixed(1)} s.`
        : ''),
  );
  lines.push('');
  lines.push(
    `Evidence recall@k (every method asked for 10 results): the share of a question's evidence memories in the first k results, averaged over questions.`,
  );
  lines.push('');
  lines.push('| method | kind | n | R@1 | R@5 | R@10 |');
  lines.push('|---|---|---|---|---|---|');
  for (const method of result.methods) {
    for (const kind of ['all', ...QUESTION_KINDS] as const) {
      const row = method.byKind[kind];
      const label = kind === 'all' ? `**${method.name}**` : method.name;
      const k = kind === 'all' ? '**all**' : kind;
      lines.push(`| ${label} | ${k} | ${row.n} | ${f3(row.r1)} | ${f3(row.r5)} | ${f3(row.r10)} |`);
    }
  }
  lines.push('');

  const l = result.learning;
  lines.push(
    `Learning gain (${l.method}): ${l.train} train questions recalled and given feedback by recallId ` +
      `(${int(l.feedback.used + l.feedback.notUseful)} feedback calls: ${int(l.feedback.used)} USED, ${int(l.feedback.notUseful)} NOT_USEFUL` +
      `${l.feedback.failed ? `, ${l.feedback.failed} failed: ${l.feedback.firstError}` : ''}); ` +
      `the ${l.test} test questions measured before and after (${l.changed} of them got a different top 10). ` +
      `Headroom: the most any learning from USED could add to the test half's R@5 is ${signed(l.headroom)} ` +
      "(evidence some train recall returned and got USED on, missing from the test question's first top 5). " +
      `An oracle that knew the answers would gain ${signed(l.oracle)} from the same feedback (every USED evidence memory in front, every NOT_USEFUL memory dropped unless it is the question's own evidence).`,
  );
  const r = l.reach;
  if (r.shared > 0)
    lines.push(
      '',
      `Reach: of the test half's ${int(r.shared)} evidence memories that a train question shares, ${int(r.inTop5)} are in the top 5 after feedback; ` +
        `of the rest, ${int(r.neverUsed)} no train recall returned (nothing marked them USED), ${int(r.noCue)} were marked USED by train questions none of whose cues the test question matches, ` +
        `and ${int(r.belowTop5)} have a matching cue and still rank below 5.`,
    );
  lines.push('');
  lines.push('| test questions | n | R@5 before | R@5 after | gain R@5 | R@10 before | R@10 after | gain R@10 |');
  lines.push('|---|---|---|---|---|---|---|---|');
  const gainRow = (label: string, before: RecallRow, after: RecallRow) =>
    `| ${label} | ${before.n} | ${f3(before.r5)} | ${f3(after.r5)} | ${signed(after.r5 - before.r5)} | ${f3(before.r10)} | ${f3(after.r10)} | ${signed(after.r10 - before.r10)} |`;
  for (const kind of ['all', ...QUESTION_KINDS] as const) {
    lines.push(gainRow(kind === 'all' ? '**all**' : kind, l.before[kind], l.after[kind]));
  }
  for (const group of l.groups) lines.push(gainRow(group.label, group.before, group.after));
  lines.push('');

  lines.push(
    `Latency of every request of the first pass, through app.fetch in this process (no socket); machine load average ${result.loadAverage[0].toFixed(1)} at the start, ${result.loadAverage[1].toFixed(1)} at the end, on ${cpus} cores.`,
  );
  lines.push('');
  lines.push('| request (in process, limit 10) | n | p50 ms | p95 ms | mean ms |');
  lines.push('|---|---|---|---|---|');
  for (const [name, summary] of Object.entries(result.latency)) {
    lines.push(
      `| ${name} | ${summary.n} | ${summary.p50.toFixed(2)} | ${summary.p95.toFixed(2)} | ${summary.mean.toFixed(2)} |`,
    );
  }
  lines.push('');

  lines.push(...renderTargets(result));
  if (result.findings.length > 0) {
    lines.push('');
    lines.push('Findings:');
    for (const finding of result.findings) lines.push(`- ${finding}`);
  }
  return lines.join('\n');
}

function renderTargets(result: ShapeResult): string[] {
  const method = (name: string) => result.methods.find((m) => m.name === name)?.byKind.all;
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  const rows: string[] = ['| target | measured | met |', '|---|---|---|'];
  const l = result.learning;
  const gain = l.after.all.r5 - l.before.all.r5;
  rows.push(
    `| learning gain >= +0.10 R@5 (test half) | ${signed(gain)} (${f3(l.before.all.r5)} -> ${f3(l.after.all.r5)}; headroom +${f3(l.headroom)}, oracle ${signed(l.oracle)}) | ${yes(gain >= GOALS.learningGain)} |`,
  );
  const untouched = l.groups[l.groups.length - 1];
  if (untouched && untouched.n > 0) {
    const loss = untouched.after.r5 - untouched.before.r5;
    rows.push(
      `| questions whose evidence got no feedback lose <= 0.01 R@5 | ${signed(loss)} (n ${untouched.n}) | ${yes(loss >= GOALS.untouchedChange)} |`,
    );
  }
  const search = method('searchMemories');
  const plain = method('recall') ?? method('recall, no vectors');
  if (search && plain) {
    const diff = plain.r5 - search.r5;
    rows.push(
      `| recall (no vectors) >= searchMemories + 0.03 R@5 | ${f3(plain.r5)} vs ${f3(search.r5)} (${signed(diff)}) | ${yes(diff >= GOALS.recallOverSearch)} |`,
    );
  }
  // Issue 28: associations against today's recall (the same store, recall following edges only).
  const kindOf = (name: string, kind: 'multi-hop' | 'single-hop') =>
    result.methods.find((m) => m.name === name)?.byKind[kind];
  const withAssociations = result.methods.some((m) => m.name === 'recall') ? 'recall' : 'recall, no vectors';
  /** Multi-hop and single-hop R@5 of `on` against `off`, when the run has both; `detail` adds to the ratio's note. */
  const associationRows = (label: string, off: string, on: string, detail: (offR5: number) => string = () => '') => {
    const [multiOff, multiOn] = [kindOf(off, 'multi-hop'), kindOf(on, 'multi-hop')];
    const [singleOff, singleOn] = [kindOf(off, 'single-hop'), kindOf(on, 'single-hop')];
    if (!multiOff || !multiOn || !singleOff || !singleOn) return;
    const ratio = multiOff.r5 > 0 ? multiOn.r5 / multiOff.r5 : Number.NaN;
    rows.push(
      `| ${label}: multi-hop R@5 with associations >= 1.5 x without | ${f3(multiOn.r5)} vs ${f3(multiOff.r5)} (x ${ratio.toFixed(2)}${detail(multiOff.r5)}) | ${yes(meetsRatio(multiOn.r5, multiOff.r5, GOALS.multiHopRatio))} |`,
      `| ${label}: single-hop R@5 not lower with associations | ${f3(singleOn.r5)} vs ${f3(singleOff.r5)} | ${yes(singleOn.r5 >= singleOff.r5)} |`,
    );
  };
  associationRows('issue 28', 'recall, no associations', withAssociations, (offR5) => {
    const unassociated = result.questions
      .filter((question) => question.kind === 'multi-hop')
      .map((question) => ({ ...question, ranked: question.ranked['recall, no associations'] ?? [] }));
    const ceiling = (from: number) => f3(bridgingCeiling(unassociated, from));
    return `; 1.5 x is ${f3(1.5 * offR5)}; bridging ceiling ${ceiling(5)} from the top 5, ${ceiling(10)} from the top 10`;
  });
  // With vectors, the same comparison: associations (with the bridges the question's vector chooses) on and off.
  associationRows('issue 28, with vectors', VECTORS_NO_ASSOCIATIONS, 'recall with vectors');
  const vectors = method('recall with vectors');
  const alone = method('vector alone (cosine)');
  if (vectors && alone && search) {
    for (const k of ['r1', 'r5', 'r10'] as const) {
      const better = Math.max(search[k], alone[k]);
      rows.push(
        `| recall with vectors >= max(lexical, vector alone) at ${k.replace('r', 'R@')} | ${f3(vectors[k])} vs max(${f3(search[k])}, ${f3(alone[k])}) | ${yes(vectors[k] >= better)} |`,
      );
    }
  }
  return rows;
}
