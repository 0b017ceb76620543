// L3 limiter.write_before_validate: the first bucket is written before the second key is read, so
// a wrong-type second key leaves a partial mutation (Valkey does not roll back).
import { replaceOnce, type LimiterPatch } from '../../../src/systems/limiter/patch.js';

const patch: LimiterPatch = {
  transformSource: (src) =>
    replaceOnce(replaceOnce(src, 'local b2 = nil\nif n == 2 then b2 = read(2) end\n', 'local b2 = nil\n'), '\nrefill(b1)\n', '\nrefill(b1)\nwrite(b1)\nif n == 2 then b2 = read(2) end\n'),
};
export default patch;
