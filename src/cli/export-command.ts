import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { isEngramError } from '../domain/errors.js';
import { edgeLine, memoryLine } from '../domain/graph-records.js';
import { workspaceName } from '../domain/inputs.js';
import type { GraphStore } from '../store/port.js';
import { openBulkStore } from './import-command.js';
import { createProgress, formatCount } from './progress.js';

const USAGE = `Usage: engram export [--workspace NAME] [--output FILE] [--format ndjson | server-memory] [> file]

Writes every memory, then every edge, of a workspace as NDJSON (the format engram import reads),
each ordered by id, to stdout or --output. Edge ids are not written: an edge is its (from, to, type).
--format server-memory writes the official MCP memory server's memory.jsonl instead (entities and
relations, as \`engram mcp --profile server-memory\` reads them): a file that server can load.
The store comes from the server's variables; the workspace defaults to ENGRAM_DEFAULT_WORKSPACE.
`;

const PAGE = 5_000;

export interface ExportCounts {
  memories: number;
  edges: number;
}

/**
 * The workspace as NDJSON lines, read in keyset pages (memories, then edges, by id). Pages are
 * separate reads: on a live database, a record changed during the export may appear as it was
 * or as it became, never twice.
 */
export async function* exportLines(
  store: GraphStore,
  workspace: string,
  counts: ExportCounts = { memories: 0, edges: 0 },
): AsyncGenerator<string> {
  for (let after: string | null = null; ; ) {
    const page = await store.listMemories(workspace, { afterId: after, limit: PAGE });
    if (page.length > 0) yield `${page.map(memoryLine).join('\n')}\n`;
    counts.memories += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.id ?? null;
  }
  for (let after: string | null = null; ; ) {
    const page = await store.listEdges(workspace, { afterId: after, limit: PAGE });
    if (page.length > 0) yield `${page.map(edgeLine).join('\n')}\n`;
    counts.edges += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.id ?? null;
  }
}

/** Streams the workspace into `output` with back-pressure. */
export async function exportNdjson(
  store: GraphStore,
  workspace: string,
  output: Writable,
  onPage?: (counts: ExportCounts) => void,
  lines: (store: GraphStore, workspace: string, counts: ExportCounts) => AsyncGenerator<string> = exportLines,
): Promise<ExportCounts> {
  const counts: ExportCounts = { memories: 0, edges: 0 };
  async function* source() {
    for await (const chunk of lines(store, workspace, counts)) {
      yield chunk;
      onPage?.(counts);
    }
  }
  await pipeline(Readable.from(source()), output, { end: output !== process.stdout });
  return counts;
}

const parseExportArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    options: {
      workspace: { type: 'string', short: 'w' },
      output: { type: 'string', short: 'o' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

export async function run(argv: string[]): Promise<void> {
  let args: ReturnType<typeof parseExportArgs>;
  try {
    args = parseExportArgs(argv);
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  if (args.values.help) {
    process.stderr.write(USAGE);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error), 1);
  }
  const workspace = workspaceName.safeParse(args.values.workspace ?? config.defaultWorkspace);
  if (!workspace.success)
    return fail(`--workspace: ${workspace.error.issues[0]?.message ?? 'invalid workspace name'}`, 2);

  const format = args.values.format ?? 'ndjson';
  if (format !== 'ndjson' && format !== 'server-memory')
    return fail(`--format: unknown format "${format}"; use ndjson or server-memory`, 2);
  const lines = format === 'server-memory' ? (await import('./server-memory-file.js')).serverMemoryLines : exportLines;

  const store = await openBulkStore(config);
  const output = args.values.output ? createWriteStream(args.values.output) : process.stdout;
  // A bar on the terminal only, and never when the records themselves go to that terminal.
  const progress = createProgress(process.stderr, { label: 'export', total: 0 });
  const showProgress = output !== process.stdout || !process.stdout.isTTY;
  try {
    const started = performance.now();
    const counts = await exportNdjson(
      store,
      workspace.data,
      output,
      (done) => {
        if (showProgress)
          progress.update(0, `${formatCount(done.memories)} memories, ${formatCount(done.edges)} edges`);
      },
      lines,
    );
    progress.done();
    process.stderr.write(
      `Exported ${formatCount(counts.memories)} memories and ${formatCount(counts.edges)} edges of workspace "${workspace.data}" in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
    );
  } catch (error) {
    progress.done();
    fail(`engram export: ${isEngramError(error) ? error.message : String(error)}`, 1);
  } finally {
    await store.close();
  }
}

function fail(message: string, code: number): void {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  process.exitCode = code;
}
