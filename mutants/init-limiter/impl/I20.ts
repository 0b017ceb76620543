// I20 Stream_HoldSlotAcrossSend: the slot given back only when the basis was sent — the release
// waits on the done signal alone, not on the connection's close. A client that disconnects
// mid-basis, or a stalled send the deadline cuts, never frees its slot: each leaks one until the
// budget is gone and every later full delivery is shed (seed: the producer waits "on Done — or on
// the request context, which covers a client disconnecting or a send the write deadline cuts").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the stream slot released only when the basis was sent, never on a close or a cut',
  parts: {
    Stream_HoldSlotAcrossSend: async (slot, sent) => {
      const why = await sent;
      if (why === 'sent') slot.release(why);
    },
  },
};
export default patch;
