/** The manifest a stage reads: a malformed one is the stage's bad input (exit 3 at the entry), as for every command. */
import { ManifestError, type MutantManifest } from '../core/manifest.js';
import { StageInputError } from '../core/stage.js';
import { loadSystemManifest } from '../registry/systems.js';

export function stageManifest(): MutantManifest {
  try {
    return loadSystemManifest();
  } catch (err) {
    if (err instanceof ManifestError) throw new StageInputError(err.message);
    throw err;
  }
}
