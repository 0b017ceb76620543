// I11 UpToDate_NoSlot: the FDv2 poll routes take their slot on entry (the all-flags middleware), so
// a cheap up-to-date reply is charged a slot and shed with 503 when the budget is full (the seed's
// first wiring: "a middleware acquires a slot before the poll/eval handler runs").
import { limitConcurrency } from '../../../src/systems/init-limiter/server/gates.js';
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'an up-to-date poll reply charged a slot',
  parts: { UpToDate_NoSlot: limitConcurrency },
};
export default patch;
