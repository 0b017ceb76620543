// L2 limiter.refund_first_on_second_deny: a second-bucket denial gives the first token back.
import { replaceOnce, type LimiterPatch } from '../../../src/systems/limiter/patch.js';

const patch: LimiterPatch = {
  transformSource: (src) => replaceOnce(src, '    b1.tokens = b1.tokens - TOKEN -- second denied: the first token stays consumed\n', ''),
};
export default patch;
