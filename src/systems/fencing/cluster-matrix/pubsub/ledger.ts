/**
 * Message-by-message bookkeeping of the pub/sub row: what was published (with the receiver count
 * the server answered) and what the subscriber got. The server's count is the publisher's only
 * view; a message it counted as received that never arrives, arrives twice or arrives unasked is
 * the silent failure.
 */
import type { Delivery } from './subscriber.js';

export interface Published {
  readonly topic: string;
  readonly payload: string;
  /** What SPUBLISH answered; -1: its reply was lost (it may or may not have been delivered). */
  readonly receivers: number;
  readonly phase: string;
  /** The topic was subscribed (confirmed) when it was published. */
  readonly expectSubscribed: boolean;
}

export interface LedgerJudgement {
  readonly lost: string[];
  readonly duplicates: string[];
  readonly unexpected: string[];
  /** Published to a subscribed topic outside a recovery window, yet the server counted no receiver. */
  readonly unreachable: string[];
  readonly delivered: number;
}

export function judgeLedger(published: readonly Published[], deliveries: readonly Delivery[], recovering: ReadonlySet<string>): LedgerJudgement {
  const got = new Map<string, number>();
  for (const d of deliveries) got.set(`${d.topic}\u0000${d.payload}`, (got.get(`${d.topic}\u0000${d.payload}`) ?? 0) + 1);
  const sent = new Set(published.map((p) => `${p.topic}\u0000${p.payload}`));
  const lost: string[] = [];
  const duplicates: string[] = [];
  const unreachable: string[] = [];
  for (const p of published) {
    const n = got.get(`${p.topic}\u0000${p.payload}`) ?? 0;
    if (p.receivers >= 1 && n === 0) lost.push(`${p.phase}: ${p.payload} counted as received by the server, never delivered`);
    if (n > 1) duplicates.push(`${p.phase}: ${p.payload} delivered ${n} times`);
    if (!p.expectSubscribed && n > 0) duplicates.push(`${p.phase}: ${p.payload} delivered on an unsubscribed topic`);
    if (p.expectSubscribed && p.receivers === 0 && !recovering.has(p.phase)) unreachable.push(`${p.phase}: ${p.payload} had no subscriber at the server`);
  }
  const unexpected = deliveries.filter((d) => !sent.has(`${d.topic}\u0000${d.payload}`)).map((d) => `unexpected delivery ${d.payload} on ${d.topic}`);
  return { lost, duplicates, unexpected, unreachable, delivered: deliveries.length };
}
