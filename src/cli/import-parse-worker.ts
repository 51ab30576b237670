import { parentPort, workerData } from 'node:worker_threads';
import { createLineParser, LineRefused } from './import-lines.js';
import type { ParseRequest, ParseResult, ParserSettings } from './parsed-batches.js';

/**
 * The worker thread of engram import: takes the input's chunks, answers each with the batches
 * it completed (parsing and validation run here, beside the main thread's store writes).
 */
const port = parentPort;
if (!port) throw new Error('import-parse-worker runs as a worker thread');
const parser = createLineParser(workerData as ParserSettings);
const decoder = new TextDecoder('utf-8');
const send = (result: ParseResult) => port.postMessage(result);

port.on('message', (request: ParseRequest) => {
  try {
    if (request.kind === 'chunk') {
      const batches = parser.push(decoder.decode(request.bytes, { stream: true }));
      send({ kind: 'parsed', bytes: request.bytes.byteLength, batches });
    } else {
      const rest = decoder.decode();
      const batches = rest === '' ? [] : parser.push(rest);
      const last = parser.end();
      send({ kind: 'done', batches: [...batches, ...last.batches], lines: last.lines });
    }
  } catch (error) {
    if (error instanceof LineRefused) send({ kind: 'refused', problem: error.problem, batches: parser.completed() });
    else send({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
