import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionDrain {
  /** Wraps the request handler: counts the request and, during the drain, answers it with Connection: close. */
  handle(request: IncomingMessage, response: ServerResponse, next: () => void): void;
  /** Starts the drain; `done` is called once no request is in flight and every connection is closed. */
  begin(done: () => void): void;
  readonly draining: boolean;
  /** Requests being answered now. */
  readonly inFlight: number;
}

/**
 * Graceful drain of an HTTP/1.1 server whose clients keep connections alive. A client may write its
 * next request on a pooled connection at the very moment the server closes that connection as idle:
 * the request is then lost to a reset, and the client cannot tell whether it ran. So during the
 * drain no connection is closed under a client that may be using it:
 * - every response not yet started, and every later one, carries `Connection: close`, so the client
 *   takes that connection out of its pool and Node closes it once the response is sent;
 * - connections idle when the drain begins stay open for `idleMs`: a request arriving on one is
 *   answered (with Connection: close). After that, connections still idle are closed; a client that
 *   has sent nothing for that long sees a clean close (FIN), with nothing in flight.
 * The server keeps accepting connections meanwhile (load balancers take a moment to notice /ready).
 */
export function createConnectionDrain(server: Server, options: { idleMs: number }): ConnectionDrain {
  const connections = new Set<Socket>();
  const responses = new Set<ServerResponse>();
  let draining = false;
  let idleWindowOver = false;
  let done: (() => void) | null = null;

  const check = () => {
    if (!draining) return;
    if (idleWindowOver) server.closeIdleConnections();
    if (responses.size === 0 && connections.size === 0 && done) {
      const finish = done;
      done = null;
      finish();
    }
  };

  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      check();
    });
  });

  return {
    handle(request, response, next) {
      responses.add(response);
      if (draining) response.setHeader('connection', 'close');
      response.once('close', () => {
        responses.delete(response);
        check();
      });
      next();
    },
    begin(onDone) {
      if (draining) return;
      draining = true;
      done = onDone;
      for (const response of responses) if (!response.headersSent) response.setHeader('connection', 'close');
      setTimeout(() => {
        idleWindowOver = true;
        check();
      }, options.idleMs).unref();
      check();
    },
    get draining() {
      return draining;
    },
    get inFlight() {
      return responses.size;
    },
  };
}
