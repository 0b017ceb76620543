/**
 * A pause tour path as a fencecheck.trace/2 trace (source `conform`): the spec's variables of every
 * real state read back, each step the action instance the attempt names (the three faults the spec
 * has no action for keep their tour names: FailLoad(r), FailReconcile(r), ReconcileOverlapped(r, c),
 * FailLaterWrite(c)),
 * with what the real code decided and replied. `fencecheck trace replay` runs it on fresh replicas
 * (replay.ts).
 */
import type { Trace } from '../../../core/trace-format.js';
import type { PathStep } from '../../../seam/tour/result.js';
import { actionOfLabel, traceOfStates } from '../../../seam/trace.js';
import { PAUSE_PARAM_NAMES, pauseSystem } from '../system.js';
import type { PauseBounds } from '../model-state.js';
import { attemptLabel, type PauseAttempt, type PauseDecision, type PauseTourState } from './model.js';

/** The fault attempts' parameter names (the spec's actions' are PAUSE_PARAM_NAMES). */
export const TOUR_PARAM_NAMES: Readonly<Record<string, readonly string[]>> = { ...PAUSE_PARAM_NAMES, FailLoad: ['r'], FailReconcile: ['r'], ReconcileOverlapped: ['r', 'c'], FailLaterWrite: ['c'] };

export function pauseTourTrace(path: readonly PathStep<PauseTourState, PauseAttempt, PauseDecision>[], meta: { bounds: PauseBounds; mutant?: string; violated?: string }): Trace {
  const sys = pauseSystem(meta.bounds);
  const steps = path.map((p) => {
    if (p.attempt === null || p.decision === null) return { action: 'Init', params: {}, state: p.state.model };
    const { action, params } = actionOfLabel(attemptLabel(p.attempt), TOUR_PARAM_NAMES);
    return { action, params, state: p.state.model, observed: { decision: p.decision.kind, replicas: p.state.replicas, ...(p.note ? { note: p.note } : {}) }, ...(p.note ? { note: p.note } : {}) };
  });
  return traceOfStates(sys, steps, { source: 'conform', ...(meta.mutant !== undefined ? { mutant: meta.mutant } : {}), ...(meta.violated !== undefined ? { violated: meta.violated } : {}) });
}
