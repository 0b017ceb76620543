// L5 limiter.refill_past_capacity: the refill is not capped, so an idle bucket banks a burst.
import { replaceOnce, type LimiterPatch } from '../../../src/systems/limiter/patch.js';

const patch: LimiterPatch = {
  transformSource: (src) => replaceOnce(src, '  if tokens > b.cap then tokens = b.cap end -- refill is capped at capacity\n', ''),
};
export default patch;
