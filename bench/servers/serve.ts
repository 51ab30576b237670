import { createServer, type RequestListener } from 'node:http';

/**
 * The benchmark's side of a server process: listens on a free port of 127.0.0.1, reports it over
 * IPC, answers "rss" with the process's resident set size, and on disconnect stops listening,
 * runs `close` and exits.
 */
export function serveForBenchmark(handler: RequestListener, close: () => Promise<void> = async () => {}): void {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (message) => {
    if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => {
    server.close();
    void close().finally(() => process.exit(0));
  });
}
