// M1 at the implementation layer: AcquireB drops the old-lease check (guard AcquireB_OldLeaseFree).
// A Lua source transform applied through loadLuaScript's `transform`; the suite does not know it runs.
import { rewriteLine } from '../../../src/systems/fencing/patch.js';
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { lua: rewriteLine('B/acquire', 'guard AcquireB_OldLeaseFree', () => '-- M1: old-lease check removed') };
export default patch;
