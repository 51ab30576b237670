import Database from 'better-sqlite3';
import { conflict, EngramError, unavailable } from '../../domain/errors.js';
import { ID_TAKEN, KEY_TAKEN, missingEndpoint } from '../shared/store-errors.js';

/** Another connection holds the lock this one needs (past busy_timeout, or at once where SQLite does not wait). */
export const isBusy = (error: unknown): error is InstanceType<typeof Database.SqliteError> =>
  error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');

/** Maps driver failures to coded errors once, so no raw SQLite error reaches a client. */
export function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngramError) throw error;
    if (error instanceof Database.SqliteError) {
      if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw conflict(error.message.includes('.key') ? KEY_TAKEN : ID_TAKEN);
      }
      if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw missingEndpoint();
      if (/^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL)/.test(error.code)) throw unavailable(error);
    }
    if (error instanceof TypeError && /database connection is not open/.test(error.message)) throw unavailable(error);
    throw error;
  }
}
