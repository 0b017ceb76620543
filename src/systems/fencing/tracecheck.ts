/**
 * Fencing's observations as the spec's variables (tla/fencing/RedisClusterFencingMigration.tla), for
 * trace validation (src/seam/tracecheck/). What a run observes after a step is the driver's
 * `observe()`: the leases and counters read from Valkey, the generation the last acquire's reply
 * issued (`lastIssued`), and the deploy records the driver keeps as a deploy pipeline would
 * (`version`, `target`, `backfilled`, `mode`). `monoOk` is a history variable (every reply above the
 * one before): left to the spec. A step claims the action the driver performed when the real system
 * applied it (the script's reply, the gate's decision) and a stutter otherwise (a refused attempt,
 * a renew that only extends a TTL): a stutter that changed what is observed is rejected.
 */
import { nextState, isPodEvent, type FencingEvent } from '../../../models/fencing/index.js';
import type { ClaimedAction, ObservedStep, ObservedTrace } from '../../seam/tracecheck/format.js';
import { formatTlaValue } from '../../core/tla-value.js';
import { canonicalKey, DEFAULT_BOUNDS, type FencingBounds, type FencingState } from './state.js';
import { fencingStateToTla } from './tlc/state.js';

/** The variables a run observes (all but the history variable monoOk). */
export const OBSERVED_VARIABLES = ['version', 'target', 'oldLease', 'newLease', 'oldGen', 'newGen', 'backfilled', 'mode', 'lastIssued'] as const;

/** What a run observed, as the trace's variables. */
export function observedVars(s: FencingState): Record<string, string> {
  // The system's own toTla (its ModelSystem's): the inverse of the TLC state mapping.
  const tla = fencingStateToTla(s);
  return Object.fromEntries(OBSERVED_VARIABLES.map((v) => [v, formatTlaValue(tla[v]!)]));
}

/** The spec's action instance of an event: `AcquireB(p2)`, `Backfill`. */
export function claimOf(ev: FencingEvent): ClaimedAction {
  return isPodEvent(ev) ? { name: ev.type, args: [ev.p] } : { name: ev.type };
}

/** The base config's constants where the bounds differ from them (none for the defaults). */
export function constantsOf(bounds: FencingBounds): Record<string, string> | undefined {
  const same = bounds.maxGen === DEFAULT_BOUNDS.maxGen && bounds.pods.join() === DEFAULT_BOUNDS.pods.join();
  return same ? undefined : { Pods: `{${bounds.pods.join(', ')}}`, MaxGen: String(bounds.maxGen) };
}

/** One step of a run: what it claims (the event the real system applied, or none: a stutter), what it observed after. */
export interface FencingObservedStep {
  readonly applied: FencingEvent | null;
  readonly observed: FencingState;
  readonly note?: string;
}

/**
 * The first step whose observation the model (the twin's own step function) does not give from
 * the observation before it: the step the run's model predicts TLC rejects. Null when every step
 * is the model's.
 */
export function modelPrediction(initial: FencingState, steps: readonly FencingObservedStep[], bounds: FencingBounds): number | null {
  let prev = initial;
  for (const [i, s] of steps.entries()) {
    const next = s.applied ? nextState(prev, s.applied, bounds) : prev;
    if (next === null || canonicalKey(next) !== canonicalKey(s.observed)) return i + 1;
    prev = s.observed;
  }
  return null;
}

export interface FencingTraceMeta {
  readonly source: string;
  readonly id: string;
  readonly bounds: FencingBounds;
  readonly mutant?: string;
  readonly replay?: string;
  /** Which model predicted the rejection step (for the report). */
  readonly predictedBy: string;
}

/** A run's steps as an observed trace of the fencing spec, with the run's model's prediction. */
export function fencingObservedTrace(initial: FencingState, steps: readonly FencingObservedStep[], meta: FencingTraceMeta): ObservedTrace {
  const lines: ObservedStep[] = [{ vars: observedVars(initial) }];
  for (const s of steps) {
    lines.push({
      ...(s.applied ? { action: claimOf(s.applied) } : { action: [], stutter: true }),
      vars: observedVars(s.observed),
      ...(s.note !== undefined && { note: s.note }),
    });
  }
  const constants = constantsOf(meta.bounds);
  return {
    system: 'fencing',
    source: meta.source,
    id: meta.id,
    ...(meta.mutant !== undefined && { mutant: meta.mutant }),
    ...(constants && { constants }),
    predicted: { step: modelPrediction(initial, steps, meta.bounds), by: meta.predictedBy },
    ...(meta.replay !== undefined && { replay: meta.replay }),
    steps: lines,
  };
}

/** A conformance-tour path step, as the tour records it (src/systems/fencing/tour/tour.ts PathStep). */
export interface TourPathStep {
  readonly attempt: { readonly kind: string } | null;
  readonly decision: { readonly kind: 'transition'; readonly event: FencingEvent } | { readonly kind: string } | null;
  readonly state: FencingState;
  readonly note?: string;
}

/**
 * A tour's counterexample path (Init, then each attempt the real code made in the state before and
 * the keyspace it left) as an observed trace. Each edge ran for real from its source state, written
 * into a fresh session: the path is a path of the real implementation's state graph.
 */
export function tourObservedTrace(path: readonly TourPathStep[], meta: Omit<FencingTraceMeta, 'source' | 'predictedBy'>): ObservedTrace {
  const [init, ...rest] = path;
  if (!init) throw new RangeError('a tour path starts at Init');
  const steps = rest.map((p): FencingObservedStep => {
    const d = p.decision;
    const applied = d && d.kind === 'transition' && 'event' in d ? d.event : null;
    return { applied, observed: p.state, note: `${p.attempt?.kind ?? '?'}: ${d?.kind ?? '?'}${p.note ? ` (${p.note})` : ''}` };
  });
  return fencingObservedTrace(init.state, steps, { ...meta, source: 'tour', predictedBy: "the conformance tour's model (the twin's step from the state before)" });
}
