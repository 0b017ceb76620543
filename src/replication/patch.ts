/**
 * What a mutants/impl/replication/Rx.ts module default-exports: a change to the client the drill's
 * pods fence with. The drill applies it to the remedy as it ships and judges the run with its
 * ordinary checkers (checks.ts); neither learns which mutant, or which CLI variant, is active.
 */
import { importDefault } from '../import-default.js';
import { projectRoot } from '../project-root.js';
import type { ConfirmOptions } from '../scripts/eval-confirmed.js';

/** The remedy as the relay ships it (docs/replication.md: `confirmReplicas`). */
export const SHIPPED_REMEDY: ConfirmOptions = { replicas: 1, timeoutMs: 100 };

export interface ReplicationPatch {
  /** The replica confirmation the pods' client uses instead of `shipped` (null: none, one EVALSHA per call). */
  readonly confirm: (shipped: ConfirmOptions | null) => ConfirmOptions | null;
}

export function isReplicationPatch(x: unknown): x is ReplicationPatch {
  return typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>)['confirm'] === 'function';
}

/** The confirmation the drill's client runs with: `shipped`, through the patch when there is one. */
export function patchedConfirm(shipped: ConfirmOptions | null, patch?: ReplicationPatch): ConfirmOptions | null {
  return patch ? patch.confirm(shipped) : shipped;
}

/** The ReplicationPatch a file (from the project root) default-exports; throws naming the file otherwise. */
export async function loadReplicationPatch(file: string): Promise<ReplicationPatch> {
  const patch = await importDefault(file, projectRoot);
  if (!isReplicationPatch(patch)) throw new Error(`${file} default-exports no ReplicationPatch`);
  return patch;
}
