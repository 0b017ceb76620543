import type { Layer } from './manifest.js';

/**
 * What happened to one mutant at one layer. Only `killed` counts as killed.
 * - killed: the expected invariant reported a violation (checked alone).
 * - wrong-invariant: a violation, but of another invariant than the expected one.
 * - survived: the run completed and nothing broke.
 * - equivalent: same reachable state set as the base (reported, not counted as a survivor).
 * - invalid: the mutant could not be applied or the run failed (parse error, crash).
 * - timeout: the run did not finish in time.
 * - not-run: the layer could not run at all (missing jar, Valkey); the reason says why.
 */
export type Verdict = 'killed' | 'wrong-invariant' | 'survived' | 'equivalent' | 'invalid' | 'timeout' | 'not-run';

export interface MutantResult {
  readonly id: string;
  readonly layer: Layer;
  readonly verdict: Verdict;
  readonly expectedInvariant: string;
  /** The invariant/property that fired, when one did. */
  readonly violated?: string;
  /** Every other invariant the counterexample's last state breaks. */
  readonly alsoBroken?: readonly string[];
  readonly traceLength?: number;
  /** Saved trace file (fencecheck.trace/1), relative to the project root (absolute outside it). */
  readonly tracePath?: string;
  /** fast-check replay data for property layers. */
  readonly seed?: number;
  readonly path?: string;
  readonly durationMs?: number;
  /** The one command that reproduces this result, when the layer knows better than the generic rule (src/report/replay.ts). */
  readonly replay?: string;
  /** Why, for every verdict but killed. */
  readonly reason?: string;
  /**
   * An invalid verdict's cause: the patch could not be loaded (`patch`), the patched code crashed
   * (`run`), or the unpatched code fails the very run (`unpatched`, every entry of the runner).
   */
  readonly invalidBy?: 'patch' | 'run' | 'unpatched';
}
