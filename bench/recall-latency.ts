import { createApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import type { GraphStore } from '../src/store/port.js';
import type { GeneratedGraph } from './generator.js';
import { now, type Summary, summarize } from './lib/stats.js';
import { fmt } from './report.js';

/**
 * recall on the benchmark graph, through the GraphQL layer in process (yoga.fetch, the production
 * plugins included, no socket), with every store call counted per request. Two kinds of request:
 * seeds only (one random memory, activation alone), and a two-word query taken from a random
 * memory's title (the bench graph has a 60-word vocabulary, so a query matches thousands of
 * memories: the seed cap and the work budget are what keep it bounded).
 *
 * Each row first runs a pass over other memories (warmupStarts), timed and reported as the row's
 * first pass, then the measured pass over `starts`: the row is what a running server answers, the
 * first pass what a process that has just opened the store does. They differ most on Neo4j, whose
 * JVM compiles its query paths while it serves (bench/README.md, Recall).
 */
export interface RecallLatencyRow {
  label: string;
  maxDepth: number;
  summary: Summary;
  /** The pass over warmupStarts before the measured one. */
  firstPass: Summary;
  /** Mean store calls per recall, in all and by port method (ping left out). */
  calls: { mean: number; max: number; byMethod: Record<string, number> };
  /** Mean milliseconds per recall spent waiting on each port method (call to settled promise). */
  storeMsByMethod: Record<string, number>;
  /** Mean number of results per recall. */
  results: number;
  /** Mean edges the expandFrontier calls returned per recall, and the share of recalls the budget cut short. */
  edgesExpanded: number;
  truncated: number;
}

export interface RecallLatencyInput {
  store: GraphStore;
  config: Config;
  headers: Record<string, string>;
  graph: GeneratedGraph;
  /** Memory indexes to start from (seeds, or whose title gives the query). */
  starts: number[];
  /** Memory indexes for each row's first pass: others than `starts`, so the measured pass finds nothing cached for it. */
  warmupStarts: number[];
  maxDepths?: number[];
}

const RECALL = `query BenchRecall($query: String, $seeds: [ID!], $maxDepth: Int!) {
  recall(query: $query, seeds: $seeds, maxDepth: $maxDepth, limit: 10) {
    id results { memory { id title } score lexical graph seed path { id weight } }
  }
}`;

export async function benchRecallLatency(input: RecallLatencyInput): Promise<RecallLatencyRow[]> {
  const counts = new Map<string, number>();
  const storeMs = new Map<string, number>();
  const expansion = { edges: 0, truncated: false };
  const counting = new Proxy(input.store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const method = String(property);
        counts.set(method, (counts.get(method) ?? 0) + 1);
        const started = now();
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        // Every port method is async; the SQLite store does its work synchronously inside the call.
        return Promise.resolve(result).then((answer) => {
          storeMs.set(method, (storeMs.get(method) ?? 0) + now() - started);
          if (method === 'expandFrontier') {
            const expanded = answer as Awaited<ReturnType<GraphStore['expandFrontier']>>;
            expansion.edges += expanded.steps.length;
            expansion.truncated ||= expanded.truncated;
          }
          return answer;
        });
      };
    },
  });
  const app = createApp({ config: input.config, store: counting, logger: createLogger('silent') });
  const recall = async (variables: Record<string, unknown>) => {
    const response = await app.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...input.headers },
      body: JSON.stringify({ query: RECALL, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown };
    if (body.errors) throw new Error(`recall failed: ${JSON.stringify(body.errors)}`);
    return body.data.recall as { results: unknown[] };
  };
  const seedsOf = (index: number) => ({ seeds: [input.graph.ids[index]] });
  // Two of the title's words: the title is "w1 w2 w3 #index", and the #index must not narrow the match.
  const queryOf = (index: number) => ({ query: input.graph.memory(index).title.split(' ').slice(0, 2).join(' ') });
  const rows: RecallLatencyRow[] = [];
  for (const maxDepth of input.maxDepths ?? [2, 3]) {
    for (const [kind, variablesOf] of [
      ['seeds: 1 random memory', seedsOf],
      ['query: 2 words of a random title', queryOf],
    ] as const) {
      const firstPass: number[] = [];
      for (const index of input.warmupStarts) {
        const started = now();
        await recall({ ...variablesOf(index), maxDepth });
        firstPass.push(now() - started);
      }
      const times: number[] = [];
      const perRequest: number[] = [];
      const byMethod = new Map<string, number>();
      storeMs.clear();
      let results = 0;
      let edgesExpanded = 0;
      let truncated = 0;
      for (const index of input.starts) {
        counts.clear();
        expansion.edges = 0;
        expansion.truncated = false;
        const started = now();
        const answer = await recall({ ...variablesOf(index), maxDepth });
        times.push(now() - started);
        results += answer.results.length;
        edgesExpanded += expansion.edges;
        if (expansion.truncated) truncated++;
        counts.delete('ping');
        let total = 0;
        for (const [method, n] of counts) {
          total += n;
          byMethod.set(method, (byMethod.get(method) ?? 0) + n);
        }
        perRequest.push(total);
      }
      const n = input.starts.length || 1;
      rows.push({
        label: `recall maxDepth ${maxDepth}, ${kind}`,
        maxDepth,
        summary: summarize(times),
        firstPass: summarize(firstPass),
        calls: {
          mean: perRequest.reduce((sum, value) => sum + value, 0) / n,
          max: Math.max(...perRequest),
          byMethod: Object.fromEntries([...byMethod].map(([method, total]) => [method, total / n])),
        },
        storeMsByMethod: Object.fromEntries(
          [...storeMs].filter(([method]) => method !== 'ping').map(([method, total]) => [method, total / n]),
        ),
        results: results / n,
        edgesExpanded: edgesExpanded / n,
        truncated: truncated / n,
      });
    }
  }
  return rows;
}

/** The rows as the table `npm run bench` prints. */
export function renderRecallLatency(rows: RecallLatencyRow[]): string {
  const lines = [
    '| recall (GraphQL in process, yoga.fetch) | p50 ms | p95 ms | n | first pass p50 / p95 ms (n) | store calls / recall (mean, max) | by method (mean calls, mean ms) | edges expanded (mean) | cut by budget | results |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const methods = Object.entries(row.calls.byMethod)
        .map(([method, mean]) => `${method} ${Number(mean.toFixed(2))} (${fmt(row.storeMsByMethod[method] ?? 0)} ms)`)
        .join(', ');
      return `| ${row.label} | ${fmt(row.summary.median)} | ${fmt(row.summary.p95)} | ${row.summary.n} | ${fmt(row.firstPass.median)} / ${fmt(row.firstPass.p95)} (${row.firstPass.n}) | ${row.calls.mean.toFixed(2)}, ${row.calls.max} | ${methods} | ${Math.round(row.edgesExpanded)} | ${Math.round(row.truncated * 100)} % | ${row.results.toFixed(1)} |`;
    }),
  ];
  return lines.join('\n');
}
