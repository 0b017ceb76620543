// I19 Deadline_ScopedToDelivery: the end-of-basis flush clears the deadline but leaves the writer in
// delivery mode, so the next live write (a delta, a heartbeat) arms a deadline again, capped from the
// delivery's start: a busy stream is cut once the cap has passed since its basis began (seed, round 3,
// C2: "live delta/heartbeat traffic after the basis carries no deadline"; the deadline is cleared AND
// the delivery ends at the flush).
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the deadline cleared at the end of the basis, the delivery never ended',
  parts: { Deadline_ScopedToDelivery: (scope) => scope.clearDeadline() },
};
export default patch;
