/** The weight history of an edge as a small step chart in plain SVG. */
import { formatDate, formatWeight, svg } from './dom.js';
import type { WeightHistoryEvent } from './types.js';

const WIDTH = 300;
const HEIGHT = 130;
const PAD = { left: 30, right: 10, top: 10, bottom: 22 };

export interface ChartInput {
  /** Newest first, as the API orders history. */
  history: readonly WeightHistoryEvent[];
  weight: number;
  createdAt: string;
  now?: Date;
}

/** The weight over time: where it started, each change, and its value now. */
function weightSeries(input: ChartInput): { at: number; weight: number }[] {
  const events = [...input.history].reverse();
  const start = Date.parse(input.createdAt);
  const end = (input.now ?? new Date()).getTime();
  const first = events[0];
  const points = [
    { at: Math.min(start, first ? Date.parse(first.at) : start), weight: first ? first.old : input.weight },
  ];
  for (const event of events) points.push({ at: Date.parse(event.at), weight: event.new });
  points.push({ at: Math.max(end, points[points.length - 1]?.at ?? end), weight: input.weight });
  return points;
}

export function renderWeightChart(input: ChartInput): SVGSVGElement {
  const points = weightSeries(input);
  const t0 = points[0]?.at ?? 0;
  const t1 = points[points.length - 1]?.at ?? t0;
  const span = Math.max(1, t1 - t0);
  const x = (at: number) => PAD.left + ((at - t0) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (weight: number) => PAD.top + (1 - weight) * (HEIGHT - PAD.top - PAD.bottom);

  // A step line: a weight holds until the next change.
  let d = '';
  points.forEach((point, index) => {
    const previous = points[index - 1];
    if (!previous) d += `M${x(point.at).toFixed(1)},${y(point.weight).toFixed(1)}`;
    else d += ` H${x(point.at).toFixed(1)} V${y(point.weight).toFixed(1)}`;
  });

  const changes = input.history.length;
  const firstWeight = points[0]?.weight ?? input.weight;
  const label =
    changes === 0
      ? `Weight history: ${formatWeight(input.weight)}, unchanged since creation`
      : `Weight history: from ${formatWeight(firstWeight)} to ${formatWeight(input.weight)} over ${changes} change${changes === 1 ? '' : 's'}`;

  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label });
  for (const level of [0, 0.5, 1]) {
    chart.append(
      svg('line', {
        class: level === 0 ? 'axis' : 'grid',
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: y(level),
        y2: y(level),
      }),
      svg('text', { x: PAD.left - 4, y: y(level) + 3, 'text-anchor': 'end' }, String(level)),
    );
  }
  chart.append(svg('line', { class: 'axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: HEIGHT - PAD.bottom }));
  chart.append(svg('path', { class: 'line', d }));
  for (const event of input.history) {
    chart.append(
      svg(
        'circle',
        { class: 'point', cx: x(Date.parse(event.at)), cy: y(event.new), r: 3.5 },
        svg(
          'title',
          {},
          `${formatDate(event.at)}: ${formatWeight(event.old)} → ${formatWeight(event.new)} (${event.source})`,
        ),
      ),
    );
  }
  const day = (at: number) => new Date(at).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  chart.append(
    svg('text', { x: PAD.left, y: HEIGHT - 6, 'text-anchor': 'start' }, day(t0)),
    svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 6, 'text-anchor': 'end' }, 'now'),
  );
  return chart;
}
