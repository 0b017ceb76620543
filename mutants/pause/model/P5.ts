// P5 (ready before the initial snapshot): see mutants/manifest.json. The spec's Kept("Ready_AfterSnapshot") = FALSE branch, as tla/pause/mutants/P5.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Ready_AfterSnapshot: () => true } };
export default overrides;
