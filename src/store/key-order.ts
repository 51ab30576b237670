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

/** Ids in code-unit order, the order every store and walk breaks ties by. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
