// P2 (publish and update the local snapshot before the write succeeded): see mutants/manifest.json. The spec's Kept("SetPaused_PublishAfterWrite") = FALSE branch, as tla/pause/mutants/P2.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { SetPaused_PublishAfterWrite: () => false } };
export default overrides;
