import { isRetryableError, Neo4jError } from 'neo4j-driver';
import { conflict, EngramError, unavailable } from '../../domain/errors.js';
import { ID_OR_KEY_TAKEN } from '../shared/store-errors.js';

/**
 * How a driver failure reads to Engram:
 * - `unavailable`: the server is down, unreachable, busy or too slow (the driver gave up retrying,
 *   a transaction or lock wait timed out, the pool had no connection in time): safe to retry;
 * - `misconfigured`: the server answered but refuses us (credentials, privileges, database name):
 *   retrying will not help; at start-up this stops the process with a message naming the variable;
 * - `conflict`: a uniqueness constraint said no;
 * - `other`: a bug (a bad statement, a corrupted graph): left as is, so it is masked and logged.
 */
export type Neo4jFailure = 'unavailable' | 'misconfigured' | 'conflict' | 'other';

const MISCONFIGURED = new Set([
  'Neo.ClientError.Security.Unauthorized',
  'Neo.ClientError.Security.Forbidden',
  'Neo.ClientError.Security.CredentialsExpired',
  'Neo.ClientError.Security.TokenExpired',
  'Neo.ClientError.Database.DatabaseNotFound',
]);

const UNAVAILABLE = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.ClientError.Security.AuthenticationRateLimit',
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
  'Neo.ClientError.Transaction.LockClientStopped',
  'Neo.ClientError.Cluster.NotALeader',
  'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase',
  'Neo.DatabaseError.General.DatabaseUnavailable',
]);

/** Driver-side failures without a server code ("N/A"): connection pool and socket trouble. */
const CONNECTION_TROUBLE =
  /acquisition timed out|pool is closed|closed session|connection (was )?closed|failed to connect|could not perform discovery|no routing servers|econnrefused|econnreset|etimedout|enotfound|socket/i;

export function classifyNeo4jError(error: unknown): Neo4jFailure {
  if (!(error instanceof Neo4jError)) return 'other';
  const code = error.code ?? '';
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') return 'conflict';
  if (MISCONFIGURED.has(code)) return 'misconfigured';
  if (UNAVAILABLE.has(code) || code.startsWith('Neo.TransientError.') || isRetryableError(error)) return 'unavailable';
  if (CONNECTION_TROUBLE.test(error.message)) return 'unavailable';
  return 'other';
}

/**
 * The one mapping from driver failures to coded errors. Domain errors thrown inside a transaction
 * function pass through unchanged; no server text (which may name hosts or values) reaches the
 * message, only `cause`.
 */
export function toEngramError(error: unknown, conflictMessage = ID_OR_KEY_TAKEN): unknown {
  if (error instanceof EngramError) return error;
  switch (classifyNeo4jError(error)) {
    case 'conflict':
      return conflict(conflictMessage, error);
    case 'unavailable':
    case 'misconfigured':
      return unavailable(error);
    default:
      return error;
  }
}

/** A CONFLICT that a uniqueness constraint raised (not one the store threw itself, like a double revert). */
export function isConstraintConflict(error: unknown): error is EngramError {
  return error instanceof EngramError && error.code === 'CONFLICT' && classifyNeo4jError(error.cause) === 'conflict';
}
