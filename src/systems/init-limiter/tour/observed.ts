/**
 * What the init limiter's clients received, as lines of the tour's observed digest (TourResult.observed):
 * every stream connection's new events (name and a hash of the data, so a basis of megabytes costs one
 * hash), who closed it; every poll reply (status, headers but the date, a hash of the body); and the
 * limiter's samples on /metrics. Two runs of the same code on the same path write the same lines, so
 * a patch that changes only what a client receives (a header, a body no rule judges, a counter) is
 * not "equivalent" to the real code.
 */
import { createHash } from 'node:crypto';
import type { SseEvent } from '../drive/sse.js';
import type { CloseInfo } from '../drive/stream-client.js';
import type { JudgedReply } from './received.js';

/** A stream connection as the log reads it. */
export interface ReceivingStream {
  readonly events: readonly SseEvent[];
  readonly closeInfo: CloseInfo | null;
}

const hash = (x: string | Buffer) => createHash('sha256').update(x).digest('hex').slice(0, 16);

/** Headers that differ per run (the wall clock), left out. */
const PER_RUN = new Set(['date']);

/** One poll reply as the client got it. */
export function replyLine(r: JudgedReply): string {
  const rep = r.reply;
  const head = `${r.client} basis=${r.basis}@${r.askedAt}`;
  if (rep.kind !== 'response') return `${head} ${rep.kind}`;
  const headers = Object.keys(rep.headers)
    .filter((h) => !PER_RUN.has(h))
    .sort()
    .map((h) => `${h}: ${rep.headers[h]}`)
    .join(', ');
  return `${head} ${rep.status} {${headers}} body ${hash(rep.body)}`;
}

/**
 * The limiter's samples an operator reads and the LimiterCounters check judges (slots, waiters,
 * acquires, releases, sheds), sorted. The others (store reads, flights joined, releases by reason)
 * count how the server's own work interleaved: two runs of the same code on the same path differ.
 */
const COUNTED = /^initlimiter_(slots_in_use|queued|acquired_total|released_total|double_release_total|shed_total)[ {]/;

export function countersLine(metricsText: string): string {
  return metricsText
    .split('\n')
    .filter((l) => COUNTED.test(l))
    .sort()
    .join(' ');
}

/**
 * Per instance: what each stream connection received since the last line (events digested once,
 * however long the connection lives), in the order the connections opened.
 */
export class ReceivedLog {
  private readonly digested = new Map<ReceivingStream, number>();
  /** Connections whose client stopped reading: what they receive after it depends on the kernel's buffers, not the code. */
  private readonly stalled = new Set<ReceivingStream>();

  /** The client of `s` stopped reading (its events after this are not digested). */
  stall(s: ReceivingStream): void {
    this.stalled.add(s);
  }

  line(streams: Iterable<ReceivingStream>, replies: readonly JudgedReply[]): string {
    const parts: string[] = [];
    let k = 0;
    for (const s of streams) {
      const from = this.digested.get(s) ?? 0;
      const fresh = this.stalled.has(s) ? ['stalled'] : s.events.slice(from).map((e) => `${e.event}:${hash(e.data)}`);
      this.digested.set(s, s.events.length);
      parts.push(`#${k++} ${fresh.join(' ')}${s.closeInfo ? ` closed by ${s.closeInfo.by}` : ''}`);
    }
    return `${parts.join('; ')}|${replies.map(replyLine).join('; ')}`;
  }
}
