// P3 (the reconciler marks the snapshot fresh without reading Valkey): see mutants/manifest.json. The spec's Kept("Reconcile_ReadsValkey") = FALSE branch, as tla/pause/mutants/P3.cfg drops it.
import type { PauseOverrides } from '../../../models/pause/index.js';

const overrides: PauseOverrides = { guards: { Reconcile_ReadsValkey: () => false } };
export default overrides;
