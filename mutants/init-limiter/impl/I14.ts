// I14 Stream_HoldSlotAcrossSend: every close of a stream mid-basis is released as a cut. The slot
// still comes back once, but the client's own disconnect is counted among the write-deadline cuts,
// so the cut rate an operator alarms on (stalled clients) rises with every impatient reconnect.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: "a stream's close mid-basis released as a cut",
  parts: {
    Stream_HoldSlotAcrossSend: async (slot, sent) => {
      const why = await sent;
      slot.release(why === 'disconnect' ? 'cut' : why);
    },
  },
};
export default patch;
