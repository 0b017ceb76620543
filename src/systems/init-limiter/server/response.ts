/**
 * The response writer chain every handler writes through, as in the relay: the base writer on the
 * node:http response, a recorder (status and bytes, for the access log), the request logger. A
 * write deadline is set through `setWriteDeadline`, which walks the chain by `unwrap()` down to the
 * base writer and its socket — a wrapper that does not unwrap hides the socket, and the deadline
 * silently goes nowhere (the seed's bug, fixed by adding Unwrap to both wrappers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { SocketDeadline, SocketDeadlines, DeadlineOwner } from './socket-deadline.js';

export type Headers = Readonly<Record<string, string | number>>;

export interface ResponseWriter {
  writeHead(status: number, headers: Headers): void;
  /** Sends the status line and headers now (an SSE response starts before its first event). */
  flushHeaders(): void;
  /** Resolves true once the bytes are handed to the kernel, false if the connection closed first. */
  write(data: Buffer): Promise<boolean>;
  /** Ends the response (with a last piece); true once handed to the kernel. */
  end(data?: Buffer): Promise<boolean>;
  /** Resolves when the connection closes, for any reason. */
  readonly closed: Promise<void>;
  /** The writer this one wraps; null for the base writer, or for a wrapper that hides what it wraps. */
  unwrap(): ResponseWriter | null;
}

export class BaseResponseWriter implements ResponseWriter {
  readonly closed: Promise<void>;
  private isClosed = false;
  /** Writes waiting for their callback: each settles false if the connection closes first. */
  private readonly inFlight = new Set<(ok: boolean) => void>();
  /** The connection, kept: node:http detaches it from the response once the response finishes. */
  readonly socket: Socket | null;

  constructor(
    readonly res: ServerResponse,
    private readonly deadlines: SocketDeadlines,
  ) {
    this.socket = res.socket;
    // No Date header: a response is a function of the request and the store, byte for byte.
    res.sendDate = false;
    this.closed = new Promise<void>((resolve) => {
      res.once('close', () => {
        this.isClosed = true;
        for (const finish of [...this.inFlight]) finish(false);
        resolve();
      });
    });
  }

  /** The connection's write deadline (made on first use). */
  connectionDeadline(): SocketDeadline | null {
    return this.socket ? this.deadlines.of(this.socket) : null;
  }

  writeHead(status: number, headers: Headers): void {
    this.res.writeHead(status, headers as Record<string, string | number>);
  }

  flushHeaders(): void {
    this.res.flushHeaders();
  }

  write(data: Buffer): Promise<boolean> {
    return this.settle((cb) => this.res.write(data, cb));
  }

  end(data?: Buffer): Promise<boolean> {
    return this.settle((cb) => (data === undefined ? this.res.end(cb) : this.res.end(data, cb)));
  }

  unwrap(): ResponseWriter | null {
    return null;
  }

  private settle(op: (cb: (err?: Error | null) => void) => void): Promise<boolean> {
    if (this.isClosed || this.res.destroyed || this.res.writableEnded) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (ok: boolean) => {
        if (!this.inFlight.delete(finish)) return;
        resolve(ok);
      };
      this.inFlight.add(finish);
      op((err) => finish(!err && !this.res.destroyed));
    });
  }
}

/** Forwards everything to the writer it wraps; subclasses add one concern each. */
export class WrappingWriter implements ResponseWriter {
  constructor(protected readonly inner: ResponseWriter) {}
  get closed(): Promise<void> {
    return this.inner.closed;
  }
  writeHead(status: number, headers: Headers): void {
    this.inner.writeHead(status, headers);
  }
  flushHeaders(): void {
    this.inner.flushHeaders();
  }
  write(data: Buffer): Promise<boolean> {
    return this.inner.write(data);
  }
  end(data?: Buffer): Promise<boolean> {
    return this.inner.end(data);
  }
  unwrap(): ResponseWriter | null {
    return this.inner;
  }
}

/** The status and the bytes of a response (the relay's statusRecorder, for the duration metrics). */
export class RecordingWriter extends WrappingWriter {
  status = 200;
  bytes = 0;
  override writeHead(status: number, headers: Headers): void {
    this.status = status;
    super.writeHead(status, headers);
  }
  override write(data: Buffer): Promise<boolean> {
    this.bytes += data.length;
    return super.write(data);
  }
  override end(data?: Buffer): Promise<boolean> {
    if (data) this.bytes += data.length;
    return super.end(data);
  }
}

export type LogLevel = 'debug' | 'info' | 'warn';
export type Log = (level: LogLevel, message: string, fields?: Readonly<Record<string, unknown>>) => void;

/** The request logger: one debug line per response when it ends. */
export class LoggingWriter extends WrappingWriter {
  private status = 200;
  constructor(
    inner: ResponseWriter,
    private readonly log: Log,
    private readonly req: IncomingMessage,
  ) {
    super(inner);
  }
  override writeHead(status: number, headers: Headers): void {
    this.status = status;
    super.writeHead(status, headers);
  }
  override end(data?: Buffer): Promise<boolean> {
    this.log('debug', 'request', { method: this.req.method, url: this.req.url, status: this.status });
    return super.end(data);
  }
}

/**
 * The response controller (Go's http.NewResponseController(w).SetWriteDeadline): sets the deadline
 * of the connection under `w`. false — "not supported" — when a wrapper in the chain hides it.
 */
export function setWriteDeadline(w: ResponseWriter, at: number | null, owner: DeadlineOwner): boolean {
  for (let cur: ResponseWriter | null = w; cur; cur = cur.unwrap()) {
    if (cur instanceof BaseResponseWriter) {
      const d = cur.connectionDeadline();
      if (!d) return false;
      d.set(at, owner);
      return true;
    }
  }
  return false;
}
