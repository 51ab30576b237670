import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { type LineProblem, LineRefused, type ParsedBatch } from './import-lines.js';

export interface ParserSettings {
  batchSize: number;
  knownIdsOnly: boolean;
}

export type ParseRequest = { kind: 'chunk'; bytes: Uint8Array } | { kind: 'end' };

export type ParseResult =
  | { kind: 'parsed'; bytes: number; batches: ParsedBatch[] }
  | { kind: 'done'; batches: ParsedBatch[]; lines: number }
  | { kind: 'refused'; problem: LineProblem; batches: ParsedBatch[] }
  | { kind: 'failed'; message: string };

/**
 * Back pressure: input bytes sent to the parser and not yet parsed, and parsed batches not yet
 * taken by the store. The reader pauses past either, so memory stays bounded whatever the file.
 * The reader runs on the store's thread, which a batch's synchronous write blocks for a while: the
 * parser must hold more than a batch of input (50,000 lines, 10-12 MB) to keep busy meanwhile.
 */
const MAX_UNPARSED_BYTES = 32 * 1024 * 1024;
const MAX_WAITING_BATCHES = 2;

/**
 * The input's records in validated batches, parsed in a worker thread while the caller writes the
 * previous batch. Ends with the number of lines read. Stops the worker and the reading when the
 * caller stops early (an error) or a line is refused.
 */
export async function* parsedBatches(input: Readable, settings: ParserSettings): AsyncGenerator<ParsedBatch, number> {
  const worker = startParser(settings);
  const results: ParseResult[] = [];
  let waiting: (() => void) | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  let crash: Error | null = null;
  worker.on('message', (result: ParseResult) => {
    results.push(result);
    wake();
  });
  worker.on('error', (error) => {
    crash = error;
    wake();
  });
  let unparsed = 0;
  let queuedBatches = 0;
  let stopped = false;
  const room = () => unparsed <= MAX_UNPARSED_BYTES && queuedBatches < MAX_WAITING_BATCHES;
  let roomWaiter: (() => void) | null = null;
  const feeding = (async () => {
    for await (const chunk of input) {
      if (stopped) return;
      const bytes = chunk instanceof Uint8Array ? chunk : Buffer.from(String(chunk));
      unparsed += bytes.byteLength;
      worker.postMessage({ kind: 'chunk', bytes } satisfies ParseRequest);
      while (!room() && !stopped) await new Promise<void>((resolve) => (roomWaiter = resolve));
    }
    worker.postMessage({ kind: 'end' } satisfies ParseRequest);
  })();
  feeding.catch((error: Error) => {
    crash = error;
    wake();
  });
  const releaseReader = () => {
    roomWaiter?.();
    roomWaiter = null;
  };
  const freeRoom = () => {
    if (room()) releaseReader();
  };
  const pending: ParsedBatch[] = [];
  let refusal: LineRefused | null = null;
  try {
    for (;;) {
      while (results.length === 0 && pending.length === 0 && !crash && !refusal)
        await new Promise<void>((r) => (waiting = r));
      if (crash) throw crash;
      if (pending.length > 0) {
        const next = pending.shift() as ParsedBatch;
        queuedBatches--;
        freeRoom();
        yield next;
        continue;
      }
      if (refusal) throw refusal;
      const result = results.shift() as ParseResult;
      if (result.kind === 'refused') {
        // The batches before the refused line go first, then the refusal.
        pending.push(...result.batches);
        queuedBatches += result.batches.length;
        refusal = new LineRefused(result.problem);
        continue;
      }
      if (result.kind === 'failed') throw new Error(`the import's parser failed: ${result.message}`);
      pending.push(...result.batches);
      queuedBatches += result.batches.length;
      if (result.kind === 'parsed') {
        unparsed -= result.bytes;
        freeRoom();
        continue;
      }
      while (pending.length > 0) yield pending.shift() as ParsedBatch;
      return result.lines;
    }
  } finally {
    stopped = true;
    releaseReader();
    await worker.terminate();
    if (!input.readableEnded) input.destroy();
  }
}

/**
 * The worker: compiled, the bundle scripts/build.mjs makes of it (dist/cli/), or from the sources
 * (tests, a checkout run through tsx) its .ts loaded through tsx, which a worker thread does not
 * inherit. `../cli/` serves both: this module sits in src/cli/ and, compiled, in dist/chunks/.
 */
function startParser(settings: ParserSettings): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const url = new URL(`../cli/import-parse-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(url, { workerData: settings });
  const boot = `const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then((tsx) => tsx.tsImport(workerData.url, workerData.url));`;
  return new Worker(boot, { eval: true, workerData: { ...settings, url: url.href } });
}
