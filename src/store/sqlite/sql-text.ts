/** SQLite has no LIMIT ALL inside a WHERE; the largest 32-bit count stands in for it. */
export const UNLIMITED = 2_147_483_647;

/** A list bound as one JSON parameter (see IDS). */
export const asJson = (values: readonly string[]): string => JSON.stringify(values);

/**
 * Lists are bound as one JSON parameter and unpacked with json_each, so a batch of any size uses
 * the same prepared statement.
 */
export const IDS = `SELECT value FROM json_each(?)`;

/** `alias.column` for each of the columns, each renamed `prefix + column` when a prefix is given. */
export function prefixed(alias: string, columns: string, prefix = ''): string {
  return columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}${prefix ? ` AS ${prefix}${column.trim()}` : ''}`)
    .join(', ');
}

/** The columns of a row named `prefix + column`, under their bare names. */
export function unprefix<T>(row: Record<string, unknown>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  }
  return out as T;
}
