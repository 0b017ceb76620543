/**
 * The model side of the init-limiter tour: the state is the spec's variables (the twin's), the
 * alphabet every action instance Next has (candidateEvents: enabled or refused), and the twin's
 * successor is the prediction: a transition labelled as TLC labels it, or refused (the state stays).
 */
import {
  candidateEvents,
  INIT_LIMITER_INVARIANT_NAMES,
  initLimiterEventLabel,
  initLimiterInvariants,
  initLimiterMachineFor,
  initLimiterSuccessors,
  type InitLimiterModelEvent,
} from '../../../../models/init-limiter/index.js';
import type { DecisionView, TourModel } from '../../../seam/tour/system.js';
import { memoPerObject } from '../../../core/memo-per-object.js';
import { initialInitLimiterState, initLimiterKey, type InitLimiterBounds, type InitLimiterModelState } from '../model-state.js';

export type InitLimiterAttempt = InitLimiterModelEvent;

export type InitLimiterDecision =
  | { readonly kind: 'transition'; readonly label: string }
  /** Nothing happened: the server had nothing to do it to, or the client does not do it (the note says which). */
  | { readonly kind: 'refused' }
  | { readonly kind: 'error'; readonly message: string };

export function decisionView(a: InitLimiterAttempt, d: InitLimiterDecision): DecisionView {
  const row = a.type;
  if (d.kind === 'transition') return { label: `transition ${d.label}`, kind: 'transition', instance: d.label, row };
  if (d.kind === 'refused') return { label: 'refused', kind: 'refused', row };
  return { label: `error ${d.message}`, kind: 'error', row };
}

export type InitLimiterTourModel = TourModel<InitLimiterModelState, InitLimiterAttempt, InitLimiterDecision>;

const models = new Map<string, InitLimiterTourModel>();

/** The tour model at these constants (kept: the engine keeps its model graph with the object). */
export function initLimiterTourModel(bounds: InitLimiterBounds): InitLimiterTourModel {
  const id = JSON.stringify(bounds);
  const hit = models.get(id);
  if (hit) return hit;
  const machine = initLimiterMachineFor(bounds);
  const inv = initLimiterInvariants(bounds);
  // Every attempt of a state asks for its successors: once per state, not per attempt.
  const succ = memoPerObject((s: InitLimiterModelState) => initLimiterSuccessors(machine, bounds, s));
  const model: InitLimiterTourModel = {
    initialStates: () => [initialInitLimiterState(bounds)],
    key: initLimiterKey,
    attempts: (s) => candidateEvents(s, bounds),
    attemptLabel: initLimiterEventLabel,
    predict: (s, a) => {
      const label = initLimiterEventLabel(a);
      const next = succ(s).find((x) => initLimiterEventLabel(x.event) === label);
      return next ? { decision: { kind: 'transition', label }, next: next.state } : { decision: { kind: 'refused' }, next: s };
    },
    view: decisionView,
    enabledInstances: (s) => succ(s).map((x) => initLimiterEventLabel(x.event)),
    invariants: Object.fromEntries(INIT_LIMITER_INVARIANT_NAMES.map((n) => [n, inv[n]])),
    typeInvariant: 'TypeOK',
  };
  models.set(id, model);
  return model;
}
