import { createReadStream, statSync, type ReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { isEngramError } from '../domain/errors.js';
import { GraphLine, describeIssues } from '../domain/graph-records.js';
import { nowIso } from '../domain/ids.js';
import { workspaceName } from '../domain/inputs.js';
import { importPending, PendingBatch, type ImportScope } from '../services/graph-import.js';
import { createStore } from '../store/create-store.js';
import type { GraphStore } from '../store/port.js';
import { importBatchSizeFor } from '../store/registry.js';
import { createProgress, formatCount } from './progress.js';

const USAGE = `Usage: engram import FILE.ndjson [--workspace NAME] [--batch-size N]

Loads memories and edges from an NDJSON file (one JSON object per line; "-" reads stdin):
  {"record":"memory","id":"m1","key":null,"title":"...","content":"...","kind":"fact","tags":[],"weight":0.5,"metadata":null}
  {"record":"edge","from":"m1","to":"m2","type":"CAUSED_BY","weight":0.5,"metadata":null}
Memories are upserted by id and edges by (from, to, type): importing a file twice changes nothing.
Memories must come before the edges that name them. Each batch (--batch-size records, default
50,000; 10,000 on Neo4j) is one transaction; a bad line stops the import with its line number,
and nothing of its batch is written.
The store comes from the server's variables (ENGRAM_STORE, ENGRAM_SQLITE_PATH, ...); the
workspace defaults to ENGRAM_DEFAULT_WORKSPACE.
`;

/**
 * Default records per transaction: large enough that commits and index page rewrites are rare. A
 * store may name its own (its adapter's importBatchSize: Neo4j holds a transaction in memory).
 */
export const DEFAULT_BATCH_SIZE = 50_000;

export class ImportLineError extends Error {
  override name = 'ImportLineError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export interface ImportProgress {
  lines: number;
  memories: number;
  edges: number;
  /** Bytes of the input read so far, when known. */
  bytes: number;
}

export interface ImportOptions extends ImportScope {
  input: Readable;
  batchSize?: number;
  /** Called after each committed batch and every 10,000 lines. */
  onProgress?: (progress: ImportProgress) => void;
  /** Current bytes read of the input, for progress bars. */
  bytesRead?: () => number;
}

export interface ImportSummary {
  lines: number;
  memories: number;
  edges: number;
  ms: number;
}

/**
 * Streams NDJSON records into the store: each line is parsed and validated (the API's rules)
 * as it is read, and every `batchSize` records go to the store as one idempotent importBatch
 * transaction. A bad line throws ImportLineError before its batch is written.
 */
export async function importNdjson(options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const lines = createInterface({ input: options.input, crlfDelay: Infinity });
  const done: ImportProgress = { lines: 0, memories: 0, edges: 0, bytes: 0 };
  let pending = new PendingBatch();
  let lineNumber = 0;
  const flush = async () => {
    if (pending.size === 0) return;
    const written = await importPending(options, pending, nowIso());
    done.memories += written.memories;
    done.edges += written.edges;
    pending = new PendingBatch();
    report();
  };
  const report = () => {
    done.lines = lineNumber;
    done.bytes = options.bytesRead?.() ?? 0;
    options.onProgress?.(done);
  };
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ImportLineError(lineNumber, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = GraphLine.safeParse(json);
    if (!parsed.success) throw new ImportLineError(lineNumber, describeIssues(parsed.error));
    pending.add(`line ${lineNumber}`, parsed.data);
    if (pending.size >= batchSize) await flush();
    else if (lineNumber % 10_000 === 0) report();
  }
  await flush();
  return { lines: lineNumber, memories: done.memories, edges: done.edges, ms: performance.now() - started };
}

/** The store a bulk command uses: the server's, opened as its adapter opens it for bulk work (caches, timeouts). */
export function openBulkStore(config: Config): Promise<GraphStore> {
  return createStore(config, 'bulk');
}

const parseImportArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string', short: 'w' },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

export async function run(argv: string[]): Promise<void> {
  let args: ReturnType<typeof parseImportArgs>;
  try {
    args = parseImportArgs(argv);
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  if (args.values.help) {
    process.stderr.write(USAGE);
    return;
  }
  const [file, ...extra] = args.positionals;
  if (!file || extra.length > 0) return fail(USAGE, 2);
  const chosenBatchSize = args.values['batch-size'] === undefined ? null : Number(args.values['batch-size']);
  if (chosenBatchSize !== null && (!Number.isInteger(chosenBatchSize) || chosenBatchSize < 1))
    return fail('--batch-size: must be a positive integer', 2);

  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error), 1);
  }
  const batchSize = chosenBatchSize ?? importBatchSizeFor(config.store.kind) ?? DEFAULT_BATCH_SIZE;
  const workspace = workspaceName.safeParse(args.values.workspace ?? config.defaultWorkspace);
  if (!workspace.success)
    return fail(`--workspace: ${workspace.error.issues[0]?.message ?? 'invalid workspace name'}`, 2);

  let input: Readable;
  let total = 0;
  try {
    if (file === '-') input = process.stdin;
    else {
      total = statSync(file).size;
      input = createReadStream(file);
    }
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`, 1);
  }
  const store = await openBulkStore(config);
  const progress = createProgress(process.stderr, { label: 'import', total });
  let committed = 0;
  try {
    const summary = await importNdjson({
      store,
      workspace: workspace.data,
      policy: config.policy,
      strictTypes: config.strictTypes,
      input,
      batchSize,
      bytesRead: () => (input as ReadStream).bytesRead ?? 0,
      onProgress: (done) => {
        committed = done.memories + done.edges;
        progress.update(
          done.bytes,
          `line ${formatCount(done.lines)}: ${formatCount(done.memories)} memories, ${formatCount(done.edges)} edges written`,
        );
      },
    });
    progress.done();
    const seconds = summary.ms / 1000;
    process.stderr.write(
      `Imported ${formatCount(summary.memories)} memories and ${formatCount(summary.edges)} edges into workspace "${workspace.data}" in ${seconds.toFixed(1)} s (${formatCount(Math.round(summary.edges / seconds))} edges/s).\n`,
    );
  } catch (error) {
    progress.done();
    const message = error instanceof ImportLineError || isEngramError(error) ? error.message : String(error);
    const kept =
      committed > 0
        ? `the ${formatCount(committed)} records of earlier batches were written, nothing of the failing batch`
        : 'nothing was written';
    fail(`engram import: ${message}\nStopped: ${kept}.`, 1);
  } finally {
    await store.close();
  }
}

function fail(message: string, code: number): void {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  process.exitCode = code;
}
