/**
 * The client of a server's control endpoint (/_control, test seams only). Against a server without
 * one (production mode, or a team's own server) `available()` is false and only the real-time checks
 * run. The protocol is documented in src/systems/init-limiter/server/control.ts and docs/init-limiter.md.
 */
import type { ClientsReadout } from '../server/client-views.js';
import { endpointOf, smallRequest } from './http-wire.js';

export interface PointState {
  readonly point: string;
  readonly client: string | null;
  readonly arrivals: number;
  readonly parked: number;
  readonly armed: number;
}

export class ControlError extends Error {}

export class ControlClient {
  constructor(readonly baseUrl: string) {
    endpointOf(baseUrl);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, okStatuses: readonly number[] = [200]): Promise<{ status: number; body: T }> {
    const res = await smallRequest(this.baseUrl, method, `/_control${path}`, body === undefined ? undefined : JSON.stringify(body));
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (!okStatuses.includes(res.status))
      throw new ControlError(`/_control${path}: ${res.status} ${typeof parsed === 'object' && parsed && 'error' in parsed ? String((parsed as { error: unknown }).error) : text.slice(0, 200)}`);
    return { status: res.status, body: parsed as T };
  }

  /** Whether the server has a control endpoint. */
  async available(): Promise<boolean> {
    try {
      return (await smallRequest(this.baseUrl, 'GET', '/_control')).status === 200;
    } catch {
      return false;
    }
  }

  /** Every point's counts (of `client`, or in total), the clock, the store version. */
  async state(client?: string): Promise<{ points: PointState[]; clock: { kind: 'manual' | 'real'; now: number }; version: number }> {
    return (await this.call<{ points: PointState[]; clock: { kind: 'manual' | 'real'; now: number }; version: number }>('GET', client ? `?client=${encodeURIComponent(client)}` : '')).body;
  }

  /** One point's counts (of `client`, or in total). */
  async point(point: string, client?: string): Promise<PointState> {
    return (await this.state(client)).points.find((p) => p.point === point) ?? { point, client: client ?? null, arrivals: 0, parked: 0, armed: 0 };
  }

  /** Parks the next `count` arrivals at `point` (of `client` only, when given). */
  async hold(point: string, count = 1, client?: string): Promise<PointState> {
    return (await this.call<PointState>('POST', '/hold', { point, count, ...(client ? { client } : {}) })).body;
  }

  /** Lets parked arrivals go (`count` of them, oldest first; all and disarmed when no count). */
  async release(point: string, count?: number, client?: string): Promise<PointState> {
    return (await this.call<PointState>('POST', '/release', { point, ...(count === undefined ? {} : { count }), ...(client ? { client } : {}) })).body;
  }

  /** Waits until `point` has at least `arrivals` arrivals (and `parked` parked), of `client` or in total; throws after `timeoutMs`. */
  async wait(point: string, want: { arrivals?: number; parked?: number }, timeoutMs = 10_000, client?: string): Promise<PointState> {
    const q = new URLSearchParams({ point, arrivals: String(want.arrivals ?? 0), parked: String(want.parked ?? 0), timeoutMs: String(timeoutMs), ...(client ? { client } : {}) });
    const r = await this.call<PointState>('GET', `/wait?${q.toString()}`, undefined, [200, 408]);
    if (r.status === 408) throw new ControlError(`${point} did not reach ${JSON.stringify(want)} in ${timeoutMs} ms (now ${JSON.stringify(r.body)})`);
    return r.body;
  }

  /** What the server holds for each named client (x-client-id): its phase, delivery, socket bytes. */
  async clients(): Promise<ClientsReadout> {
    return (await this.call<ClientsReadout>('GET', '/clients')).body;
  }

  async advance(ms: number): Promise<{ now: number; fired: number; cuts: number }> {
    return (await this.call<{ now: number; fired: number; cuts: number }>('POST', '/advance', { ms })).body;
  }

  async publish(change: { key?: string; valueBytes?: number } = {}): Promise<number> {
    return (await this.call<{ version: number }>('POST', '/publish', change)).body.version;
  }
}
