/**
 * What a mutants/failover/impl/Rx.ts module default-exports: a change to the client the drill's
 * pods fence with. The drill applies it to the remedy as it ships and judges the run with its
 * ordinary checkers (checks.ts); neither learns which mutant, or which CLI variant, is active.
 */
import { importDefault } from '../../../core/import-default.js';
import { projectRoot } from '../../../core/project-root.js';
import type { ConfirmOptions } from '../../../valkey/scripts/eval-confirmed.js';

/** The remedy as the relay ships it (docs/replication.md: `confirmReplicas`). */
export const SHIPPED_REMEDY: ConfirmOptions = { replicas: 1, timeoutMs: 100 };

export interface FailoverPatch {
  /** The replica confirmation the pods' client uses instead of `shipped` (null: none, one EVALSHA per call). */
  readonly confirm: (shipped: ConfirmOptions | null) => ConfirmOptions | null;
}

export function isFailoverPatch(x: unknown): x is FailoverPatch {
  return typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>).confirm === 'function';
}

/** The confirmation the drill's client runs with: `shipped`, through the patch when there is one. */
export function patchedConfirm(shipped: ConfirmOptions | null, patch?: FailoverPatch): ConfirmOptions | null {
  return patch ? patch.confirm(shipped) : shipped;
}

/** The FailoverPatch a file (from the project root) default-exports; throws naming the file otherwise. */
export async function loadFailoverPatch(file: string): Promise<FailoverPatch> {
  const patch = await importDefault(file, projectRoot);
  if (!isFailoverPatch(patch)) throw new Error(`${file} default-exports no FailoverPatch`);
  return patch;
}
