// P14 (the hot read answers the value the last sync read, not the newest snapshot's): see mutants/manifest.json. The spec's Kept("Read_NewestSnapshot") = FALSE branch, as tla/pause/mutants/P14.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Read_NewestSnapshot: () => false } };
export default overrides;
