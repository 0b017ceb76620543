// I22 Stream_NoIdleTimeout: the hand-over does not wait for the writer — an event the writer is not
// ready for at once is dropped (a Go `select` with a `default:` case on the batch channel). A one-event
// FDv1 put goes through; an FDv2 basis loses every event after the first the writer is still writing,
// the producer returns, and the open, subscribed connection completes the partial basis with live
// deltas (seed: "Abandoning a partly-sent basis while the connection stays open let a later delta
// complete it into a corrupt data set").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the hand-over drops an event the writer is not ready for at once',
  parts: {
    Stream_NoIdleTimeout: (batch, event) => {
      const offer = batch.offer(event);
      return offer.withdraw() ? Promise.resolve('abandoned') : offer.taken;
    },
  },
};
export default patch;
