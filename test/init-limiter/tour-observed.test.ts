/**
 * What the init-limiter tour observes of what its clients received (src/systems/init-limiter/tour/
 * observed.ts), on hand-made replies and feeds: what differs per run (the date) is left out,
 * everything a client sees is in, and a connection's events are digested once.
 */
import { describe, expect, it } from 'vitest';
import { countersLine, ReceivedLog, replyLine, type ReceivingStream } from '../../src/systems/init-limiter/tour/observed.js';
import type { JudgedReply } from '../../src/systems/init-limiter/tour/received.js';

const reply = (headers: Record<string, string>, body = '{"version":1}', status = 200): JudgedReply => ({
  client: 'p1',
  basis: 0,
  askedAt: 1,
  reply: { kind: 'response', status, headers, body: Buffer.from(body), json: null },
});

describe('the init-limiter tour’s received line', () => {
  it('a reply: the date left out, every other header, the status and the body in', () => {
    const base = replyLine(reply({ 'content-type': 'application/json', date: 'Mon, 07 Dec 2026 22:00:00 GMT' }));
    expect(replyLine(reply({ 'content-type': 'application/json', date: 'Tue, 08 Dec 2026 01:00:00 GMT' }))).toBe(base);
    expect(replyLine(reply({ 'content-type': 'application/json; charset=utf-8', date: 'x' }))).not.toBe(base);
    expect(replyLine(reply({ 'content-type': 'application/json' }, '{"version":2}'))).not.toBe(base);
    expect(replyLine(reply({ 'content-type': 'application/json' }, '{"version":1}', 503))).not.toBe(base);
    expect(replyLine({ client: 'p1', basis: 0, askedAt: 1, reply: { kind: 'timeout' } })).toBe('p1 basis=0@1 timeout');
  });

  it('a stream: each event digested once, in the order the connections opened, who closed it', () => {
    const log = new ReceivedLog();
    const s: { events: { event: string; data: string; atByte: number }[]; closeInfo: ReceivingStream['closeInfo'] } = { events: [{ event: 'server-intent', data: '{}', atByte: 10 }], closeInfo: null };
    const first = log.line([s], []);
    expect(first).toMatch(/^#0 server-intent:[0-9a-f]{16}\|$/);
    expect(log.line([s], [])).toBe('#0 |');
    s.events.push({ event: 'patch', data: '{"version":2}', atByte: 30 });
    s.closeInfo = { by: 'server', bodyBytes: 30 };
    expect(log.line([s], [])).toMatch(/^#0 patch:[0-9a-f]{16} closed by server\|$/);
  });

  it('a stream whose client stopped reading: what reaches it after is the kernel buffers’, not digested', () => {
    const log = new ReceivedLog();
    const s: ReceivingStream & { events: { event: string; data: string; atByte: number }[] } = { events: [{ event: 'server-intent', data: '{}', atByte: 10 }], closeInfo: null };
    expect(log.line([s], [])).toMatch(/^#0 server-intent:/);
    log.stall(s);
    s.events.push({ event: 'put-object', data: 'x'.repeat(100), atByte: 200 });
    expect(log.line([s], [])).toBe('#0 stalled|');
  });

  it('the limiter’s samples, sorted, nothing else from /metrics', () => {
    expect(countersLine('# HELP x\ninitlimiter_shed_total{surface="poll"} 1\nprocess_rss 123\ninitlimiter_store_reads_total 7\ninitlimiter_acquired_total{surface="poll"} 2\n')).toBe(
      'initlimiter_acquired_total{surface="poll"} 2 initlimiter_shed_total{surface="poll"} 1',
    );
  });
});
