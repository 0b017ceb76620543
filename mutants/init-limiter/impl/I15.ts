// I15 Stream_HoldSlotAcrossSend: a stream's slot released twice — by the send's end and again by
// the deferred release that should have found it given back (seed: "releases on the wrong event";
// a release that is not idempotent would free a slot someone else holds). The limiter frees it once
// and counts the second call, so slots and holders stay the model's; /metrics shows a double release.
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
