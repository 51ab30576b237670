import cluster, { type Worker } from 'node:cluster';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Config } from '../config.js';
import { closeLogs, type Logger } from '../logger.js';
import { createBudgetLender } from './budget-lender.js';
import { createMetricsCollector } from './cluster-metrics.js';
import { BACKGROUND_WORKER_ENV, isWorkerMessage, type PrimaryMessage, type WorkerMessage } from './messages.js';

/** Workers that die before listening this many times in a row mean start-up itself fails: stop. */
const MAX_FAILED_STARTS = 5;
/** Past the drain window, workers still running get this long before they are killed. */
const EXIT_MARGIN_MS = 5000;
/** How long the exit waits for the primary's buffered log lines. */
const LOG_FLUSH_TIMEOUT_MS = 1000;

/**
 * The primary process with ENGRAM_WORKERS > 1: it serves no request itself. It forks the workers
 * (each one is server.ts's single-process server, sharing the port through node:cluster, which
 * hands connections out round-robin), holds the state that must be one for all of them (the cost
 * budget's buckets, the merge of their metrics), starts a new worker when one dies, and on
 * SIGTERM/SIGINT passes the signal on to every worker, waits for each to drain and exit, and exits.
 */
export function startPrimary(deps: { config: Config; logger: Logger; announce: (port: number) => void }): void {
  const { config, logger, announce } = deps;
  const lender = createBudgetLender(config.rateLimit);
  const registry = new Registry();
  const metrics = createMetricsCollector(registry);
  const listeningGauge = new Gauge({
    name: 'engram_workers_listening',
    help: 'Worker processes serving requests.',
    registers: [registry],
  });
  const restarts = new Counter({
    name: 'engram_worker_restarts_total',
    help: 'Workers started again after one exited unasked.',
    registers: [registry],
  });

  const workers = new Set<Worker>();
  const listening = new Set<Worker>();
  let failedStarts = 0;
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  const exit = (code: number) => void closeLogs(logger, LOG_FLUSH_TIMEOUT_MS).finally(() => process.exit(code));

  const reply = (worker: Worker, id: number, answer: unknown) => {
    if (worker.isConnected()) worker.send({ engram: 'reply', id, answer } satisfies PrimaryMessage);
  };
  const receive = (worker: Worker, message: WorkerMessage) => {
    switch (message.engram) {
      case 'lease':
        reply(worker, message.id, lender.lend(message.workspace, message.need, message.want));
        return;
      case 'release':
        lender.refund(message.workspace, message.points);
        return;
      case 'metrics':
        void metrics.collect(listening).then((text) => reply(worker, message.id, text));
        return;
      case 'metrics-part':
        metrics.receive(message);
        return;
    }
  };

  // One worker slot runs the background work (the embeddings back-fill): in every worker, each
  // queued memory would go to the endpoint once per worker. A replacement keeps its slot's part.
  const background = new WeakSet<Worker>();
  const fork = (runsBackground: boolean) => {
    const worker = cluster.fork(runsBackground ? { [BACKGROUND_WORKER_ENV]: '1' } : {});
    if (runsBackground) background.add(worker);
    workers.add(worker);
    worker.on('message', (message: unknown) => {
      if (isWorkerMessage(message)) receive(worker, message);
    });
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    listeningGauge.set(listening.size);
    failedStarts = 0;
    if (!announced && listening.size === config.workers) {
      announced = true;
      announce(address.port);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const wasListening = listening.delete(worker);
    workers.delete(worker);
    listeningGauge.set(listening.size);
    if (stopping) {
      if (code !== 0 && code !== null) exitCode = 1;
      if (workers.size === 0) exit(exitCode);
      return;
    }
    if (!wasListening) failedStarts++;
    if (failedStarts >= MAX_FAILED_STARTS) {
      logger.error({ failedStarts }, 'workers keep exiting before they listen: stopping');
      exitCode = 1;
      stop('SIGTERM');
      return;
    }
    logger.warn({ worker: worker.id, code, signal }, 'worker exited; starting another');
    restarts.inc();
    setTimeout(() => fork(background.has(worker)), Math.min(5000, 100 * 2 ** failedStarts));
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: workers.size }, 'shutting down: every worker drains its requests');
    if (workers.size === 0) exit(exitCode);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error({ workers: workers.size }, 'workers still running past the drain window: killing them');
      for (const worker of workers) worker.process.kill('SIGKILL');
      exit(1);
    }, config.shutdownGraceMs + EXIT_MARGIN_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < config.workers; i++) fork(i === 0);
}
