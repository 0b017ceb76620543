// L1 limiter.second_always_runs: the rejected ExecMulti pipeline — the second bucket executes (and
// is consumed) even when the first denies.
import { replaceOnce, type LimiterPatch } from '../../../src/systems/limiter/patch.js';

const FIRST_DENIED = '  write(b1) -- first denied: its refill state only; the second bucket is not touched\n';

const patch: LimiterPatch = {
  transformSource: (src) => replaceOnce(src, FIRST_DENIED, `${FIRST_DENIED}  if b2 ~= nil then refill(b2); if b2.tokens >= TOKEN then b2.tokens = b2.tokens - TOKEN end; write(b2) end\n`),
};
export default patch;
