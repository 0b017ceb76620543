/**
 * Fencing's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds as the rig's,
 * a mutant's impl patch loaded, the tour run by runConform (./run.ts).
 */
import type { SystemTour, SystemTourRun } from '../../../seam/tour/entry.js';
import type { TourResult } from '../../../seam/tour/result.js';
import { TourSetupError, TourUnavailableError } from '../../../seam/tour/entry.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { isProviderChoice } from '../../../valkey/start.js';
import { INVARIANT_NAMES, type InvariantName } from '../invariants.js';
import { fencingBounds } from '../system.js';
import { runConform } from './run.js';

export const fencingTour: SystemTour = {
  what: 'real scripts, gate and door on real Valkey',
  invariants: INVARIANT_NAMES,
  async run(opts) {
    let patch;
    if (opts.mutant) {
      try {
        const { loadPatch } = await import('../impl-runner.js');
        patch = await loadPatch(opts.mutant);
      } catch (err) {
        throw new TourSetupError((err as Error).message);
      }
    }
    const invariant = (opts.invariant ?? opts.mutant?.expectedInvariant) as InvariantName | undefined;
    const provider = opts.provider !== undefined && isProviderChoice(opts.provider) ? opts.provider : undefined;
    try {
      const run = await runConform({
        bounds: fencingBounds(opts.bounds),
        ...(patch ? { patch } : {}),
        ...(invariant ? { invariant } : {}),
        ...(opts.mutant ? { mutant: opts.mutant.id } : {}),
        ...(opts.shard ? { shard: opts.shard } : {}),
        ...(opts.baseline ? { baseline: opts.baseline } : {}),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        ...(opts.saveTrace === false ? { saveTrace: false } : {}),
        ...(provider ? { start: { provider } } : {}),
      });
      return {
        result: run.result as unknown as TourResult<unknown, unknown, unknown>,
        model: run.system.model as unknown as SystemTourRun['model'],
        ...(run.tracePath !== undefined ? { tracePath: run.tracePath } : {}),
        ...(run.replay !== undefined ? { replay: run.replay } : {}),
      };
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) throw new TourUnavailableError(err.message);
      throw err;
    }
  },
};
