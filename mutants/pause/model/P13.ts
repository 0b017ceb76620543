// P13 (the hot read refuses a snapshot an event brought until a reconciliation confirms it): see mutants/manifest.json. The spec's Kept("Read_ServesEvents") = FALSE branch, as tla/pause/mutants/P13.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Read_ServesEvents: () => false } };
export default overrides;
