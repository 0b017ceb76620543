// I1 Stream_HoldSlotAcrossSend: the slot is released at the channel hand-off, when the producer has
// handed the basis over and returns — before the writer has sent it. For an FDv1 put (one event)
// that is at once, so a stalled client's multi-MB send holds no slot (seed: "staggered stalled
// clients measured at 12x payload resident").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the stream slot is released at the hand-off, before the send',
  // The buggy producer believed its basis sent when it had handed it over.
  parts: { Stream_HoldSlotAcrossSend: async (slot) => slot.release('sent') },
};
export default patch;
