import type { Server, ServerResponse } from 'node:http';
import type { Config } from './config.js';
import { closeLogs, type Logger } from './logger.js';
import type { GraphStore } from './store/port.js';

/** How long the listener stays open after the signal, for requests already on their way (at most the drain window). */
const ACCEPT_WINDOW_MS = 1000;
/** How long the exit waits for buffered log lines to be written. */
const LOG_FLUSH_TIMEOUT_MS = 1000;

export interface Drain {
  /** Wraps the request handler: counts the request and, during the drain, answers it with Connection: close. */
  handle(response: ServerResponse, next: () => void): void;
  readonly draining: boolean;
  /** Begins the drain as the signal would (a worker whose primary is gone). */
  stop(signal: NodeJS.Signals): void;
}

/**
 * Graceful drain of an HTTP/1.1 server whose clients keep connections alive, then the store's
 * close and the exit. A client may write its next request on a pooled connection at the very
 * moment the server closes that connection as idle: the request is lost to a reset, and the
 * client cannot tell whether it ran. So on SIGTERM or SIGINT:
 * - /ready answers 503 at once (load balancers stop routing here);
 * - every response not yet started, and every later one, carries `Connection: close`, so the
 *   client takes that connection out of its pool and Node closes it once the response is sent;
 * - for ACCEPT_WINDOW_MS the server still accepts connections and serves requests on idle ones;
 *   then Node's server.close() stops the listener and closes the connections still idle (a client
 *   that has sent nothing for that long sees a clean FIN) and reports when the last one is gone;
 * - when none is left, or the drain window (ENGRAM_SHUTDOWN_GRACE_MS) is over and the rest are
 *   cut, the store is closed (SQLite checkpoints its WAL) and the process exits.
 * (http-terminator stops accepting and closes idle connections at the signal, which is the reset
 * race above; Node's own close does the connection bookkeeping once the window is over.)
 */
export function installShutdown(deps: {
  server: Server;
  store: GraphStore;
  logger: Logger;
  config: Config;
  /** Background work on the store (the embedding back-fill), stopped before the store closes. */
  stopBackground?: () => Promise<void>;
}): Drain {
  const { server, store, logger, config } = deps;
  const responses = new Set<ServerResponse>();
  let draining = false;
  let finished = false;

  const finish = async (signal: NodeJS.Signals, forced: boolean) => {
    if (finished) return;
    finished = true;
    if (forced) {
      logger.warn(
        { inFlight: responses.size, graceMs: config.shutdownGraceMs },
        'drain window over: closing the connections still open',
      );
      server.closeAllConnections();
    }
    try {
      await deps.stopBackground?.();
      await store.close();
      logger.info('store closed; bye');
    } catch (error) {
      logger.error({ err: error }, 'closing the store failed');
      process.exitCode = 1;
    }
    // A log pipe nobody reads must not hold the exit: what it does not take in time is dropped.
    if ((await closeLogs(logger, LOG_FLUSH_TIMEOUT_MS)) === 'stuck') {
      // A log write is blocked in the kernel, and process.exit() would wait for the thread doing
      // it. The store is closed: end the way an unhandled signal does (no exit hooks to wait on).
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit();
  };

  const begin = (signal: NodeJS.Signals) => {
    if (draining) return;
    draining = true;
    logger.info(
      { signal, inFlight: responses.size, graceMs: config.shutdownGraceMs },
      'shutting down: /ready is 503, draining requests',
    );
    for (const response of responses) if (!response.headersSent) response.setHeader('connection', 'close');
    setTimeout(
      () => server.close(() => void finish(signal, false)),
      Math.min(ACCEPT_WINDOW_MS, config.shutdownGraceMs),
    ).unref();
    setTimeout(() => void finish(signal, true), config.shutdownGraceMs).unref();
  };
  process.on('SIGTERM', () => begin('SIGTERM'));
  process.on('SIGINT', () => begin('SIGINT'));

  return {
    handle(response, next) {
      responses.add(response);
      if (draining) response.setHeader('connection', 'close');
      response.once('close', () => responses.delete(response));
      next();
    },
    get draining() {
      return draining;
    },
    stop: begin,
  };
}
