import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * ENGRAM_MAX_BODY_BYTES over a real socket, both ways a body can be framed: with Content-Length
 * (checked against the limit before reading) and chunked (counted as it arrives).
 */
const LIMIT = 2_000;

interface RawResponse {
  status: number;
  body: string;
}

let api: TestApp;
let server: Server;
let port: number;

beforeAll(async () => {
  api = await createTestApp({ env: { ENGRAM_MAX_BODY_BYTES: String(LIMIT) } });
  server = createServer(api.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

/** Sends `chunks` as the body; `chunked` leaves Content-Length out, so Node frames it chunked. */
function post(chunks: string[], framing: 'content-length' | 'chunked'): Promise<RawResponse> {
  const total = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(framing === 'content-length' ? { 'content-length': String(total) } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // A server may answer and close before the whole body is sent; that is the point of a limit.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** A relationTypes query padded to `bytes` bytes (in its extensions, which GraphQL ignores). */
const paddedTo = (bytes: number): string => {
  const bare = JSON.stringify({ query: '{ relationTypes { name } }', extensions: { pad: '' } });
  return JSON.stringify({ query: '{ relationTypes { name } }', extensions: { pad: 'x'.repeat(bytes - bare.length) } });
};

/** The padded body split into 10 chunks. */
function padded(bytes: number): string[] {
  const text = paddedTo(bytes);
  const size = Math.ceil(text.length / 10);
  return Array.from({ length: 10 }, (_, at) => text.slice(at * size, (at + 1) * size));
}

const codeOf = (response: RawResponse) =>
  (JSON.parse(response.body) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;

describe('request body limit over a real socket', () => {
  for (const framing of ['content-length', 'chunked'] as const) {
    it(`answers a body under the limit (${framing})`, async () => {
      const response = await post(padded(LIMIT / 2), framing);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body), response.body).toHaveProperty('data.relationTypes');
    });

    it(`refuses a body over the limit with 413 LIMIT_EXCEEDED (${framing})`, async () => {
      const response = await post(padded(LIMIT * 2), framing);
      expect(response.status).toBe(413);
      expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    });
  }

  it('counts a chunked body to the byte: one byte over the limit is refused', async () => {
    expect((await post([paddedTo(LIMIT)], 'chunked')).status).toBe(200);
    expect((await post([paddedTo(LIMIT + 1)], 'chunked')).status).toBe(413);
  });
});
