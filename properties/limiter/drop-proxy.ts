/**
 * A loopback TCP proxy in front of one Valkey node that can lose exactly one reply: when armed, it
 * forwards the client's next request, swallows the server's reply to it and closes the client
 * connection. The command therefore EXECUTED on the server and the client cannot know — the
 * "connection failure after send" the no-resend rule is about. Loopback only; stop() closes all.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface DropProxy {
  readonly port: number;
  /** The next reply the server sends (on any connection) is dropped with its client connection. */
  armDrop(): void;
  /** Replies dropped so far. */
  readonly dropped: number;
  stop(): Promise<void>;
}

export async function startDropProxy(target: { host: string; port: number }): Promise<DropProxy> {
  let armed = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (armed) {
        armed = false;
        dropped++;
        closeBoth();
        return;
      }
      client.write(chunk);
    });
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('drop proxy: no TCP address');
  return {
    port: address.port,
    armDrop: () => void (armed = true),
    get dropped() {
      return dropped;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
