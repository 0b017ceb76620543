/**
 * A wait for more bytes ends when the server's own view says the client holds its whole answer
 * (check-kit's `drained`): never while a delivery is under way or a byte is still on its way, so a
 * negative decided early is the one the real-time timeout would have reached. Small bugs: drained
 * without the replay/delivery terms says yes at a parked send; without the byte comparison it says
 * yes with an unread delta in the kernel.
 */
import { describe, expect, it } from 'vitest';
import { CheckRun } from '../../src/systems/init-limiter/drive/check-kit.js';
import { ControlClient } from '../../src/systems/init-limiter/drive/index.js';
import { withServer } from './server-support.js';

const SERVER = { limiter: { maxConcurrent: 1 }, data: { flags: 4, valueBytes: 32 }, heartbeatMs: 0, testSeams: true } as const;

describe("a stream's answer read from the server's view", () => {
  it('is not drained at a parked send, drained once the basis is read, not drained with a delta unread', async () => {
    await withServer(SERVER, async (s) => {
      const control = new ControlClient(s.url);
      const r = await CheckRun.open(s.url, control);
      try {
        const drained = r.drained('a')!;
        await control.hold('send.begin');
        r.onEnd(() => control.release('send.begin'));
        const a = await r.stream({ client: 'a' });
        await control.wait('send.begin', { parked: 1 });
        // Admitted, its head read, nothing of the basis written yet: the delivery is under way.
        await a.readUntil(() => false, 50);
        expect(await drained(a)).toBe(false);
        await control.release('send.begin');
        expect(await a.readUntil(() => a.has('payload-transferred'))).toBe(true);
        // A wait for more on a live stream with nothing to send ends on the server's word, not the timeout.
        expect(await a.waitFor(() => a.has('patch'), 60_000, drained)).toBe(false);
        expect(await drained(a)).toBe(true);
        a.stall();
        await control.publish();
        // The delta in the kernel (the server's socket has written past what the client read), unread.
        for (let v = await control.clients(); (v.clients.find((c) => c.client === 'a')?.kernelBytes ?? 0) <= a.rawBytes; v = await control.clients());
        expect(await drained(a)).toBe(false);
        expect(await a.readUntil(() => a.has('patch'))).toBe(true);
        expect(await a.waitFor(() => false, 60_000, drained)).toBe(false);
      } finally {
        await r.close();
      }
    });
  });

  it('is not asked without the control endpoint', async () => {
    await withServer(SERVER, async (s) => {
      const r = await CheckRun.open(s.url, null);
      expect(r.drained('a')).toBeUndefined();
      await r.close();
    });
  });
});
