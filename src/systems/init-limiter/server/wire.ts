/**
 * What the server sends, byte for byte: the SSE events of a stream (an FDv2 basis of many events,
 * the FDv1 put of one, the up-to-date reply, live deltas, heartbeats) and the poll bodies.
 */
import type { Delta, Snapshot } from './store.js';

export type BasisFormat = 'v2' | 'put';

export function sseEvent(name: string, data: unknown): Buffer {
  return Buffer.from(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const HEARTBEAT = Buffer.from(':\n\n');

/** A serialized full basis: the events of one store version in one format. Shared, never copied. */
export interface SerializedBasis {
  readonly format: BasisFormat;
  readonly version: number;
  readonly events: readonly Buffer[];
  readonly bytes: number;
}

export function serializeBasis(format: BasisFormat, s: Snapshot): SerializedBasis {
  const events: Buffer[] =
    format === 'put'
      ? [sseEvent('put', { version: s.version, flags: Object.fromEntries(s.flags.map((f) => [f.key, { version: f.version, value: f.value }])) })]
      : [
          sseEvent('server-intent', { version: s.version, intent: 'xfer-full', objects: s.flags.length }),
          ...s.flags.map((f) => sseEvent('put-object', { key: f.key, version: f.version, value: f.value })),
          sseEvent('payload-transferred', { version: s.version }),
        ];
  return Object.freeze({ format, version: s.version, events: Object.freeze(events), bytes: events.reduce((n, e) => n + e.length, 0) });
}

/** The small reply to a client whose basis is the current version: no payload. */
export function upToDateEvent(version: number): Buffer {
  return sseEvent('server-intent', { version, intent: 'none' });
}

export function deltaEvent(d: Delta): Buffer {
  return sseEvent('patch', { version: d.version, key: d.flag.key, value: d.flag.value });
}

export type PollKind = 'flags' | 'poll' | 'poll_eval';

export function pollBody(kind: PollKind, s: Snapshot): Buffer {
  if (kind === 'flags') return Buffer.from(JSON.stringify({ version: s.version, flags: Object.fromEntries(s.flags.map((f) => [f.key, { version: f.version, value: f.value }])) }));
  if (kind === 'poll') return Buffer.from(JSON.stringify({ version: s.version, intent: 'xfer-full', objects: s.flags.map((f) => ({ key: f.key, version: f.version, value: f.value })) }));
  return Buffer.from(JSON.stringify({ version: s.version, intent: 'xfer-full', values: Object.fromEntries(s.flags.map((f) => [f.key, f.value])) }));
}

export function upToDateBody(version: number): Buffer {
  return Buffer.from(JSON.stringify({ version, intent: 'none' }));
}

export function shedBody(retryAfterSeconds: number): Buffer {
  return Buffer.from(JSON.stringify({ error: 'init_budget_full', message: 'the initialization budget is full; retry later', retryAfterSeconds }));
}

/** Distinct serialized bases held by deliveries in progress (the memory the budget bounds). */
export class ResidentBases {
  private readonly refs = new Map<SerializedBasis, number>();

  hold(b: SerializedBasis): () => void {
    this.refs.set(b, (this.refs.get(b) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const n = (this.refs.get(b) ?? 1) - 1;
      if (n <= 0) this.refs.delete(b);
      else this.refs.set(b, n);
    };
  }

  get count(): number {
    return this.refs.size;
  }

  get bytes(): number {
    let n = 0;
    for (const b of this.refs.keys()) n += b.bytes;
    return n;
  }
}
