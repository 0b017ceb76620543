// I2 Stream_CaptureDoneBeforeClose: the done signal is read after closing the batch. The close
// triggers the end-of-basis flush, which closes the signal and clears the writer's reference to it;
// when the flush wins, the release waits on nothing but the client's disconnect: the slot of a
// healthy long-lived stream is pinned (seed: "the slot-leak race").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the done signal is read after the close that clears it',
  parts: {
    Stream_CaptureDoneBeforeClose: async (writer, closeBatch, pause) => {
      closeBatch();
      const p = pause();
      if (p) await p;
      return { done: writer.deliveryDone() };
    },
  },
};
export default patch;
