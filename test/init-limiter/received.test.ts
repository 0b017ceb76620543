/**
 * The tour's judge of what clients received (src/systems/init-limiter/tour/received.ts), on the
 * server's own wire bytes: a feed is the store's basis of the version it names, then every delta in
 * order; a live client short of the store's version is missing deltas; a poll reply is the store's
 * at the version the server was at when it wrote it; a shed reply carries a Retry-After of a second
 * at least. Each case is the small bug that must turn it red (the tour's tests show it on the server).
 */
import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../src/systems/init-limiter/drive/sse.js';
import type { PollReply } from '../../src/systems/init-limiter/drive/poll-client.js';
import { VersionedStore } from '../../src/systems/init-limiter/server/store.js';
import { deltaEvent, pollBody, serializeBasis, shedBody, upToDateBody, upToDateEvent } from '../../src/systems/init-limiter/server/wire.js';
import { FeedJudge, replyFinding, StoreWire } from '../../src/systems/init-limiter/tour/received.js';

const SHAPE = { flags: 4, valueBytes: 32 };
const wire = StoreWire.of(SHAPE, 3);

function events(bufs: readonly Buffer[]): SseEvent[] {
  const out: SseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  for (const b of bufs) p.push(b);
  return out;
}

/** The store at versions 1..3 as the server builds it: its bases and deltas. */
const store = new VersionedStore(SHAPE);
const basis1 = serializeBasis('v2', store.snapshot()).events;
const d2 = deltaEvent(store.publish());
const basis2 = serializeBasis('v2', store.snapshot()).events;
const d3 = deltaEvent(store.publish());

const judged = (bufs: readonly Buffer[], asked = 0): FeedJudge => {
  const j = new FeedJudge('s1', wire, asked);
  j.feed(events(bufs));
  return j;
};

const response = (status: number, body: Buffer, headers: Record<string, string> = {}): PollReply => ({ kind: 'response', status, headers, body, json: null });

describe('a stream feed against the store', () => {
  it('a whole basis then every delta in order is the store at the last version', () => {
    const j = judged([...basis1, d2, d3]);
    expect(j.finding).toBeNull();
    expect(j.current(3)).toBeNull();
    expect(judged([...basis2, d3]).current(3)).toBeNull();
    expect(judged([upToDateEvent(2), d3], 2).current(3)).toBeNull();
  });

  it('a lost delta: the data set one version behind the store, the version named', () => {
    expect(judged([...basis1, d2]).current(3)).toMatch(/s1: its data set is at version 2, the store at 3: 3 never received/);
    expect(judged([...basis1, d3]).finding).toMatch(/patch \(version 3\) where the delta of version 2 follows version 1/);
  });

  it('a basis that is not the store’s at its version, a delta inside a basis, a wrong up-to-date', () => {
    expect(judged([basis1[0]!, ...basis2.slice(1)]).finding).toMatch(/where the store's basis of version 1 has put-object/);
    expect(judged([...basis1.slice(0, 2), d2]).finding).toMatch(/patch \(version 2\) where the store's basis of version 1 has put-object/);
    expect(judged([upToDateEvent(2)], 1).finding).toMatch(/told up to date at version 2, asked with basis 1/);
    expect(judged(basis1.slice(0, 3)).current(1)).toMatch(/its basis never completed \(3 events of 6\)/);
  });
});

describe('a poll reply against the store', () => {
  const snap = (v: number) => {
    const s = new VersionedStore(SHAPE);
    while (s.version < v) s.publish();
    return s.snapshot();
  };
  const asked = { client: 'p1', basis: 0, askedAt: 1 };

  it('a full reply of the version the store was at, an up-to-date reply at the client’s own basis, a shed with a Retry-After', () => {
    expect(replyFinding(wire, { ...asked, reply: response(200, pollBody('poll', snap(2))) }, 2)).toBeNull();
    expect(replyFinding(wire, { client: 'p1', basis: 2, askedAt: 2, reply: response(200, upToDateBody(2)) }, 2)).toBeNull();
    expect(replyFinding(wire, { ...asked, reply: response(503, shedBody(3), { 'retry-after': '3' }) }, 1)).toBeNull();
  });

  it('a body read before the publish its reply came after, a stale up-to-date, a Retry-After of 0 or none', () => {
    expect(replyFinding(wire, { ...asked, reply: response(200, pollBody('poll', snap(1))) }, 2)).toMatch(/a full reply of version 1, written when the store was at 2/);
    expect(replyFinding(wire, { client: 'p1', basis: 1, askedAt: 2, reply: response(200, upToDateBody(1)) }, 2)).toMatch(/told up to date at 1, the store at 2/);
    expect(replyFinding(wire, { ...asked, reply: response(503, shedBody(0), { 'retry-after': '0' }) }, 1)).toMatch(/Retry-After '0'/);
    expect(replyFinding(wire, { ...asked, reply: response(503, shedBody(1)) }, 1)).toMatch(/Retry-After missing/);
    expect(replyFinding(wire, { ...asked, reply: response(503, shedBody(2), { 'retry-after': '3' }) }, 1)).toMatch(/not the shed reply of Retry-After 3/);
  });
});
