import { randomUUID } from 'node:crypto';
import { createApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { NEO4J_BATCH_SIZE } from '../src/store/neo4j/adapter.js';
import type { DriverLike, SessionLike, TransactionLike } from '../src/store/neo4j/driver.js';
import type { GraphStore, ImportBatch, ImportEdge } from '../src/store/port.js';
import { type GeneratedGraph, importBatches } from './generator.js';
import { createRng, randomInt } from './lib/rng.js';
import { now } from './lib/stats.js';

/**
 * What the Neo4j bench measures through: the graph loaded into a store as `engram import` loads it,
 * the app over a store, and wrappers that count store calls and Bolt transactions and statements.
 */

export const WORKSPACE = 'bench';
/** Evidence edges added to the generated graph (which has none), into the first JUDGED memories. */
const JUDGED = 200;
const EVIDENCE_TYPES = ['VALIDATES', 'REPLICATES', 'CONTRADICTS', 'EXTENDS'];

/** Counts transactions and statements that go through the driver. */
export function countingDriver(driver: DriverLike): {
  driver: DriverLike;
  counts: { transactions: number; statements: number };
} {
  const counts = { transactions: 0, statements: 0 };
  const wrapTx = (tx: TransactionLike): TransactionLike => ({
    run(query, parameters) {
      counts.statements++;
      return tx.run(query, parameters);
    },
  });
  const wrapSession = (session: SessionLike): SessionLike => ({
    executeRead: (work, settings) => {
      counts.transactions++;
      return session.executeRead((tx) => work(wrapTx(tx)), settings);
    },
    executeWrite: (work, settings) => {
      counts.transactions++;
      return session.executeWrite((tx) => work(wrapTx(tx)), settings);
    },
    beginTransaction: (settings) => {
      counts.transactions++;
      const tx = session.beginTransaction(settings);
      return { ...wrapTx(tx), commit: () => tx.commit(), rollback: () => tx.rollback() };
    },
    run: (query, parameters, settings) => {
      counts.transactions++;
      counts.statements++;
      return session.run(query, parameters, settings);
    },
    close: () => session.close(),
  });
  return {
    driver: { session: (settings) => wrapSession(driver.session(settings)), close: () => driver.close() },
    counts,
  };
}

export function evidenceEdges(graph: GeneratedGraph, seed: number): ImportEdge[] {
  const rng = createRng(seed ^ 0xe71d);
  const seen = new Set<string>();
  const edges: ImportEdge[] = [];
  while (edges.length < JUDGED * 10) {
    const to = randomInt(rng, JUDGED);
    const from = JUDGED + randomInt(rng, graph.spec.memories - JUDGED);
    const type = EVIDENCE_TYPES[randomInt(rng, EVIDENCE_TYPES.length)] as string;
    const key = `${from}:${to}:${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({
      id: randomUUID(),
      fromId: graph.ids[from] as string,
      toId: graph.ids[to] as string,
      type,
      weight: 0.3 + 0.7 * rng(),
      metadata: null,
    });
  }
  return edges;
}

export async function importAll(
  store: GraphStore,
  graph: GeneratedGraph,
  extra: ImportEdge[],
): Promise<{ ms: number; edges: number }> {
  const at = new Date().toISOString();
  const started = now();
  const batches: ImportBatch[] = [...importBatches(graph, NEO4J_BATCH_SIZE), { memories: [], edges: extra }];
  for (const batch of batches) await store.importBatch(WORKSPACE, batch, at);
  return { ms: now() - started, edges: graph.spec.edges + extra.length };
}

export function appFor(store: GraphStore, config: Config) {
  const app = createApp({ config, store, logger: createLogger('silent') });
  return async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await app.fetch('http://engram.bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-workspace': WORKSPACE },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
    if (body.errors) throw new Error(`bench query failed: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
}

/** The store with every workspace behind `prefix`, so a run never touches other data of the server and is deleted whole. */
export function prefixed(store: GraphStore, prefix: string): GraphStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || ['ping', 'close', 'ensureSchema'].includes(String(property))) return value;
      return (workspace: string, ...rest: unknown[]) =>
        (value as (...args: unknown[]) => unknown).call(target, `${prefix}${workspace}`, ...rest);
    },
  });
}

export function countCalls(store: GraphStore): { store: GraphStore; total: () => number; reset: () => void } {
  let total = 0;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        total++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, total: () => total, reset: () => (total = 0) };
}
