import type { WeightEventRecord } from '../domain/types.js';

/**
 * The orders every store answers in. Batch answers come back in key order (the port's rule, and
 * DataLoader's); ties break by id in code-unit order, so two stores give the same answer.
 */

/** Ids in code-unit order, the order every store and walk breaks ties by. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Edges (or anything weighted) strongest first, then id ascending. */
export const strongestFirst = (a: { weight: number; id: string }, b: { weight: number; id: string }): number =>
  b.weight - a.weight || compareIds(a.id, b.id);

/** Weight events newest first, then id descending (two events of one instant keep a fixed order). */
export const newestFirst = (a: WeightEventRecord, b: WeightEventRecord): number =>
  compareIds(b.at, a.at) || compareIds(b.id, a.id);

/** Each key once, in first-seen order: a batch statement needs each key once. */
export const uniqueKeys = (keys: readonly string[]): string[] => [...new Set(keys)];

/** What `found` holds for each key, in key order; `missing` in the slot of a key it lacks. */
export function inKeyOrder<V, M>(keys: readonly string[], found: ReadonlyMap<string, V>, missing: M): (V | M)[] {
  return keys.map((key) => (found.has(key) ? (found.get(key) as V) : missing));
}

/**
 * Rows grouped by the key each belongs to, one list per key in key order (empty where a key has no
 * rows); within a list, rows keep the order they came in.
 */
export function groupInKeyOrder<R, V>(
  keys: readonly string[],
  rows: Iterable<R>,
  keyOf: (row: R) => string,
  toValue: (row: R) => V,
): V[][] {
  const groups = new Map<string, V[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(toValue(row));
    else groups.set(key, [toValue(row)]);
  }
  return keys.map((key) => [...(groups.get(key) ?? [])]);
}

/**
 * Keeps at most `maxRows` entries over all lists, filling them in list (key) order, so a batch
 * answer is cut the same way by every store; null or undefined keeps everything.
 */
export function capInKeyOrder<T>(lists: T[][], maxRows: number | null | undefined): T[][] {
  if (maxRows == null) return lists;
  let left = maxRows;
  return lists.map((list) => {
    const kept = list.length <= left ? list : list.slice(0, Math.max(0, left));
    left -= kept.length;
    return kept;
  });
}
