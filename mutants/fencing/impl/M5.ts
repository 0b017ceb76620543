// M5 at the implementation layer: AcquireA drops the union max-merge read and issues oldGen+1 (effect AcquireA_MaxMerge).
// A Lua source transform applied through loadLuaScript's `transform`; the suite does not know it runs.
import { replaceExactly, rewriteLine } from '../../../src/systems/fencing/patch.js';
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { lua: rewriteLine('A/acquire', 'effect AcquireA_MaxMerge', (line) => replaceExactly(line, 'math.max(oldGen, newGen) + 1', 'oldGen + 1')) };
export default patch;
