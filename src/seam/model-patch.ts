/**
 * Loading a manifest entry's model patch (mutants/fencing/model/**): the module's default export, checked
 * against the machine's overridable names with its target among them (src/seam/overrides.ts).
 * One loader for fencing (layers/model.ts) and for the systems on the seam (here, and check.ts).
 */
import { importDefault } from '../core/import-default.js';
import { projectRoot } from '../core/project-root.js';
import { checkOverrides, OverridesError, type OverridableNames } from './overrides.js';
import type { ModelSystem } from './system.js';
import type { MutantEntry } from '../core/manifest.js';

/** Thrown for a patch file that cannot be applied (the verdict is `invalid`). */
export class ModelPatchError extends Error {
  override readonly name = 'ModelPatchError';
}

/** The entry's model patch, checked against `known`: an unknown name or a missing target is a ModelPatchError. */
export async function importModelPatch(entry: MutantEntry, known: OverridableNames, what = 'an overrides object', root = projectRoot): Promise<unknown> {
  const patch = entry.layers.model?.patch;
  if (!patch) throw new ModelPatchError(`${entry.id} has no model patch in the manifest`);
  let overrides: unknown;
  try {
    overrides = await importDefault(patch, root);
  } catch (err) {
    throw new ModelPatchError(`cannot load ${patch}: ${(err as Error).message}`);
  }
  try {
    checkOverrides(overrides, known, entry.target, patch, what);
  } catch (err) {
    if (err instanceof OverridesError) throw new ModelPatchError(err.message);
    throw err;
  }
  return overrides;
}

/** The system with the entry's model patch provided to its machine, named `<system>/<id>`. */
export async function mutatedSystem<S, E>(sys: ModelSystem<S, E>, entry: MutantEntry, root = projectRoot): Promise<ModelSystem<S, E>> {
  if (entry.system !== sys.name) throw new ModelPatchError(`${entry.id} is a ${entry.system} mutant, not one of ${sys.name}`);
  return sys.withOverrides(await importModelPatch(entry, sys.overridable, `a ${sys.name} overrides object`, root), entry.id);
}
