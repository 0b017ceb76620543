/**
 * A tour path as a fencecheck.trace/1 trace (source `conform`), which `fencecheck trace replay`
 * runs from Init on one session. A step is the model action the real system performed, with the
 * pod and, for a renew or release, the generation the pod remembered (`gen`); a step the model has
 * no action for (a mutated script changed the keyspace where the model refuses) is named after the
 * attempt: `Acquire`, `Renew`, `Release`, `Upgrade`, `Downgrade`, `Expire` or the gate step.
 */
import { brokenInvariants } from '../invariants.js';
import type { FencingBounds } from '../state.js';
import { TRACE_SCHEMA, type TraceLike, type TracePatch, type TraceStep } from '../../../core/trace-format.js';
import type { PathStep } from '../../../seam/tour/result.js';
import type { Attempt, Decision } from './attempts.js';
import type { FencingState } from '../state.js';

type TourStep = PathStep<FencingState, Attempt, Decision>;

const ATTEMPT_ACTION: Readonly<Record<Attempt['kind'], string>> = {
  acquire: 'Acquire',
  renew: 'Renew',
  release: 'Release',
  upgrade: 'Upgrade',
  downgrade: 'Downgrade',
  expire: 'Expire',
  gate: 'Gate',
};

function stepOf(p: TourStep): TraceStep {
  const a = p.attempt;
  const d = p.decision;
  if (a === null || d === null) return { action: 'Init', params: {}, state: p.state };
  const params: Record<string, string | number> = {};
  if ('p' in a) params.p = a.p;
  if (a.kind === 'renew' || a.kind === 'release') params.gen = a.gen;
  if (a.kind === 'expire') params.which = a.which;
  let action: string;
  if (d.kind === 'transition') action = d.event.type;
  else action = a.kind === 'gate' ? a.step : ATTEMPT_ACTION[a.kind];
  // A TTL expiry is the model's ExpireOld/ExpireNew: its key is in the action's name.
  if (a.kind === 'expire' && d.kind === 'transition') delete params.which;
  return { action, params, state: p.state, observed: { attempt: a.kind, decision: d.kind, ...(p.note ? { note: p.note } : {}) } };
}

export function tourPathToTrace(path: readonly TourStep[], meta: { bounds: FencingBounds; mutant?: string; patch?: TracePatch; violated?: string }): TraceLike {
  const last = path[path.length - 1];
  return {
    schema: TRACE_SCHEMA,
    system: 'fencing',
    source: 'conform',
    bounds: meta.bounds,
    ...(meta.mutant !== undefined ? { mutant: meta.mutant } : {}),
    ...(meta.patch !== undefined ? { patch: meta.patch } : {}),
    ...(meta.violated !== undefined ? { violated: meta.violated } : {}),
    brokenAtEnd: last ? brokenInvariants(last.state, meta.bounds) : [],
    steps: path.map(stepOf),
  };
}
