// I17 Deadline_OnlyWhenEnabled: a stream's basis written under the write deadline even with the
// limiter disabled (seed: "the timeout was armed even when the limiter was disabled (a default
// deployment)"). A deployment that never configured the limiter cuts a slow or stalled client at the
// deadline, though no slot is there to free: base behaviour is gone.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the write deadline armed with the limiter disabled',
  parts: { Deadline_OnlyWhenEnabled: () => true },
};
export default patch;
