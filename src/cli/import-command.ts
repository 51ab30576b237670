import { closeSync, createReadStream, openSync, type ReadStream, readFileSync, readSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { isEngramError } from '../domain/errors.js';
import { nowIso } from '../domain/ids.js';
import { workspaceName } from '../domain/inputs.js';
import { type ImportScope, importPending, missingEndError, PendingBatch } from '../services/graph-import.js';
import { createStore } from '../store/create-store.js';
import type { BulkLoad, GraphStore } from '../store/port.js';
import { importBatchSizeFor } from '../store/registry.js';
import { embedImported } from './import-embeddings.js';
import { type GraphRecord, LineRefused } from './import-lines.js';
import { parsedBatches } from './parsed-batches.js';
import { createProgress, formatCount } from './progress.js';

const USAGE = `Usage: engram import FILE.ndjson [--workspace NAME] [--batch-size N] [--bulk | --no-bulk]
                     [--format ndjson | server-memory]

Loads memories and edges from an NDJSON file (one JSON object per line; "-" reads stdin):
  {"record":"memory","id":"m1","key":null,"title":"...","content":"...","kind":"fact","tags":[],"weight":0.5,"metadata":null}
  {"record":"edge","from":"m1","to":"m2","type":"CAUSED_BY","weight":0.5,"metadata":null}
Memories are upserted by id and edges by (from, to, type): importing a file twice changes nothing.
Memories must come before the edges that name them. Each batch (--batch-size records, default
50,000; 10,000 on Neo4j) is one transaction; a bad line stops the import with its line number,
and nothing of its batch is written.
Into an empty workspace the import is one bulk load (on SQLite): all or nothing, with the full-text
index and the read-only edge indexes rebuilt once at the end; a bad line or a crash leaves nothing
of it. --bulk requires that (refused on a non-empty workspace or a store without bulk mode);
--no-bulk imports batch by batch even into an empty workspace.
The official MCP memory server's memory.jsonl ({"type":"entity",...} / {"type":"relation",...}
lines) is recognised by its first line, or chosen with --format server-memory (needed for stdin):
entities become memories and relations edges, as \`engram mcp --profile server-memory\` stores them.
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
  /** Whether the records go in as one bulk load (nothing is committed before the end). */
  bulk: boolean;
  lines: number;
  memories: number;
  edges: number;
  /** Bytes of the input read so far, when known. */
  bytes: number;
}

/**
 * never: batch by batch through importBatch, each batch its own transaction (the library default);
 * auto: a bulk load when the workspace is empty, else batch by batch (engram import's default);
 * always: a bulk load, refused when the store has no bulk mode or the workspace holds memories.
 */
export type BulkMode = 'never' | 'auto' | 'always';

export interface ImportOptions extends ImportScope {
  input: Readable;
  batchSize?: number;
  bulk?: BulkMode;
  /** Bytes of the input, when known: lets the store size a bulk load. */
  inputBytes?: number;
  /** Called after each batch is written. */
  onProgress?: (progress: ImportProgress) => void;
  /** Current bytes read of the input, for progress bars. */
  bytesRead?: () => number;
}

export interface ImportSummary {
  lines: number;
  memories: number;
  edges: number;
  ms: number;
  /** Whether the records went in as one bulk load (all or nothing). */
  bulk: boolean;
}

/** A bulk load was asked for (--bulk) and cannot run; nothing was written. */
export class BulkRefusedError extends Error {
  override name = 'BulkRefusedError';
}

/** Rough NDJSON bytes per edge line: only sizes the store's choice of what to defer, never a limit. */
const BYTES_PER_EDGE_LINE = 128;

async function beginBulk(options: ImportOptions): Promise<BulkLoad | null> {
  const mode = options.bulk ?? 'never';
  if (mode === 'never') return null;
  const { store, workspace } = options;
  if (!store.beginBulkLoad) {
    if (mode === 'always')
      throw new BulkRefusedError(
        `--bulk: this store (${store.description}) has no bulk mode; import without --bulk (batch by batch)`,
      );
    return null;
  }
  const expectedEdges = options.inputBytes ? Math.floor(options.inputBytes / BYTES_PER_EDGE_LINE) : null;
  const load = await store.beginBulkLoad(workspace, { expectedEdges });
  if (!load && mode === 'always')
    throw new BulkRefusedError(
      `--bulk: workspace "${workspace}" already holds memories, and a bulk load fills an empty workspace; import without --bulk to upsert into it`,
    );
  return load;
}

/**
 * Streams NDJSON records into the store: a worker thread parses and validates each line (the
 * API's rules) while the store writes the previous batch, and every `batchSize` records go to the store as one idempotent importBatch
 * transaction. A bad line throws ImportLineError before its batch is written. In a bulk load
 * (see BulkMode) the batches go into one all-or-nothing load instead, and since the workspace
 * started empty, an edge's ends must be memories of earlier lines.
 */
export async function importNdjson(options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const bulk = await beginBulk(options);
  try {
    const summary = await readBatches(options, batchSize, bulk);
    await bulk?.finish();
    return { ...summary, ms: performance.now() - started, bulk: bulk !== null };
  } catch (error) {
    await bulk?.abort();
    throw error;
  }
}

async function readBatches(options: ImportOptions, batchSize: number, bulk: BulkLoad | null) {
  const done: ImportProgress = { bulk: bulk !== null, lines: 0, memories: 0, edges: 0, bytes: 0 };
  // A bulk load starts from an empty workspace: the memories of earlier lines are all there is.
  const batches = parsedBatches(options.input, { batchSize, knownIdsOnly: bulk !== null });
  // Told at once, so a failure before the first batch is worded as a bulk load's.
  options.onProgress?.(done);
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return { lines: next.value, memories: done.memories, edges: done.edges };
      const pending = new PendingBatch();
      const { records, lines } = next.value;
      for (let at = 0; at < records.length; at++) pending.add(`line ${lines[at]}`, records[at] as GraphRecord);
      const now = nowIso();
      const written = await importPending(options, pending, now, bulk ? (batch) => bulk.add(batch, now) : undefined);
      done.memories += written.memories;
      done.edges += written.edges;
      done.lines = lines.at(-1) ?? done.lines;
      done.bytes = options.bytesRead?.() ?? 0;
      options.onProgress?.(done);
    }
  } catch (error) {
    if (!(error instanceof LineRefused)) throw error;
    const { problem } = error;
    if (problem.kind === 'line') throw new ImportLineError(problem.line, problem.message);
    throw missingEndError(`line ${problem.line}`, problem.end, problem.id);
  } finally {
    await batches.return(0);
  }
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
      bulk: { type: 'boolean' },
      'no-bulk': { type: 'boolean' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

/** The start of a file, enough to hold its first line. */
function fileStart(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

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

  if (args.values.bulk && args.values['no-bulk']) return fail('--bulk and --no-bulk: choose one', 2);
  const format = args.values.format;
  if (format !== undefined && format !== 'ndjson' && format !== 'server-memory')
    return fail(`--format: unknown format "${format}"; use ndjson or server-memory`, 2);
  const bulk: BulkMode = args.values.bulk ? 'always' : args.values['no-bulk'] ? 'never' : 'auto';

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
  let serverMemory = format === 'server-memory';
  if (format === undefined && file !== '-') {
    const { firstLine, isServerMemoryLine } = await import('./server-memory-file.js');
    serverMemory = isServerMemoryLine(firstLine(fileStart(file)));
  }
  const store = await openBulkStore(config);
  if (serverMemory) {
    // The official server reads its whole file on every call, so such files fit in memory.
    try {
      const { serverMemoryRecords } = await import('./server-memory-file.js');
      const text = file === '-' ? await readAll(input) : readFileSync(file, 'utf8');
      if (file !== '-') input.destroy();
      input = await serverMemoryRecords(text, store, workspace.data);
      total = 0;
    } catch (error) {
      await store.close();
      const message = error instanceof ImportLineError || isEngramError(error) ? error.message : String(error);
      return fail(`engram import: ${message}\nStopped: nothing was written.`, 1);
    }
  }
  const progress = createProgress(process.stderr, { label: 'import', total });
  let committed = 0;
  let bulkLoad = false;
  try {
    const summary = await importNdjson({
      store,
      workspace: workspace.data,
      policy: config.policy,
      strictTypes: config.strictTypes,
      associations: config.recall.associations,
      input,
      batchSize,
      bulk,
      inputBytes: total || undefined,
      bytesRead: () => (input as ReadStream).bytesRead ?? 0,
      onProgress: (done) => {
        committed = done.memories + done.edges;
        bulkLoad = done.bulk;
        progress.update(
          done.bytes,
          `line ${formatCount(done.lines)}: ${formatCount(done.memories)} memories, ${formatCount(done.edges)} edges written`,
        );
      },
    });
    progress.done();
    const seconds = summary.ms / 1000;
    process.stderr.write(
      `Imported ${formatCount(summary.memories)} memories and ${formatCount(summary.edges)} edges into workspace "${workspace.data}" in ${seconds.toFixed(1)} s (${formatCount(Math.round(summary.edges / seconds))} edges/s, ${formatCount(Math.round(summary.memories / seconds))} memories/s${summary.bulk ? ', one bulk load' : ''}).\n`,
    );
    await embedImported(config, store, workspace.data);
  } catch (error) {
    progress.done();
    const message =
      error instanceof ImportLineError || error instanceof BulkRefusedError || isEngramError(error)
        ? error.message
        : String(error);
    const earlier =
      committed > 0
        ? `the ${formatCount(committed)} records of earlier batches were written`
        : 'no earlier batch was written';
    // A store that failed mid-write (the connection died during its COMMIT) cannot say whether the
    // batch it was writing committed; a refused line or record stops before its batch is sent.
    const uncertain = isEngramError(error) && error.code === 'UNAVAILABLE';
    const kept = bulkLoad
      ? 'nothing was written (a bulk load is all or nothing)'
      : uncertain
        ? `${earlier}; the store failed while writing the next batch, which may or may not have been committed. The same import again completes the file (it upserts: nothing is doubled)`
        : committed > 0
          ? `${earlier}, nothing of the failing batch`
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
