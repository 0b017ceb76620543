// P4 (the hot read serves a snapshot past its age bound): see mutants/manifest.json. The spec's Kept("Read_FailClosed") = FALSE branch, as tla/pause/mutants/P4.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Read_FailClosed: () => false } };
export default overrides;
