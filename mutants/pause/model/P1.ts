// P1 (an event applied without the version check): see mutants/manifest.json. The spec's Kept("Deliver_VersionCheck") = FALSE branch, as tla/pause/mutants/P1.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Deliver_VersionCheck: () => true } };
export default overrides;
