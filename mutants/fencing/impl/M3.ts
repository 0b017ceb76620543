// M3 at the implementation layer: AcquireB issues newGen+1 without the max-merge (effect AcquireB_MaxMerge).
// A Lua source transform applied through loadLuaScript's `transform`; the suite does not know it runs.
import { replaceExactly, rewriteLine } from '../../../src/systems/fencing/patch.js';
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { lua: rewriteLine('B/acquire', 'effect AcquireB_MaxMerge', (line) => replaceExactly(line, 'math.max(oldGen, newGen) + 1', 'newGen + 1')) };
export default patch;
