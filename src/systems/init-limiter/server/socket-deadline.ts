/**
 * A write deadline on a connection, with Go's net.Conn semantics (SetWriteDeadline), which Node
 * does not have: an absolute time after which a write pending on the socket is cut, and any later
 * write is cut as it is attempted — until the deadline is moved or cleared. A cut is real: the
 * socket is destroyed. The deadline lives on the connection, not on one response: a deadline left
 * armed when a handler returns still cuts the next request on the same kept-alive connection.
 */
import type { Socket } from 'node:net';
import type { Clock } from './clock.js';
import type { Surface } from './limiter.js';

/** Whoever armed the deadline: the surface a cut is counted and logged against. */
export interface DeadlineOwner {
  readonly surface: Surface;
}

export type CutSink = (owner: DeadlineOwner, socket: Socket, why: 'pending write' | 'write after the deadline') => void;

export class SocketDeadline {
  private at: number | null = null;
  private owner: DeadlineOwner | null = null;
  private cancelTimer: () => void = () => {};

  constructor(
    readonly socket: Socket,
    private readonly clock: Clock,
    private readonly onCut: CutSink,
    private readonly onChange: () => void,
  ) {
    // Every write of the connection passes here (node:http writes a response through socket.write).
    const write = socket.write as (...args: unknown[]) => boolean;
    const self = this;
    socket.write = function (this: Socket, ...args: unknown[]): boolean {
      if (self.expired()) {
        self.cut('write after the deadline');
        return false;
      }
      return write.apply(this, args);
    } as Socket['write'];
    socket.once('close', () => this.disarm());
  }

  /** The absolute time (on the server's clock) writes must finish by; null clears it. */
  set(at: number | null, owner: DeadlineOwner): void {
    this.cancelTimer();
    this.cancelTimer = () => {};
    this.at = at;
    this.owner = at === null ? null : owner;
    this.onChange();
    if (at === null || this.socket.destroyed) return;
    const delay = at - this.clock.now();
    if (delay <= 0) this.expire();
    else this.cancelTimer = this.clock.setTimer(delay, () => this.expire());
  }

  get armed(): boolean {
    return this.at !== null && !this.socket.destroyed;
  }

  get deadline(): number | null {
    return this.at;
  }

  private expired(): boolean {
    return this.at !== null && this.clock.now() >= this.at;
  }

  private expire(): void {
    // Bytes not yet taken by the kernel: the write is blocked on a client that does not read.
    if (this.socket.writableLength > 0) this.cut('pending write');
  }

  private cut(why: 'pending write' | 'write after the deadline'): void {
    if (this.socket.destroyed) return;
    const owner = this.owner ?? { surface: 'stream' as const };
    this.disarm();
    this.onCut(owner, this.socket, why);
    // A reset, not a close: a close leaves the kernel sending the queued megabytes (then a FIN) to the
    // client that stopped reading, holding the memory and the egress the cut is meant to bound.
    this.socket.resetAndDestroy();
  }

  private disarm(): void {
    this.cancelTimer();
    this.cancelTimer = () => {};
    if (this.at !== null) {
      this.at = null;
      this.onChange();
    }
  }
}

/** The server's connections' deadlines, made on first use (a connection never given one is untouched). */
export class SocketDeadlines {
  private readonly bySocket = new WeakMap<Socket, SocketDeadline>();
  private readonly live = new Set<SocketDeadline>();
  /** Sockets a deadline cut (a close handler tells a cut from a client's disconnect by it). */
  readonly cutSockets = new WeakSet<Socket>();

  constructor(
    private readonly clock: Clock,
    private readonly onCut: CutSink,
  ) {}

  of(socket: Socket): SocketDeadline {
    let d = this.bySocket.get(socket);
    if (!d) {
      const made: SocketDeadline = new SocketDeadline(
        socket,
        this.clock,
        (owner, s, why) => {
          this.cutSockets.add(s);
          this.onCut(owner, s, why);
        },
        () => {
          if (made.armed) this.live.add(made);
          else this.live.delete(made);
        },
      );
      d = made;
      this.bySocket.set(socket, d);
    }
    return d;
  }

  /** The deadline of `socket` now (null: none set, or it never had one); the read-out does not make one. */
  deadlineOf(socket: Socket): number | null {
    return this.bySocket.get(socket)?.deadline ?? null;
  }

  /** Connections with a deadline armed now. */
  get armed(): number {
    let n = 0;
    for (const d of this.live) if (d.armed) n++;
    return n;
  }
}
