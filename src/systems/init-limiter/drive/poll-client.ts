/**
 * A polling client on one kept-alive connection: requests go one after another on the same socket,
 * so a deadline the server leaves armed on the connection shows on the next request (it is cut:
 * the reply never comes, the socket closes).
 */
import type { Socket } from 'node:net';
import { getRequest, openSocket, ResponseParser, type ResponseHead } from './http-wire.js';

export type PollReply =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer; readonly json: unknown }
  | { readonly kind: 'closed' /** body bytes of the unfinished reply */; readonly bytes: number }
  | { readonly kind: 'timeout' };

export class KeptAliveConnection {
  private head: ResponseHead | null = null;
  private body: Buffer[] = [];
  private current: ((r: PollReply) => void) | null = null;
  private closedFlag = false;
  /** Requests sent on this connection. */
  requests = 0;
  private readonly parser: ResponseParser;

  private constructor(
    readonly socket: Socket,
    private readonly baseUrl: string,
  ) {
    this.parser = new ResponseParser({
      head: (h) => (this.head = h),
      body: (b) => this.body.push(b),
      end: () => this.complete(),
    });
    socket.on('data', (d: Buffer) => this.parser.push(d));
    socket.on('error', () => {});
    socket.once('close', () => {
      this.closedFlag = true;
      const pending = this.current;
      this.current = null;
      pending?.({ kind: 'closed', bytes: this.body.reduce((n, b) => n + b.length, 0) });
    });
  }

  static async open(baseUrl: string): Promise<KeptAliveConnection> {
    return new KeptAliveConnection(await openSocket(baseUrl), baseUrl);
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  /** GET `path` on this connection; the reply, or 'closed' if the server closed it first. */
  request(path: string, headers: Readonly<Record<string, string>> = {}, timeoutMs = 10_000): Promise<PollReply> {
    if (this.current) throw new Error('one request at a time on a kept-alive connection');
    if (this.closedFlag) return Promise.resolve({ kind: 'closed', bytes: 0 });
    this.head = null;
    this.body = [];
    this.requests += 1;
    return new Promise<PollReply>((resolve) => {
      const timer = setTimeout(() => {
        this.current = null;
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      this.current = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.socket.write(getRequest(this.baseUrl, path, { accept: 'application/json', ...headers }));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private complete(): void {
    const h = this.head;
    const pending = this.current;
    this.current = null;
    if (!h || !pending) return;
    const body = Buffer.concat(this.body);
    let json: unknown = null;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      json = null;
    }
    pending({ kind: 'response', status: h.status, headers: h.headers, body, json });
  }
}

/** One request on a fresh connection, closed after. */
export async function pollOnce(baseUrl: string, path: string, headers: Readonly<Record<string, string>> = {}): Promise<PollReply> {
  const c = await KeptAliveConnection.open(baseUrl);
  try {
    return await c.request(path, headers);
  } finally {
    c.close();
  }
}
