/**
 * What the tour's clients really received, judged against the store: a stream's feed event by event
 * (its basis byte for byte the store's at the version the basis names, then every delta after it in
 * order, none missing), a poll's every reply (a full body the store's at the version the server was
 * at when it wrote it, an up-to-date reply only at the client's own current basis, a 503 with a
 * Retry-After of a second at least and the shed body). "The store" is the server's own store type
 * and wire format replayed at the tour's data shape, so a client's data set is compared with the
 * data set of the version it reports, never with what the server says it sent.
 *
 * Judged as the bytes arrive (each event once per client), so a tour of thousands of reads pays
 * string comparisons, not a parse of megabytes per read.
 */
import { SseParser, type SseEvent } from '../drive/sse.js';
import type { PollReply } from '../drive/poll-client.js';
import { VersionedStore, type DataSetShape } from '../server/store.js';
import { deltaEvent, pollBody, serializeBasis, shedBody, upToDateBody, upToDateEvent, type BasisFormat } from '../server/wire.js';

function eventsOf(bufs: readonly Buffer[]): SseEvent[] {
  const out: SseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  for (const b of bufs) p.push(b);
  return out;
}

const same = (a: SseEvent, b: SseEvent): boolean => a.event === b.event && a.data === b.data;

/** The store's wire at every version up to `maxVersion`: what a client of each version must receive. */
export class StoreWire {
  private readonly bases: SseEvent[][] = [];
  /** FDv1's basis (/all): one put event of the whole data set. */
  private readonly puts: SseEvent[][] = [];
  private readonly deltas: SseEvent[] = [];
  private readonly polls: Buffer[] = [];

  private constructor(readonly maxVersion: number) {}

  private static readonly cache = new Map<string, StoreWire>();

  /** One per data shape and bound (kept: every instance of a tour shares it). */
  static of(shape: DataSetShape, maxVersion: number): StoreWire {
    const id = `${shape.flags}/${shape.valueBytes}/${maxVersion}`;
    const hit = StoreWire.cache.get(id);
    if (hit) return hit;
    const w = new StoreWire(maxVersion);
    const store = new VersionedStore(shape);
    for (let v = 1; v <= maxVersion; v++) {
      if (v > 1) w.deltas[v] = eventsOf([deltaEvent(store.publish())])[0]!;
      const snap = store.snapshot();
      w.bases[v] = eventsOf(serializeBasis('v2', snap).events);
      w.puts[v] = eventsOf(serializeBasis('put', snap).events);
      w.polls[v] = pollBody('poll', snap);
    }
    StoreWire.cache.set(id, w);
    return w;
  }

  basis(v: number, format: BasisFormat = 'v2'): readonly SseEvent[] | undefined {
    return format === 'put' ? this.puts[v] : this.bases[v];
  }

  /** The version whose FDv1 put event `e` is, byte for byte, or null. */
  putVersion(e: SseEvent): number | null {
    for (let v = 1; v <= this.maxVersion; v++) if (same(e, this.puts[v]![0]!)) return v;
    return null;
  }

  delta(v: number): SseEvent | undefined {
    return this.deltas[v];
  }

  upToDate(v: number): SseEvent {
    return eventsOf([upToDateEvent(v)])[0]!;
  }

  /** The version whose full poll body `body` is, or null. */
  pollVersion(body: Buffer): number | null {
    for (let v = 1; v <= this.maxVersion; v++) if (this.polls[v]!.equals(body)) return v;
    return null;
  }
}

function small(e: SseEvent): Record<string, unknown> {
  if (e.data.length > 4096) return {};
  try {
    return JSON.parse(e.data) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const named = (e: SseEvent): string => {
  const d = small(e);
  return d.version !== undefined ? `${e.event} (version ${String(d.version)})` : e.event;
};

/**
 * One stream's feed, judged event by event: the first finding stops it (later events are moot).
 * `at` is the version the client's data set is at once its basis is whole (null before).
 */
export class FeedJudge {
  private judged = 0;
  private basis: readonly SseEvent[] | null = null;
  private pos = 0;
  private basisVersion: number | null = null;
  at: number | null = null;
  finding: string | null = null;

  constructor(
    private readonly client: string,
    private readonly wire: StoreWire,
    /** The basis the client connected with (0: no data). */
    private readonly asked: number,
    /** The stream's format: FDv2 (/sdk/stream) or FDv1 (/all, one put event, no basis). */
    private readonly format: BasisFormat = 'v2',
  ) {}

  /** Judges the events not judged yet. */
  feed(events: readonly SseEvent[]): void {
    for (; this.judged < events.length && this.finding === null; this.judged++) {
      const what = this.one(events[this.judged]!);
      if (what !== null) this.finding = `${this.client}: event ${this.judged}: ${what}`;
    }
  }

  /** What is wrong with the next event (null: it is the store's). */
  private one(e: SseEvent): string | null {
    if (this.at !== null) {
      const want = this.wire.delta(this.at + 1);
      if (!want || !same(e, want)) return `${named(e)} where the delta of version ${this.at + 1} follows version ${this.at}${want ? '' : ' (the store has none)'}`;
      this.at += 1;
      return null;
    }
    if (this.basis === null && this.format === 'put') {
      if (e.event !== 'put') return `${named(e)} where an FDv1 client's feed starts with its put`;
      const v = this.wire.putVersion(e);
      if (v === null) return "a put that is no version's data set";
      this.basis = this.wire.basis(v, 'put')!;
      this.basisVersion = v;
      this.pos = 0;
    }
    if (this.basis === null) {
      if (e.event !== 'server-intent') return `${named(e)} before any server-intent`;
      const d = small(e);
      if (d.intent === 'none') {
        if (!same(e, this.wire.upToDate(this.asked))) return `told up to date at version ${String(d.version)}, asked with basis ${this.asked}`;
        this.at = this.asked;
        return null;
      }
      const v = Number(d.version);
      const basis = this.wire.basis(v);
      if (!basis) return `a basis of version ${String(d.version)}, which the store never had`;
      this.basis = basis;
      this.basisVersion = v;
      this.pos = 0;
    }
    const want = this.basis[this.pos];
    if (!want || !same(e, want)) return `${named(e)} where the store's basis of version ${this.basisVersion} has ${want ? named(want) : 'ended'} (its event ${this.pos})`;
    this.pos += 1;
    if (this.pos === this.basis.length) this.at = this.basisVersion;
    return null;
  }

  /** A live reading client, every byte the server wrote received: its data set is the store's now, no delta missing. */
  current(storeVersion: number): string | null {
    if (this.finding) return this.finding;
    if (this.at === null) return `${this.client}: live, its basis never completed (${this.pos} events of ${this.basis?.length ?? '?'})`;
    if (this.at < storeVersion)
      return `${this.client}: its data set is at version ${this.at}, the store at ${storeVersion}: ${Array.from({ length: storeVersion - this.at }, (_, k) => this.at! + 1 + k).join(', ')} never received`;
    return null;
  }
}

/** A poll reply as the client got it, with the store's version when it asked and when the reply came. */
export interface JudgedReply {
  readonly client: string;
  readonly basis: number;
  readonly askedAt: number;
  readonly reply: PollReply;
}

/** What is wrong with a poll reply (null: nothing), `storeVersion` the store's when it was read back after the reply. */
export function replyFinding(wire: StoreWire, r: JudgedReply, storeVersion: number): string | null {
  const rep = r.reply;
  if (rep.kind !== 'response') return null;
  const who = `${r.client} (GET /sdk/poll?basis=${r.basis} at version ${r.askedAt})`;
  if (rep.status === 503) {
    const raw = rep.headers['retry-after'];
    const secs = Number(raw);
    if (raw === undefined || !/^\d+$/.test(raw) || secs < 1) return `${who}: shed with Retry-After ${raw === undefined ? 'missing' : `'${raw}'`} (a second at least)`;
    if (!rep.body.equals(shedBody(secs))) return `${who}: shed with a body that is not the shed reply of Retry-After ${secs}`;
    return null;
  }
  if (rep.status !== 200) return `${who}: status ${rep.status}`;
  if (rep.body.equals(upToDateBody(r.basis))) return r.basis === r.askedAt ? null : `${who}: told up to date at ${r.basis}, the store at ${r.askedAt}`;
  const v = wire.pollVersion(rep.body);
  if (v === null) return `${who}: a full reply that is no version's data set (${rep.body.length} bytes)`;
  if (v !== storeVersion) return `${who}: a full reply of version ${v}, written when the store was at ${storeVersion}`;
  return null;
}
