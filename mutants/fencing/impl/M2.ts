// M2 at the implementation layer: AcquireA drops the new-lease check (guard AcquireA_NewLeaseFree).
// A Lua source transform applied through loadLuaScript's `transform`; the suite does not know it runs.
import { rewriteLine } from '../../../src/systems/fencing/patch.js';
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { lua: rewriteLine('A/acquire', 'guard AcquireA_NewLeaseFree', () => '-- M2: new-lease check removed') };
export default patch;
