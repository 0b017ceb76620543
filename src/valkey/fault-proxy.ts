import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of one Valkey node whose connections can be cut at a chosen moment
 * (both sides destroyed at once). Cut while the server runs a script, the server finishes the script
 * and its reply never reaches the client. (CLIENT KILL cannot do this: Valkey refuses it while a
 * script runs.) Or armed with `dropNextReply()`: the next bytes the server sends, on any connection
 * through the proxy, are discarded and that connection cut — the command executed, the caller
 * cannot know. Loopback only.
 */
export class FaultProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<[Socket, Socket]>();
  private armed = false;
  /** Replies dropped so far (dropNextReply() that happened). */
  dropped = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const drop = () => this.cut(pair);
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      // Like upstream.pipe(client) (with back-pressure), but a reply can be swallowed when armed.
      upstream.on('data', (chunk: Buffer) => {
        if (this.armed) {
          this.armed = false;
          this.dropped += 1;
          this.cut(pair);
        } else if (!client.write(chunk)) {
          upstream.pause();
        }
      });
      client.on('drain', () => upstream.resume());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
    return this;
  }

  /** The next reply the server sends (on any connection) is lost, with its connection. */
  dropNextReply(): void {
    this.armed = true;
  }

  /** Arms dropNextReply() and waits (at most `timeoutMs`) until a reply was dropped; false if none came. */
  async dropOneReply(timeoutMs: number): Promise<boolean> {
    const before = this.dropped;
    this.dropNextReply();
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
      if (this.dropped > before) return true;
      await new Promise((r) => setTimeout(r, 5));
    }
    this.disarm();
    return this.dropped > before;
  }

  /** Cancels a dropNextReply() that has not happened yet. */
  disarm(): void {
    this.armed = false;
  }

  /** Destroys every open connection through the proxy (new ones are still accepted). Returns how many. */
  cutAll(): number {
    const n = this.pairs.size;
    for (const p of [...this.pairs]) this.cut(p);
    return n;
  }

  private cut(pair: [Socket, Socket]): void {
    pair[0].destroy();
    pair[1].destroy();
    this.pairs.delete(pair);
  }

  async stop(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
