import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Length of the test embedder's vectors. */
export const TEST_DIMENSIONS = 16;

/**
 * A deterministic embedder: each word of the text adds 1 to a hashed slot, and the sum is
 * normalised, so texts sharing words point the same way (cosine similarity = word overlap).
 */
export function bagOfWords(text: string): number[] {
  const vector = new Array<number>(TEST_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const slot = createHash('sha256').update(word).digest().readUInt32BE(0) % TEST_DIMENSIONS;
    vector[slot] = (vector[slot] as number) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

interface SeenRequest {
  url: string;
  authorization: string | undefined;
  inputs: string[];
  model: string;
}

/**
 * A real OpenAI-compatible embeddings server on a loopback port, for tests: it records every
 * request, can answer slowly or fail the next few, and can be stopped and started again on the same
 * port (the endpoint going down and coming back).
 */
export interface EmbeddingServer {
  /** The base URL (http://127.0.0.1:<port>), as ENGRAM_EMBEDDINGS_URL. */
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Milliseconds to wait before answering. */
  delayMs: number;
  /** The next this-many requests get HTTP 503. */
  failNext: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  let server: Server | null = null;
  let port = 0;
  const state: EmbeddingServer = {
    url: '',
    requests: [],
    delayMs: 0,
    failNext: 0,
    async stop() {
      const running = server;
      server = null;
      if (!running) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async start() {
      const next = createServer((request, response) => void answer(request, response));
      await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
      port = (next.address() as AddressInfo).port;
      server = next;
    },
  };

  async function answer(request: IncomingMessage, response: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    state.requests.push({
      url: request.url ?? '',
      authorization: request.headers.authorization,
      inputs: body.input,
      model: body.model,
    });
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.failNext > 0) {
      state.failNext--;
      response.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded');
      return;
    }
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: bagOfWords(text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
  }

  await state.start();
  return Object.assign(state, { url: `http://127.0.0.1:${port}` });
}
