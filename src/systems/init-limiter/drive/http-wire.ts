/**
 * The client side of HTTP/1.1 on a raw socket, so a client decides exactly when it reads (a stall
 * is a client that stops reading; nothing in between buffers for it). Parses the responses that
 * arrive on one connection, one after another: the status line and headers, then a body framed by
 * Content-Length or chunked encoding (or by the close).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { connect, type NetConnectOpts, type Socket } from 'node:net';

export interface ResponseHead {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface MessageSink {
  head(h: ResponseHead): void;
  /** Body bytes (chunk framing removed). */
  body(data: Buffer): void;
  /** The body is complete (a framed body; an unframed one ends only with the connection). */
  end(): void;
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'until-close';

export class ResponseParser {
  private buf: Buffer = Buffer.alloc(0);
  private state: State = 'head';
  private left = 0;

  constructor(private readonly sink: MessageSink) {}

  /** Feeds the next bytes from the socket; throws on a malformed response. */
  push(data: Buffer): void {
    this.buf = this.buf.length === 0 ? data : Buffer.concat([this.buf, data]);
    for (;;) if (!this.step()) return;
  }

  private line(): string | null {
    const i = this.buf.indexOf('\r\n');
    if (i < 0) return null;
    const s = this.buf.subarray(0, i).toString('latin1');
    this.buf = this.buf.subarray(i + 2);
    return s;
  }

  private step(): boolean {
    switch (this.state) {
      case 'head': {
        const i = this.buf.indexOf('\r\n\r\n');
        if (i < 0) return false;
        const lines = this.buf.subarray(0, i).toString('latin1').split('\r\n');
        this.buf = this.buf.subarray(i + 4);
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
        if (!m) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(lines[0])}`);
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1)) {
          const c = l.indexOf(':');
          if (c > 0) headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
        }
        this.sink.head({ status: Number(m[1]), headers });
        if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) this.state = 'chunk-size';
        else if (headers['content-length'] !== undefined) {
          this.left = Number(headers['content-length']);
          this.state = 'length';
          if (this.left === 0) this.finish();
        } else this.state = 'until-close';
        return true;
      }
      case 'length': {
        if (this.buf.length === 0) return false;
        const n = Math.min(this.left, this.buf.length);
        this.sink.body(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        this.left -= n;
        if (this.left === 0) this.finish();
        return true;
      }
      case 'chunk-size': {
        const l = this.line();
        if (l === null) return false;
        const size = parseInt(l.split(';')[0]!.trim(), 16);
        if (!Number.isFinite(size) || size < 0) throw new Error(`bad chunk size line ${JSON.stringify(l)}`);
        this.left = size;
        this.state = size === 0 ? 'trailers' : 'chunk-data';
        return true;
      }
      case 'chunk-data': {
        if (this.buf.length === 0) return false;
        const n = Math.min(this.left, this.buf.length);
        this.sink.body(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        this.left -= n;
        if (this.left === 0) this.state = 'chunk-crlf';
        return true;
      }
      case 'chunk-crlf': {
        if (this.buf.length < 2) return false;
        this.buf = this.buf.subarray(2);
        this.state = 'chunk-size';
        return true;
      }
      case 'trailers': {
        const l = this.line();
        if (l === null) return false;
        if (l === '') this.finish();
        return true;
      }
      case 'until-close': {
        if (this.buf.length === 0) return false;
        this.sink.body(this.buf);
        this.buf = Buffer.alloc(0);
        return true;
      }
    }
  }

  private finish(): void {
    this.state = 'head';
    this.sink.end();
  }
}

/** host and port of a base URL (http only: the driver speaks plain HTTP/1.1). */
export function endpointOf(baseUrl: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new DriveInputError(`not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (u.protocol !== 'http:') throw new DriveInputError(`only http:// URLs are supported (got ${u.protocol})`);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : 80 };
}

export class DriveInputError extends Error {}

/** A connected socket (rejects with the connect error). */
export function openSocket(baseUrl: string, readableHighWaterMark = 16 * 1024): Promise<Socket> {
  const { host, port } = endpointOf(baseUrl);
  return new Promise<Socket>((resolve, reject) => {
    const s = connect({ host, port, readableHighWaterMark } as NetConnectOpts);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** The request line and headers of a GET. */
export function getRequest(baseUrl: string, path: string, headers: Readonly<Record<string, string>> = {}): Buffer {
  const { host, port } = endpointOf(baseUrl);
  const lines = [`GET ${path} HTTP/1.1`, `host: ${host}:${port}`, ...Object.entries({ connection: 'keep-alive', ...headers }).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}

/** Kept-alive connections for the small control and metrics requests (idle ones do not hold the process). */
const MAX_POOLED = 4;
const agent = new HttpAgent({ keepAlive: true, maxSockets: MAX_POOLED });

export interface SmallReply {
  readonly status: number;
  readonly text: string;
}

/**
 * One small request (control, metrics) on a pooled connection. A kept-alive connection the server
 * closed as idle just as it was reused fails before the server read the request (ECONNRESET, "socket
 * hang up"): that one is sent again, as Node's documentation advises
 * (`request.reusedSocket`); any other failure is the caller's.
 */
export function smallRequest(baseUrl: string, method: 'GET' | 'POST', path: string, body?: string): Promise<SmallReply> {
  const { host, port } = endpointOf(baseUrl);
  const once = (): Promise<SmallReply> =>
    new Promise<SmallReply>((resolve, reject) => {
      const req = httpRequest({ host, port, method, path, agent, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => reject(req.reusedSocket && err.code === 'ECONNRESET' ? new ReusedSocketReset() : err));
      req.end(body);
    });
  // Every idle pooled connection may have been closed meanwhile: at most one try per pooled one.
  const attempt = (left: number): Promise<SmallReply> =>
    once().catch((err: unknown) => {
      if (err instanceof ReusedSocketReset && left > 0) return attempt(left - 1);
      throw err;
    });
  return attempt(MAX_POOLED);
}

class ReusedSocketReset extends Error {}
