/**
 * The HTTP load generator in a process of its own (http-bench.ts forks it for each load): the
 * bench process holds the generated graph, and its garbage collections would stall the client and
 * bill its CPU to the measurement. The request bodies come in as a pool, so each request costs
 * the client no JSON.stringify: autocannon builds each body's request bytes once and sends them
 * again on each pass over the pool. Each connection starts at its own offset in the pool, so the
 * connections do not ask for the same memory at the same moment. No pipelining: one request per
 * connection at a time, as real clients send them.
 */
import autocannon from 'autocannon';
import { quantile } from './lib/stats.js';

export interface LoadClientTask {
  url: string;
  headers: Record<string, string>;
  /** The request bodies, sent in turn and again from the start. */
  bodies: string[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** Client to parent: `measuring` as the measured run starts (the parent samples the server's CPU), then `done`. */
export type LoadClientMessage =
  | { kind: 'measuring' }
  | { kind: 'done'; result: ClientRun }
  | { kind: 'failed'; message: string };

export interface ClientRun {
  requests: number;
  /** Completed 2xx responses per second. */
  rps: number;
  /** Per-response latencies (ms, sub-millisecond resolution), from autocannon's response events. */
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time this client spent during the measured run (user + system, all threads), ms. */
  cpuMs: number;
}

interface Tally {
  requests: number;
  non2xx: number;
  errors: number;
  durationSeconds: number;
}

/** One autocannon instance of one connection, sending the pool from `offset` on. */
function connection(task: LoadClientTask, seconds: number, offset: number, latencies: number[]): Promise<Tally> {
  const rotated = [...task.bodies.slice(offset), ...task.bodies.slice(0, offset)];
  const headers = { 'content-type': 'application/json', ...task.headers };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${task.url}/graphql`,
        connections: 1,
        duration: seconds,
        requests: rotated.map((body) => ({ method: 'POST', path: '/graphql', headers, body })),
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          durationSeconds: result.duration || seconds,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/**
 * One run over `task.connections` connections. The client's CPU is counted from when every
 * connection's requests are built (autocannon builds them as it starts) to the last response, so
 * a short run is not billed for the set-up. `onStarted` runs at that start.
 */
async function run(task: LoadClientTask, seconds: number, onStarted: () => void = () => {}): Promise<ClientRun> {
  const latencies: number[] = [];
  const stride = Math.floor(task.bodies.length / task.connections);
  const running = Array.from({ length: task.connections }, (_, i) => connection(task, seconds, i * stride, latencies));
  onStarted();
  const before = process.cpuUsage();
  const tallies = await Promise.all(running);
  const cpu = process.cpuUsage(before);
  const sum = (pick: (tally: Tally) => number) => tallies.reduce((total, tally) => total + pick(tally), 0);
  const requests = sum((tally) => tally.requests);
  const non2xx = sum((tally) => tally.non2xx);
  latencies.sort((a, b) => a - b);
  return {
    requests,
    rps: (requests - non2xx) / Math.max(...tallies.map((tally) => tally.durationSeconds)),
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    non2xx,
    errors: sum((tally) => tally.errors),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

const tell = (message: LoadClientMessage) => process.send?.(message);

process.once('message', (task: LoadClientTask) => {
  void (async () => {
    try {
      if (task.warmupSeconds > 0) await run(task, task.warmupSeconds);
      const result = await run(task, task.seconds, () => tell({ kind: 'measuring' }));
      tell({ kind: 'done', result });
    } catch (error) {
      tell({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      process.disconnect();
    }
  })();
});
