/**
 * Fencing's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds as the rig's,
 * a mutant's impl patch (or a user's patch file) loaded, the tour run by runConform (./run.ts).
 */
import type { SystemTour } from '../../../seam/tour/entry.js';
import { EVERY_INVARIANT, TourSetupError, TourUnavailableError } from '../../../seam/tour/entry.js';
import { asSystemTourRun } from '../../../seam/tour/entry-kit.js';
import { importDefault } from '../../../core/import-default.js';
import { patchFilePath, patchFileRecord } from '../../../seam/patch-file.js';
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
    if (opts.patch) {
      let loaded: unknown;
      try {
        loaded = await importDefault(patchFilePath(opts.patch.path), process.cwd());
      } catch (err) {
        throw new TourSetupError(`${opts.patch.path}: cannot be loaded: ${(err as Error).message.split('\n')[0]}`);
      }
      if (!isImplPatch(loaded)) throw new TourSetupError(`${opts.patch.path} default-exports no fencing patch (${IMPL_PATCH_TYPE})`);
      patch = loaded;
    } else if (opts.mutant) {
      try {
        const { loadPatch } = await import('../impl-runner.js');
        patch = await loadPatch(opts.mutant);
        patchFile = patchFileRecord(opts.mutant.layers.impl!.patch!, projectRoot);
      } catch (err) {
        throw new TourSetupError((err as Error).message);
      }
    }
    const invariant = (opts.invariant ?? opts.mutant?.expectedInvariant ?? (opts.patch ? EVERY_INVARIANT : undefined)) as InvariantName | typeof EVERY_INVARIANT | undefined;
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
