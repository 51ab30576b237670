import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a Neo4j server that counts Bolt round trips: each time a client
 * connection sends after having received (or for the first time), it starts a new exchange that
 * waits for the server. Pipelined messages (BEGIN, RUN and PULL sent together) are one exchange;
 * a COMMIT the client does not wait for still counts, so the figure is an upper bound on what a
 * request waits for. Point the driver at `bolt://127.0.0.1:<port>` (bolt, not neo4j: a routing
 * driver would follow the server's advertised address past the proxy).
 */
export interface BoltProxy {
  port: number;
  roundTrips(): number;
  close(): Promise<void>;
}

export async function startBoltProxy(target: { host: string; port: number }): Promise<BoltProxy> {
  let roundTrips = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let lastFromClient = false;
    client.on('data', (chunk) => {
      if (!lastFromClient) roundTrips++;
      lastFromClient = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      lastFromClient = false;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('bolt proxy: no port');
  return {
    port: address.port,
    roundTrips: () => roundTrips,
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => closed());
      }),
  };
}

/** Host and port of a bolt:// or neo4j:// URI (7687 when none is given). */
export function boltTarget(uri: string): { host: string; port: number } {
  const url = new URL(uri.replace(/^[a-z+]+:\/\//, 'http://'));
  return { host: url.hostname, port: url.port ? Number(url.port) : 7687 };
}
