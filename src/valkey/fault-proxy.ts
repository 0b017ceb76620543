import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of one Valkey node that can lose a reply on purpose: when armed, the
 * first client→server chunk that matches is forwarded, and `afterMs` later both sides of that
 * connection are destroyed — the server still runs the command, its reply never reaches the client.
 * (CLIENT KILL cannot do this: Valkey refuses it while a script runs.) Loopback only.
 */
export class FaultProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<[Socket, Socket]>();
  private armed: { match: (chunk: Buffer) => boolean; afterMs: number; fired: () => void } | undefined;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.on('data', (d) => client.write(d));
      client.on('data', (d) => {
        upstream.write(d);
        const a = this.armed;
        if (a && a.match(d)) {
          this.armed = undefined;
          setTimeout(() => {
            drop();
            a.fired();
          }, a.afterMs);
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
    return this;
  }

  /** Cuts the connection `afterMs` after the next chunk that matches; resolves when it has cut. */
  cutAfter(match: (chunk: Buffer) => boolean, afterMs: number): Promise<void> {
    return new Promise((fired) => {
      this.armed = { match, afterMs, fired };
    });
  }

  async stop(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Matches a RESP request carrying EVAL or EVALSHA. */
export const isEvalRequest = (chunk: Buffer): boolean => /\r\nEVAL(SHA)?\r\n/i.test(chunk.toString('latin1'));
