/**
 * Fencing's model coverage for the sampled property runs: the seam's tracker (src/seam/tour/
 * coverage.ts) over fencing's tour model, fed with the model's events.
 */
import { eventLabel, type FencingEvent } from '../../../../models/fencing/index.js';
import { coverageTracker as seamTracker, type ModelCoverage } from '../../../seam/tour/coverage.js';
import type { FencingBounds, FencingState } from '../state.js';
import { fencingTourModel } from './system.js';

export { formatCoverage, type ModelCoverage } from '../../../seam/tour/coverage.js';

export interface CoverageTracker {
  /** A state the real system was observed in. */
  state(s: FencingState): void;
  /** An applied step from `from` by `ev`. */
  transition(from: FencingState, ev: FencingEvent): void;
  /** Merges another tracker's visits (per-topology figures, then the suite's). */
  merge(other: CoverageTracker): void;
  result(): ModelCoverage;
  readonly visited: { readonly states: ReadonlySet<string>; readonly transitions: ReadonlySet<string> };
}

export function coverageTracker(bounds: FencingBounds): CoverageTracker {
  const t = seamTracker(fencingTourModel(bounds));
  return {
    visited: t.visited,
    state: (s) => t.state(s),
    transition: (from, ev) => t.transition(from, eventLabel(ev)),
    merge: (other) => t.merge(other),
    result: () => t.result(),
  };
}
