/**
 * The implementation layer of one system on the layers' seam (pause snapshot, failover): its real
 * code on real Valkey, each mutant applied through the impl patch its manifest entry names
 * (mutants/fencing/impl/<system>/<id>.ts). The impl layer's runner (layers/impl.ts) hands each system's
 * entries to that system's runner; fencing keeps its conformance tour.
 *
 * Rules every runner keeps: the unpatched code passes the same run first (or every result is
 * `invalid`, said why); a mutant is `killed` only when the run's ordinary checkers — which read the
 * real replies and keyspace and never which mutant is active — report the entry's
 * `expectedInvariant`; an infrastructure fault (src/valkey/fault.ts) is `not-run`, never a verdict.
 */
import type { LayerRunOptions } from './layer-runner.js';
import type { MutantEntry } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';

export interface SystemImplRunner {
  /** The manifest's `system` of the entries this runner takes. */
  readonly system: string;
  /** Null when the layer can run here; otherwise why every result is not-run (e.g. no valkey-server). */
  unavailable(): Promise<string | null>;
  /** Results with layer 'impl', one per entry, in the entries' order. */
  run(mutants: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]>;
}

/** Where each seam system's impl runner lives (each module exports `implRunner: SystemImplRunner`). */
export const SYSTEM_IMPL_RUNNERS: Readonly<Record<string, () => Promise<{ implRunner: SystemImplRunner }>>> = {
  pause: () => import('../systems/pause/impl-layer.js'),
  failover: () => import('../systems/fencing/failover/impl-layer.js'),
};
