import type { Server } from 'node:http';
import { StartupError } from './domain/errors.js';

export interface ListenAddress {
  port: number;
  host: string;
}

/** The first-run mistakes of binding, as the one line a person reads; null for anything else. */
export function describeListenError(error: NodeJS.ErrnoException, { port, host }: ListenAddress): StartupError | null {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `PORT=${port} is already in use on ${host} (another Engram?): stop it or set PORT to a free port`,
      );
    case 'EACCES':
      return new StartupError(
        `PORT=${port} on ${host}: permission denied (ports below 1024 need privileges): set PORT to 1024 or above`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`HOST=${host}: not an address of this machine: set HOST to one (e.g. 0.0.0.0)`);
    default:
      return null;
  }
}

/** Listens on the address; resolves with the port bound (PORT=0 picks a free one). */
export function listen(server: Server, address: ListenAddress): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => fail(describeListenError(error, address) ?? error));
    server.listen(address.port, address.host, () => {
      const bound = server.address();
      done(typeof bound === 'object' && bound ? bound.port : address.port);
    });
  });
}
