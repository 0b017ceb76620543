import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of one Valkey node whose connections can be cut at a chosen moment
 * (both sides destroyed at once). Cut while the server runs a script, the server finishes the script
 * and its reply never reaches the client. (CLIENT KILL cannot do this: Valkey refuses it while a
 * script runs.) Or armed with `dropNextReply()`: the next bytes the server sends, on any connection
 * through the proxy, are discarded and that connection cut — the command executed, the caller
 * cannot know. Or held (`hold()`): connections made from then on are accepted and parked — nothing
 * forwarded, no upstream opened — until `release()` forwards them (what they sent meanwhile
 * included); a client such as a replica's replication link waits in its handshake, down, for
 * exactly as long as the caller decides. `releaseThrough(line)` releases in two steps: the server's
 * bytes pass up to the end of the first line matching `line` (a replica's handshake up to the
 * primary's answer to PSYNC), the rest waits for `release()`. Loopback only.
 */
export class FaultProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<[Socket, Socket]>();
  private armed = false;
  private held = false;
  /** Connections accepted while held, each waiting for release(). */
  private readonly parked = new Set<Socket>();
  /** Set by releaseThrough(): connections forwarded meanwhile pass replies through this line only. */
  private gateLine: RegExp | null = null;
  private readonly gates = new Set<ReplyGate>();
  /** Replies dropped so far (dropNextReply() that happened). */
  dropped = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (!this.held) return this.forward(client);
      // Not read until release (a socket starts paused): its bytes wait in the kernel buffer.
      this.parked.add(client);
      const unpark = () => this.parked.delete(client);
      client.on('error', unpark).on('close', unpark);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
    return this;
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const gate = this.gateLine ? new ReplyGate(this.gateLine, (bytes) => client.write(bytes)) : null;
    if (gate) this.gates.add(gate);
    const drop = () => {
      if (gate) this.gates.delete(gate);
      this.cut(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    // Like upstream.pipe(client) (with back-pressure), but a reply can be swallowed when armed, or kept by a gate.
    upstream.on('data', (chunk: Buffer) => {
      if (this.armed) {
        this.armed = false;
        this.dropped += 1;
        this.cut(pair);
        return;
      }
      const now = gate ? gate.pass(chunk) : chunk;
      if (now.length > 0 && !client.write(now)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
  }

  /** Parks every connection made from now on until release(); open ones are left as they are. */
  hold(): void {
    this.held = true;
  }

  /** Ends the hold: parked connections are forwarded (their buffered bytes first), new ones too; gated replies pass. */
  release(): void {
    this.gateLine = null;
    this.forwardParked();
    for (const g of this.gates) g.open();
    this.gates.clear();
  }

  /**
   * Ends the hold halfway: parked connections (and new ones, until release()) are forwarded, but
   * the server's replies on each pass only through the end of the first line matching `line`
   * (no g or y flag); what follows is kept until release().
   */
  releaseThrough(line: RegExp): void {
    this.gateLine = line;
    this.forwardParked();
  }

  private forwardParked(): void {
    this.held = false;
    for (const client of [...this.parked]) {
      this.parked.delete(client);
      if (!client.destroyed) this.forward(client);
    }
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
    for (const client of this.parked) client.destroy();
    this.parked.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const EMPTY = Buffer.alloc(0);
/** A handshake reply line is short: a longer run without a newline is no handshake, so it is not scanned further. */
const MAX_LINE = 64 * 1024;

/**
 * One connection's server→client bytes under releaseThrough(): passed through the end of the first
 * line matching `line`, then kept (in memory: a test-sized stream) until open().
 */
class ReplyGate {
  /** The bytes of the current line so far (already passed), for a line split across chunks. */
  private partial = EMPTY;
  private matched = false;
  private opened = false;
  private readonly kept: Buffer[] = [];

  constructor(
    private readonly line: RegExp,
    private readonly write: (bytes: Buffer) => void,
  ) {}

  /** The part of `chunk` to forward now; the rest is kept. */
  pass(chunk: Buffer): Buffer {
    if (this.opened) return chunk;
    if (this.matched) {
      this.kept.push(chunk);
      return EMPTY;
    }
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const text = Buffer.concat([this.partial, chunk.subarray(start, nl + 1)]).toString('latin1');
      this.partial = EMPTY;
      start = nl + 1;
      if (text.search(this.line) !== -1) {
        this.matched = true;
        if (start < chunk.length) this.kept.push(chunk.subarray(start));
        return chunk.subarray(0, start);
      }
    }
    const rest = Buffer.concat([this.partial, chunk.subarray(start)]);
    this.partial = rest.length > MAX_LINE ? EMPTY : rest;
    return chunk;
  }

  /** Forwards what was kept; everything after passes. */
  open(): void {
    this.opened = true;
    if (this.kept.length > 0) this.write(Buffer.concat(this.kept));
    this.kept.length = 0;
  }
}
