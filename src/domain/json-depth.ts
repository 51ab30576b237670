/**
 * True when `value` nests objects and arrays more than `max` levels deep (a scalar is depth 0,
 * `{}` and `[]` depth 1). Walks with an explicit stack and stops at the first container past
 * `max`, so a value nested 100,000 levels costs `max` steps down one branch, never the call stack
 * that JSON.stringify or a recursive walk would overflow.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
