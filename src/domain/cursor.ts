import { createHash } from 'node:crypto';
import { badInput } from './errors.js';

/*
 * Page cursors (API.md, "Pages"). A cursor carries the position in the list's own order (the sort
 * key of the last item, never an offset, so writes between pages neither skip nor repeat an item)
 * and fingerprints of the field, workspace and arguments it came from: a cursor handed to another
 * field, workspace or set of arguments is refused rather than silently read as a position there.
 */

interface CursorScope {
  /** The field the cursor pages, e.g. `Query.memoriesConnection`. */
  field: string;
  workspace: string;
  /** The arguments that shape the list (filters), without first/after. */
  args: Record<string, unknown>;
}

const fingerprint = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16);

const bindingOf = (scope: CursorScope): string => fingerprint([scope.field, scope.workspace, scope.args]);

export function encodeCursor(scope: CursorScope, position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(scope), p: position }), 'utf8').toString('base64url');
}

/** The position a cursor holds, or BAD_USER_INPUT naming `argument` when it is not one of this scope's. */
export function decodeCursor(scope: CursorScope, cursor: string, argument = 'after'): (string | number)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badInput(argument, 'not a cursor this server gave out');
  }
  const { b, p } = (parsed ?? {}) as { b?: unknown; p?: unknown };
  if (typeof b !== 'string' || !Array.isArray(p) || !p.every((v) => typeof v === 'string' || typeof v === 'number'))
    throw badInput(argument, 'not a cursor this server gave out');
  if (b !== bindingOf(scope))
    throw badInput(
      argument,
      'this cursor belongs to another list, workspace or set of arguments; start again without it',
    );
  return p;
}
