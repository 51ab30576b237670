/** Order statistics over a sample of durations (ms). */
export interface Summary {
  n: number;
  median: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  // Nearest-rank on the sorted sample: p95 of 200 values is the 190th.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    median:
      sorted.length % 2 === 1 || sorted.length === 0
        ? quantile(sorted, 0.5)
        : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2,
    p95: quantile(sorted, 0.95),
    mean: sorted.length ? total / sorted.length : Number.NaN,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Milliseconds, with sub-microsecond resolution. */
export const now = (): number => performance.now();

export async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = now();
  const value = await work();
  return { ms: now() - start, value };
}
