// A small bug (Stream_HoldSlotAcrossSend): a stream's slot released twice — by the send's end and
// again by the deferred release. The limiter frees it once (the second call only counts), so the
// slots and holders stay the model's; /metrics counts a double release.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: "a stream's slot released twice",
  parts: {
    Stream_HoldSlotAcrossSend: async (slot, sent) => {
      const why = await sent;
      slot.release(why);
      slot.release(why);
    },
  },
};
export default patch;
