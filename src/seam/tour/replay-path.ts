/**
 * A tour's counterexample replayed with the tour's own judgement: each step of the trace is the
 * tour's attempt, run on the system's real side (a fresh injected instance per step, or one
 * replayed instance walked from Init), and judged as the tour judges it — the decision and the
 * successor against the model's prediction (Conformance), a real state that is no model state
 * (Observation), the system's step check (TTL, T3 on the wire, what a client received) and its
 * state check in every state reached (the read side). So a trace whose finding is none of the
 * invariants replays to that same finding at the same step. `judge: 'invariants'` runs the same
 * steps with none of these checks (a trace made by following the real graph with invariants alone:
 * the generic replay judges those). Nothing here names a system.
 */
import type { ItfValue } from '../../core/itf-value.js';
import type { Step, Trace } from '../../core/trace-format.js';
import type { ReplayFinding, ReplayOpenOptions, ReplaySession, ReplayStatus, TraceReplayer } from '../replay.js';
import { isCheckFailure, TourObservationError, type DecisionView, type TourCheckFailure, type TourSystem } from './system.js';

/** What the replay judges beside the invariants: everything the conformance tour judges, or nothing more. */
export type TourReplayJudgement = 'tour' | 'invariants';

export interface TourPathReplay<S, A, D, I, O> {
  readonly system: TourSystem<S, A, D, I, O>;
  /** The trace's step as the tour's attempt in the real state before it; throws ReplayInputError when none fits. */
  attemptOf(step: Step, index: number, prev: S): A;
  /** A real state as the spec's variables (ITF, the system's toTla form). */
  toItf(s: S): Readonly<Record<string, ItfValue>>;
  readonly judge: TourReplayJudgement;
  /** The state the trace starts in (default: the model's first initial state). */
  readonly initial?: S;
  readonly where: string;
  readonly patch?: string;
  /** Releases the rig (after every instance is disposed). */
  close(): Promise<void>;
}

const STATUS: Readonly<Record<DecisionView['kind'], ReplayStatus>> = { transition: 'applied', refused: 'refused', unchanged: 'refused', error: 'ambiguous' };

/** The tour's Conformance finding, in the engine's words. */
function conformance(label: string, real: DecisionView, note: string, predicted: DecisionView): ReplayFinding {
  const where = real.label === predicted.label ? ', but the state read back is not the successor the model predicts' : '';
  return { check: 'Conformance', message: `${label}: the real system did ${real.label} (${note}), the model predicts ${predicted.label}${where}` };
}

/** A replay session (src/seam/replay.ts) that walks the trace on the system's real side with the tour's checks. */
export function tourPathSession<S, A, D, I, O>(r: TourPathReplay<S, A, D, I, O>): ReplaySession {
  const { model, real, checks } = r.system;
  const tour = r.judge === 'tour';
  const reach = real.reach;
  let cur: S = r.initial ?? model.initialStates()[0]!;
  // The replayed instance, walked from Init (inject: none is kept between steps).
  let walking: I | null = null;
  let findings: ReplayFinding[] = [];
  const dispose = async (i: I) => void (await real.dispose?.(i));
  const walked = async (): Promise<I> => {
    if (reach.kind !== 'replay') throw new Error('no walked instance in an injected tour');
    walking ??= await reach.fresh();
    return walking;
  };
  return {
    where: r.where,
    ...(r.patch !== undefined && { patch: r.patch }),
    async step(index, step) {
      const a = r.attemptOf(step, index, cur);
      const label = model.attemptLabel(a);
      const inst = reach.kind === 'inject' ? await reach.inject(cur, a) : await walked();
      try {
        const out = await real.attempt(inst, a);
        const view = model.view(a, out.decision);
        let back;
        try {
          back = await real.read(inst);
        } catch (err) {
          if (!(err instanceof TourObservationError)) throw err;
          findings.push({ check: 'Observation', message: err.message });
          return { status: STATUS[view.kind], note: out.note };
        }
        if (tour) {
          const predicted = model.predict(cur, a);
          const pv = model.view(a, predicted.decision);
          if (pv.label !== view.label || model.key(back.state) !== model.key(predicted.next)) findings.push(conformance(label, view, out.note, pv));
          else {
            const f: TourCheckFailure | null = checks?.step?.(cur, a, { ...out, ...back }) ?? null;
            if (f) findings.push({ check: f.check, message: f.message });
          }
        }
        cur = back.state;
        return { status: STATUS[view.kind], note: out.note };
      } finally {
        if (reach.kind === 'inject') await dispose(inst);
      }
    },
    async observe() {
      // The state check, once in every state reached, as the tour makes it (after a finding the replay stops anyway).
      if (tour && findings.length === 0 && checks?.state) {
        const inst = reach.kind === 'inject' ? await reach.inject(cur, null) : await walked();
        try {
          const res = await checks.state(cur, inst);
          if (isCheckFailure(res)) findings.push({ check: res.check, message: res.message });
        } finally {
          if (reach.kind === 'inject') await dispose(inst);
        }
      }
      return r.toItf(cur);
    },
    takeBreaches: () => [],
    takeFindings() {
      const f = findings;
      findings = [];
      return f;
    },
    async close() {
      try {
        if (walking !== null) await dispose(walking);
      } finally {
        await r.close();
      }
    },
  };
}

/** The trace's step as one of the attempts of its state: the one whose rendering (action and parameters) is the step's. */
export function attemptByRendering<A>(attempts: readonly A[], render: (a: A) => { action: string; params: Readonly<Record<string, ItfValue>> }, step: Step): A | undefined {
  const want = JSON.stringify(sortedParams(step.params));
  return attempts.find((a) => {
    const r = render(a);
    return r.action === step.action && JSON.stringify(sortedParams(r.params)) === want;
  });
}

function sortedParams(p: Readonly<Record<string, ItfValue>>): [string, ItfValue][] {
  return Object.entries(p).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}

/**
 * How a trace replays: a tour's trace whose finding is none of the system's invariants (Conformance,
 * TTL, the read side, T3, Observation, what a client received) with the tour's judgement; any other
 * trace — an invariant's counterexample of any layer — with the invariants alone, as it always did.
 */
export function replayJudgement(trace: Pick<Trace, 'source' | 'violated'>, invariants: readonly string[]): TourReplayJudgement {
  const tourTrace = trace.source === 'conform' || trace.source === 'tour';
  return tourTrace && trace.violated !== undefined && !invariants.includes(trace.violated) ? 'tour' : 'invariants';
}

/**
 * A system's replayer with the tour's judgement for the traces that need it (replayJudgement): those
 * open `judged`, every other trace the system's own replay, as before.
 */
export function withTourJudgement(base: TraceReplayer, invariants: readonly string[], judged: (trace: Trace, opts: ReplayOpenOptions) => Promise<ReplaySession>): TraceReplayer {
  return {
    check: (trace) => base.check(trace),
    open: (trace, opts) => (replayJudgement(trace, invariants) === 'tour' ? judged(trace, opts) : base.open(trace, opts)),
  };
}
