// I9 Stream_NoIdleTimeout: the send loop gives up on a basis when the writer has not taken the next
// event within an idle timeout — but the connection stays open, so a later delta follows a partly
// sent basis (seed: "Remove the idle timeout from sendEvents ... a later delta [could] complete it
// into a corrupt data set").
import { sleep } from '../../../src/systems/init-limiter/server/clock.js';
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

/** The send loop's idle timeout. */
const IDLE_TIMEOUT_MS = 1_000;

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'an idle timeout abandons a partly sent basis',
  parts: {
    Stream_NoIdleTimeout: async (batch, event, clock) => {
      const offer = batch.offer(event);
      const idle = sleep(clock, IDLE_TIMEOUT_MS);
      const r = await Promise.race([offer.taken, idle.done.then(() => 'idle' as const)]);
      idle.cancel();
      if (r !== 'idle') return r;
      return offer.withdraw() ? 'abandoned' : offer.taken;
    },
  },
};
export default patch;
