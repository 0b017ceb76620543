/**
 * The stream client's event parser over the pieces a paced reader gets: a line split anywhere, a
 * character split across two reads, CRLF endings. Small bug: decoding each piece on its own turns the
 * split character into U+FFFD.
 */
import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../src/systems/init-limiter/drive/sse.js';

function parse(pieces: readonly Buffer[]): { events: SseEvent[]; comments: number } {
  const events: SseEvent[] = [];
  let comments = 0;
  const p = new SseParser(
    (e) => events.push(e),
    () => (comments += 1),
  );
  for (const b of pieces) p.push(b);
  return { events, comments };
}

/** `s` cut into pieces of `n` bytes (a paced reader's reads). */
const cut = (s: string, n: number): Buffer[] => {
  const b = Buffer.from(s, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += n) out.push(b.subarray(i, i + n));
  return out;
};

describe('the event parser over split reads', () => {
  const wire = `: hi\r\nevent: put\r\ndata: {"flag":"naïve €"}\r\n\r\nevent: patch\ndata: a\ndata: b\n\n`;

  it('gives the same events whatever the pieces, a character split across two reads included', () => {
    const whole = parse([Buffer.from(wire, 'utf8')]);
    expect(whole.events.map((e) => [e.event, e.data])).toEqual([
      ['put', '{"flag":"naïve €"}'],
      ['patch', 'a\nb'],
    ]);
    expect(whole.comments).toBe(1);
    for (const n of [1, 2, 3, 5, 7, 16]) {
      const split = parse(cut(wire, n));
      expect(
        split.events.map((e) => [e.event, e.data]),
        `pieces of ${n} bytes`,
      ).toEqual(whole.events.map((e) => [e.event, e.data]));
      expect(split.comments).toBe(1);
    }
  });

  it('reads a data line of megabytes in small pieces', () => {
    const big = 'x'.repeat(3 << 20);
    const { events } = parse(cut(`event: put\ndata: ${big}\n\n`, 16 * 1024));
    expect(events).toHaveLength(1);
    expect(events[0]!.data.length).toBe(big.length);
    expect(events[0]!.atByte).toBe(Buffer.byteLength(`event: put\ndata: ${big}\n\n`));
  });
});
