// P6 (subscribe after loading the initial state): see mutants/manifest.json. The spec's Kept("Subscribe_BeforeLoad") = FALSE branch, as tla/pause/mutants/P6.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

// Subscribe after the load; Load no longer waits for the subscription.
const overrides: PauseOverrides = { guards: { Subscribe_BeforeLoad: (s, ev) => (ev.type === 'Subscribe' ? s.snap[ev.r] !== null : true) } };
export default overrides;
