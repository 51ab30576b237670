import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { refusal } from '../domain/errors.js';

/** A single non-negative integer; anything else (lists, signs, spaces) is refused, not skipped. */
const CONTENT_LENGTH = /^\d+$/;

const tooLarge = () =>
  new GraphQLError('Request body too large: it is larger than the server accepts (ENGRAM_MAX_BODY_BYTES).', {
    extensions: refusal('LIMIT_EXCEEDED'),
  });

/**
 * ENGRAM_MAX_BODY_BYTES for GraphQL requests. yoga's own limit pipes every body through a
 * counting stream, a measurable share of a small request's cost. A declared Content-Length is
 * checked against the limit first. When the request came through Node's HTTP server the body is
 * then read as is: Node's parser delivers exactly the declared number of bytes (and refuses a
 * request that also says chunked), so a client cannot send more than it declared. A chunked body,
 * or a Request built in-process (app.fetch), whose headers nothing checks, is counted as it is read.
 */
export function useBodyLimit(maxBytes: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, serverContext }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (!CONTENT_LENGTH.test(declared)) {
          throw new GraphQLError('The Content-Length header is not a valid length.', {
            extensions: refusal('BAD_REQUEST'),
          });
        }
        if (Number(declared) > maxBytes) throw tooLarge();
        if (cameThroughNodeHttp(serverContext)) return;
      }
      if (!requestParser || !request.body) return;
      setRequestParser((unread) => requestParser(counted(unread, maxBytes, fetchAPI)));
    },
  };
}

/** The Node adapter puts the IncomingMessage in the server context; app.fetch callers have none. */
const cameThroughNodeHttp = (serverContext: unknown): boolean =>
  typeof serverContext === 'object' &&
  serverContext !== null &&
  'req' in serverContext &&
  (serverContext as { req?: unknown }).req !== undefined;

type FetchApi = Parameters<NonNullable<Plugin['onRequestParse']>>[0]['fetchAPI'];

/**
 * The same request, with a body that fails once more than `maxBytes` bytes have arrived. A native
 * stream (from app.fetch) needs the native TransformStream, the server adapter's own stream needs
 * the adapter's.
 */
function counted(request: Request, maxBytes: number, fetchAPI: FetchApi): Request {
  let received = 0;
  const Transform = request.body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  const body = (request.body as ReadableStream<Uint8Array>).pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body,
    duplex: 'half',
  } as RequestInit);
}
