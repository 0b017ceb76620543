/**
 * An impl patch of the pause snapshot (mutants/pause/impl/<id>.ts default-exports one): the real
 * code with one thing changed. A patch replaces the replica (a subclass overriding one protected
 * member of PauseReplica) or SetPaused; whatever it leaves out is the real code. The model-driven
 * run (src/systems/pause/drive/) builds its replicas and writes through a patch without knowing which
 * mutant, if any, it is.
 */
import { importDefault } from '../../core/import-default.js';
import { PauseReplica, type PauseReplicaOptions } from './replica.js';
import { setPaused } from './set-paused.js';

export type SetPausedFn = typeof setPaused;

export interface PausePatch {
  /** One line: what the patch changes. */
  readonly description?: string;
  readonly replica?: (opts: PauseReplicaOptions) => PauseReplica;
  readonly setPaused?: SetPausedFn;
}

/** The unpatched code. */
export const REAL_PAUSE: Required<Pick<PausePatch, 'replica' | 'setPaused'>> = {
  replica: (opts) => new PauseReplica(opts),
  setPaused,
};

/** What pause's patch files default-export, for messages. */
export const PAUSE_PATCH_TYPE = 'a PausePatch ({ replica?, setPaused?, description? })';

export function isPausePatch(x: unknown): x is PausePatch {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  const optionalFn = (k: string) => p[k] === undefined || typeof p[k] === 'function';
  return optionalFn('replica') && optionalFn('setPaused') && (p.description === undefined || typeof p.description === 'string') && (p.replica !== undefined || p.setPaused !== undefined);
}

/** The real code with the patch applied (a patch that changes nothing is the real code). */
export function patched(patch?: PausePatch): Required<Pick<PausePatch, 'replica' | 'setPaused'>> {
  return { replica: patch?.replica ?? REAL_PAUSE.replica, setPaused: patch?.setPaused ?? REAL_PAUSE.setPaused };
}

/** The PausePatch a module default-exports (`file` from `root`); throws naming what is wrong. */
export async function loadPausePatch(file: string, root: string): Promise<PausePatch> {
  const patch = await importDefault(file, root);
  if (!isPausePatch(patch)) throw new Error(`${file} default-exports no pause patch ({ replica?, setPaused? })`);
  return patch;
}
