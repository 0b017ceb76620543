/**
 * Fencing's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds as the rig's,
 * a mutant's impl patch (or a user's patch file) loaded, the tour run by runConform (./run.ts).
 */
import type { SystemTour } from '../../../seam/tour/entry.js';
import { TourSetupError, TourUnavailableError, type EVERY_INVARIANT } from '../../../seam/tour/entry.js';
import { asSystemTourRun, mutantPatch } from '../../../seam/tour/entry-kit.js';
import { loadPatchModule, patchFileRecord } from '../../../seam/patch-file.js';
import { projectRoot } from '../../../core/project-root.js';
import type { TracePatch } from '../../../core/trace-format.js';
import { IMPL_PATCH_TYPE, isImplPatch, type ImplPatch } from '../patch.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { isProviderChoice } from '../../../valkey/start.js';
import { INVARIANT_NAMES, type InvariantName } from '../invariants.js';
import { fencingBounds } from '../system.js';
import { runConform } from './run.js';

export const fencingTour: SystemTour = {
  what: 'real scripts, gate and door on real Valkey',
  invariants: INVARIANT_NAMES,
  patchType: IMPL_PATCH_TYPE,
  isPatch: isImplPatch,
  async run(opts) {
    let patch: ImplPatch | undefined;
    let patchFile: TracePatch | undefined = opts.patch;
    try {
      if (opts.patch) patch = await loadPatchModule(opts.patch.path, isImplPatch, IMPL_PATCH_TYPE);
      else if (opts.mutant) {
        patch = await mutantPatch(opts.mutant, (file) => loadPatchModule(file, isImplPatch, IMPL_PATCH_TYPE));
        patchFile = patchFileRecord(opts.mutant.layers.impl!.patch!, projectRoot);
      }
    } catch (err) {
      throw new TourSetupError((err as Error).message);
    }
    // A user's patch gets the whole judgement (full conformance) unless one invariant is named.
    const invariant = (opts.invariant ?? opts.mutant?.expectedInvariant) as InvariantName | typeof EVERY_INVARIANT | undefined;
    const provider = opts.provider !== undefined && isProviderChoice(opts.provider) ? opts.provider : undefined;
    try {
      const run = await runConform({
        bounds: fencingBounds(opts.bounds),
        ...(patch ? { patch } : {}),
        ...(invariant ? { invariant } : {}),
        ...(opts.mutant ? { mutant: opts.mutant.id } : {}),
        ...(patchFile ? { patchFile } : {}),
        ...(opts.shard ? { shard: opts.shard } : {}),
        ...(opts.baseline ? { baseline: opts.baseline } : {}),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        ...(opts.saveTrace === false ? { saveTrace: false } : {}),
        ...(provider ? { start: { provider } } : {}),
      });
      return asSystemTourRun(run.system.model, run);
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) throw new TourUnavailableError(err.message);
      throw err;
    }
  },
};
