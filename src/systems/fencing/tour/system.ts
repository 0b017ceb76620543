/**
 * Fencing on the seam's tour (src/seam/tour/): the model side (the alphabet and the model's
 * predictions, attempts.ts), the real side (injection on fresh sessions of the rig, execute.ts)
 * and the checks beyond the state graph (checks.ts). The model side depends only on the bounds, so
 * one object per bounds is kept: the engine keeps its model graph with it.
 */
import { enabledEvents, eventLabel } from '../../../../models/fencing/index.js';
import type { TourModel, TourSystem } from '../../../seam/tour/system.js';
import { INVARIANT_NAMES, INVARIANTS } from '../invariants.js';
import { boundsLabel } from '../model/bounds.js';
import type { ImplPatch } from '../patch.js';
import { loadFencingScripts } from '../scripts.js';
import { DEFAULT_LEASE_TTL_MS } from '../encoding.js';
import { canonicalKey, initialState, type FencingBounds, type FencingState } from '../state.js';
import { attemptLabel, attemptsIn, decisionView, predict, type Attempt, type Decision } from './attempts.js';
import { observedLine, readSideFailure, stepFailure } from './checks.js';
import { fencingReal, type FencingInstance, type FencingObservation } from './execute.js';
import type { TourRig } from './rig.js';

export type FencingTourSystem = TourSystem<FencingState, Attempt, Decision, FencingInstance, FencingObservation>;

/** The TTL an injected lease starts with: half the pods' TTL, so a renewal that reaches the wrong key shows. */
export const INJECTED_TTL_MS = DEFAULT_LEASE_TTL_MS / 2;

const models = new Map<string, TourModel<FencingState, Attempt, Decision>>();

export function fencingTourModel(bounds: FencingBounds): TourModel<FencingState, Attempt, Decision> {
  const id = `${bounds.pods.join(',')}|${bounds.maxGen}`;
  let m = models.get(id);
  if (!m) {
    m = {
      initialStates: () => [initialState(bounds)],
      key: canonicalKey,
      attempts: (s) => attemptsIn(s, bounds),
      attemptLabel,
      predict: (s, a) => predict(s, a, bounds),
      view: decisionView,
      enabledInstances: (s) => enabledEvents(s, bounds).map(eventLabel),
      invariants: Object.fromEntries(INVARIANT_NAMES.map((n) => [n, (s: FencingState) => INVARIANTS[n](s, bounds)])),
      typeInvariant: 'TypeOK',
    };
    models.set(id, m);
  }
  return m;
}

export interface FencingTourOptions {
  readonly rig: TourRig;
  readonly bounds: FencingBounds;
  readonly patch?: ImplPatch;
}

export function fencingTourSystem(opts: FencingTourOptions): FencingTourSystem {
  const { rig, bounds } = opts;
  const scripts = loadFencingScripts(opts.patch);
  const leaseTtlMs = DEFAULT_LEASE_TTL_MS;
  return {
    name: 'fencing',
    bounds,
    boundsLabel: boundsLabel(bounds),
    model: fencingTourModel(bounds),
    real: fencingReal({ rig, scripts, ...(opts.patch ? { patch: opts.patch } : {}), bounds, leaseTtlMs, injectedTtlMs: INJECTED_TTL_MS }),
    checks: {
      step: (_from, _a, step) => stepFailure(step, leaseTtlMs, INJECTED_TTL_MS),
      state: (s, inst) => readSideFailure(rig, scripts, s, inst, bounds),
    },
    observed: (step) => observedLine(step, leaseTtlMs, INJECTED_TTL_MS),
    words: {
      unchanged: 'renewals (TTL reset, no state change)',
      stateCheck: 'read side (lookup, known_generation, validate_fenced_header per version)',
    },
  };
}
