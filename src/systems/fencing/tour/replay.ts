/**
 * A fencing tour trace replayed with the tour's judgement (src/seam/tour/replay-path.ts): each step
 * is the tour's attempt, made on a fresh session injected in the real state the step before left
 * (as the tour makes every attempt), then judged as the tour judges it — the model's prediction,
 * the TTL rules, T3 on the wire, the read side of every state reached. A trace recorded by
 * tourPathToTrace (trace.ts) names each step's attempt kind in `observed.attempt`.
 */
import { itfInt, type ItfValue } from '../../../core/itf-value.js';
import type { Step } from '../../../core/trace-format.js';
import { ReplayInputError, type ReplaySession } from '../../../seam/replay.js';
import { tourPathSession } from '../../../seam/tour/replay-path.js';
import { ATTEMPT_KINDS, attemptLabel, type Attempt } from './attempts.js';
import type { FencingBounds, FencingState } from '../state.js';
import type { ImplPatch } from '../patch.js';
import { openTourRig } from './rig.js';
import { fencingTourSystem } from './system.js';
import type { StartOptions } from '../../../valkey/start.js';

/** Whether the step's recorded attempt is `a` (its kind, pod, remembered generation, expiring key, gate step). */
function fits(a: Attempt, step: Step, kind: string): boolean {
  if (a.kind !== kind) return false;
  const p = step.params.p;
  if ('p' in a && a.p !== p) return false;
  if ((a.kind === 'renew' || a.kind === 'release') && (step.params.gen === undefined || itfInt(step.params.gen) !== a.gen)) return false;
  if (a.kind === 'expire') {
    const which: ItfValue | undefined = step.params.which ?? (step.action === 'ExpireOld' ? 'old' : step.action === 'ExpireNew' ? 'new' : undefined);
    return a.which === which;
  }
  if (a.kind === 'gate') return a.step === step.action;
  return true;
}

/** The tour's attempt a trace step records, among the attempts of the state before it. */
export function attemptOfTourStep(attempts: readonly Attempt[], step: Step, index: number): Attempt {
  const observed = step.observed as { attempt?: unknown } | undefined;
  const kind = observed?.attempt;
  if (typeof kind !== 'string' || !(ATTEMPT_KINDS as readonly string[]).includes(kind))
    throw new ReplayInputError(`steps[${index}]: a conformance-tour step records its attempt in observed.attempt (one of ${ATTEMPT_KINDS.join(', ')})`);
  const a = attempts.find((x) => fits(x, step, kind));
  if (!a) throw new ReplayInputError(`steps[${index}]: ${step.action} is no ${kind} attempt the tour makes in the state before it (${attempts.map(attemptLabel).join(', ')})`);
  return a;
}

export async function openFencingTourReplay(opts: {
  bounds: FencingBounds;
  patch?: { path: string; patch: ImplPatch };
  start: StartOptions;
  toItf(s: FencingState): Readonly<Record<string, ItfValue>>;
}): Promise<ReplaySession> {
  const rig = await openTourRig(opts.start);
  const system = fencingTourSystem({ rig, bounds: opts.bounds, ...(opts.patch ? { patch: opts.patch.patch } : {}) });
  return tourPathSession({
    system,
    attemptOf: (step, index, prev) => attemptOfTourStep(system.model.attempts(prev), step, index),
    toItf: opts.toItf,
    judge: 'tour',
    where: `as the tour makes each attempt, a fresh session injected per step: standalone, 1-shard and 3-shard cluster (${rig.topologies.disabled.provider})`,
    ...(opts.patch ? { patch: opts.patch.path } : {}),
    close: () => rig.close(),
  });
}
