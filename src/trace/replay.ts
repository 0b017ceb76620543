/**
 * Replays a trace of any system on its real implementation, through the session the system supplies
 * (src/seam/replay.ts): each step performed, the real state read back after it and laid beside the
 * trace's state variable by variable, the system's invariants judged on the real state, and the
 * replay stopped at the first step where one newly breaks there (or the real system reports a
 * breach outside its state). Nothing here names a system.
 */
import type { ItfValue } from '../core/itf-value.js';
import type { Trace } from '../core/trace-format.js';
import type { AnySystem } from '../registry/systems.js';
import type { ReplayFinding, ReplaySession, ReplayStatus } from '../seam/replay.js';
import { brokenInvariants, stateFromItf } from '../seam/trace.js';

export const REPLAY_SCHEMA = 'fencecheck.replay/2' as const;

export interface ReplayStep {
  readonly index: number;
  readonly action: string;
  readonly params: Readonly<Record<string, ItfValue>>;
  /** What the real system did with the step ('init' for the first state). */
  readonly status: ReplayStatus | 'init';
  readonly note: string;
  /** The trace's state and the real one, as the spec's variables (ITF). */
  readonly model: Readonly<Record<string, ItfValue>>;
  readonly real: Readonly<Record<string, ItfValue>>;
  /** Variables whose real value differs from the trace's. */
  readonly mismatches: readonly string[];
  readonly brokenModel: readonly string[];
  readonly brokenReal: readonly string[];
  /** What the real system broke outside its state at this step (a rule seen on the wire, one line each). */
  readonly breaches: readonly string[];
  /** The check the real system failed at this step, as the tour judges it (Conformance, TTL, ReadSide, …). */
  readonly finding?: ReplayFinding;
}

export interface ReplayResult {
  readonly schema: typeof REPLAY_SCHEMA;
  readonly system: string;
  readonly mutant?: string;
  /** The implementation patch applied, when the trace names a mutant. */
  readonly patch?: string;
  /** Where it ran. */
  readonly where: string;
  readonly steps: readonly ReplayStep[];
  /** The step at which an invariant broke on the real system (the replay stopped there), or null. */
  readonly stoppedAt: number | null;
  readonly brokenReal: readonly string[];
  /** The first step whose trace state breaks an invariant (the trace's prediction), or null. */
  readonly predictedAt: number | null;
  /** The check the replay found failing where it stopped (a tour's finding), or null. */
  readonly finding: ReplayFinding | null;
  /** The finding the trace recorded that is none of the invariants (a tour's `violated`), at its last step. */
  readonly recorded: { readonly check: string; readonly at: number } | null;
}

const same = (a: ItfValue | undefined, b: ItfValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** `sys`: the trace's system at the trace's bounds (it judges the real states). */
export async function replayTrace(trace: Trace, sys: AnySystem, session: ReplaySession, onStep?: (s: ReplayStep) => void): Promise<ReplayResult> {
  const steps: ReplayStep[] = [];
  let stoppedAt: number | null = null;
  let prevBrokenReal: readonly string[] = [];
  for (const [index, step] of trace.steps.entries()) {
    const done = index === 0 ? { status: 'init' as const, note: 'initial state' } : await session.step(index, step, trace.steps[index - 1]!);
    const real = await session.observe();
    const breaches = session.takeBreaches();
    const finding = session.takeFindings?.()[0];
    const brokenReal = brokenInvariants(sys, stateFromItf(sys, real));
    const row: ReplayStep = {
      index,
      action: step.action,
      params: step.params,
      status: done.status,
      note: done.note,
      model: step.state,
      real,
      mismatches: sys.variables.filter((v) => !same(step.state[v], real[v])),
      brokenModel: step.broken ?? brokenInvariants(sys, stateFromItf(sys, step.state)),
      brokenReal,
      breaches,
      ...(finding !== undefined && { finding }),
    };
    steps.push(row);
    onStep?.(row);
    if (finding !== undefined || brokenReal.some((b) => !prevBrokenReal.includes(b)) || breaches.length > 0) {
      stoppedAt = index;
      break;
    }
    prevBrokenReal = brokenReal;
  }
  const predictedAt = trace.steps.findIndex((s) => (s.broken ?? brokenInvariants(sys, stateFromItf(sys, s.state))).length > 0);
  return {
    schema: REPLAY_SCHEMA,
    system: trace.system,
    ...(trace.mutant !== undefined && { mutant: trace.mutant }),
    ...(session.patch !== undefined && { patch: session.patch }),
    where: session.where,
    steps,
    stoppedAt,
    brokenReal: stoppedAt === null ? [] : steps[stoppedAt]!.brokenReal,
    predictedAt: predictedAt < 0 ? null : predictedAt,
    finding: stoppedAt === null ? null : (steps[stoppedAt]!.finding ?? null),
    recorded: trace.violated !== undefined && !(trace.violated in sys.invariants) ? { check: trace.violated, at: trace.steps.length - 1 } : null,
  };
}
