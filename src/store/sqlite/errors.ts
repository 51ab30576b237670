import Database from 'better-sqlite3';
import { conflict, EngramError, unavailable } from '../../domain/errors.js';
import { ID_TAKEN, KEY_TAKEN, missingEndpoint } from '../shared/store-errors.js';

/** Another connection holds the lock this one needs (past busy_timeout, or at once where SQLite does not wait). */
export const isBusy = (error: unknown): error is InstanceType<typeof Database.SqliteError> =>
  error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');

/**
 * The coded error a driver failure stands for, by its SQLite result code (never by its wording):
 * a unique key taken is CONFLICT, an edge end missing NOT_FOUND, a lock, a full disk, an I/O error
 * or a closed connection UNAVAILABLE (retryable). Anything else is returned as it is, and the
 * GraphQL layer masks it as INTERNAL_SERVER_ERROR.
 */
export function toEngramError(error: unknown): unknown {
  if (error instanceof EngramError) return error;
  if (error instanceof Database.SqliteError) {
    if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return conflict(error.message.includes('.key') ? KEY_TAKEN : ID_TAKEN);
    }
    if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return missingEndpoint();
    if (/^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL)/.test(error.code)) return unavailable(error);
  }
  // better-sqlite3 throws a TypeError, not a SqliteError, for a statement on a closed connection.
  if (error instanceof TypeError && /database connection is not open/.test(error.message)) return unavailable(error);
  return error;
}

/**
 * Runs `work`, mapping what it throws with toEngramError. The store's port methods are mapped once,
 * where the store is assembled (sqlite-store.ts); this is for the handles a port method gives out
 * (a bulk load's `add` and `finish`), whose calls come later and outside that wrapper.
 */
export function mapErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw toEngramError(error);
  }
}
