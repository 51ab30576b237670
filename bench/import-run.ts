import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { type BulkMode, importNdjson } from '../src/cli/import-command.js';
import type { loadConfig } from '../src/config.js';
import { memoryLine } from '../src/domain/graph-records.js';
import type { GraphStore } from '../src/store/port.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { edgeLine, type GeneratedGraph } from './generator.js';
import { now } from './lib/stats.js';
import type { ImportRun } from './report.js';

/** The graph as engram import reads it: memories first, then edges (without ids). */
export async function writeNdjson(graph: GeneratedGraph, file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const chunk = 10_000;
  for (let start = 0; start < graph.spec.memories; start += chunk) {
    const lines: string[] = [];
    for (let index = start; index < Math.min(graph.spec.memories, start + chunk); index++)
      lines.push(memoryLine({ ...graph.memory(index), createdAt: '', updatedAt: '' }));
    await write(`${lines.join('\n')}\n`);
  }
  for (let start = 0; start < graph.spec.edges; start += chunk) {
    const lines: string[] = [];
    for (let index = start; index < Math.min(graph.spec.edges, start + chunk); index++) {
      lines.push(edgeLine(graph, index));
    }
    await write(`${lines.join('\n')}\n`);
  }
  out.end();
  await once(out, 'finish');
}

/**
 * engram import's code path on the file (openBulkStore's settings), with the store's share timed:
 * `bulk` into an empty workspace (what engram import does by default), or batch by batch.
 */
export async function importGraph(
  workspace: string,
  file: string,
  dbPath: string,
  config: ReturnType<typeof loadConfig>,
  mode: BulkMode,
  /** Whether the imported memories get association terms (ENGRAM_ASSOCIATIONS, on by default). */
  associations = config.recall.associations,
): Promise<ImportRun> {
  const store = createSqliteStore({ path: dbPath, cacheSizeMb: 256, adjacencyIndex: false });
  let storeMs = 0;
  const time = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = now();
    try {
      return await work();
    } finally {
      storeMs += now() - started;
    }
  };
  const timed: GraphStore = Object.create(store) as GraphStore;
  timed.importBatch = (workspace, batch, at) => time(() => store.importBatch(workspace, batch, at));
  timed.beginBulkLoad = async (workspace, options) => {
    const load = await time(() =>
      (store.beginBulkLoad as NonNullable<GraphStore['beginBulkLoad']>)(workspace, options),
    );
    return (
      load && {
        add: (batch, at) => time(() => load.add(batch, at)),
        finish: () => time(() => load.finish()),
        abort: () => load.abort(),
      }
    );
  };
  try {
    const summary = await importNdjson({
      store: timed,
      workspace,
      policy: config.policy,
      strictTypes: false,
      associations,
      input: createReadStream(file),
      bulk: mode,
      inputBytes: statSync(file).size,
    });
    const seconds = summary.ms / 1000;
    return {
      ms: summary.ms,
      memories: summary.memories,
      edges: summary.edges,
      edgesPerSecond: summary.edges / seconds,
      memoriesPerSecond: summary.memories / seconds,
      storeMs,
      bulk: summary.bulk,
    };
  } finally {
    await store.close();
  }
}
