/**
 * The model side of the pause tour: its state (the spec's variables and every replica's hot-read
 * answer, the spec's Answer(r), which a real replica shows and the variables do not), its alphabet
 * (every action instance of Next as an attempt — Tick once, its witnesses lead to one state — and
 * three faults the spec has no action for: a load that fails, a reconciliation that fails, and a
 * reconciliation whose reply lands after a SetPaused committed and its event was applied), and
 * what the twin predicts of each. The faults are predicted from the spec's own actions: a failed
 * read changes nothing, the overlapped reconciliation is Reconcile(r) · CommitSetPaused(c) ·
 * Deliver(r, e) (the read happened first).
 */
import { candidateEvents, pauseEventLabel, pauseInvariants, pauseMachineFor, pauseAnswer, pauseSuccessors, PAUSE_INVARIANT_NAMES, type PauseModelEvent } from '../../../../models/pause/index.js';
import type { DecisionView, Prediction, TourModel } from '../../../seam/tour/system.js';
import { memoPerObject } from '../../../core/memo-per-object.js';
import { initialPauseState, pauseKey, sameCall, sameEvent, version, type PauseBounds, type PauseModelState, type PendingCall, type Replica } from '../model-state.js';
import type { PauseAnswer } from '../replica.js';

/**
 * What a replica shows beyond the spec's variables: its hot read, its age flag (stale) and whether
 * its reconcile timer is armed. The spec predicts all three (Answer(r); stale exactly when it has no
 * snapshot or its age is past the bound; a timer armed exactly when ready), and a replayed tour
 * needs them: a replica whose hidden flag differs from the prediction is somewhere else.
 */
export interface ReplicaView {
  readonly answer: PauseAnswer;
  readonly stale: boolean;
  readonly timer: boolean;
  /**
   * Where its start-up is: the gate it waits at, or `started` (start() returned). Predicted from
   * the variables (not subscribed: subscribe; no snapshot: load; not ready: ready), so two real
   * replicas with the same variables and different start-ups are different states.
   */
  readonly gate: StartGateView;
  /** Its load phase answered (a snapshot was read): predicted exactly when it holds a snapshot. */
  readonly loaded: boolean;
}

export type StartGateView = 'subscribe' | 'load' | 'ready' | 'started' | 'failed' | 'busy';

export interface PauseTourState {
  readonly model: PauseModelState;
  readonly replicas: Readonly<Record<Replica, ReplicaView>>;
  /**
   * The attempt that led here decided what the model did not predict (read back by the instance,
   * which predicts each attempt itself): whatever the rest of the state shows, the instance may
   * hold something it does not read back, so this is no model state and the engine retires it.
   */
  readonly unpredicted?: true;
}

export type PauseAttempt =
  | { readonly kind: 'event'; readonly ev: PauseModelEvent }
  | { readonly kind: 'failLoad'; readonly r: Replica }
  | { readonly kind: 'failReconcile'; readonly r: Replica }
  | { readonly kind: 'overlap'; readonly r: Replica; readonly c: PendingCall }
  /** Call c's first write lands, every later write of it is refused: a whole (atomic) write has none, so it is CommitSetPaused(c). */
  | { readonly kind: 'failLaterWrite'; readonly c: PendingCall };

export type PauseDecision =
  | { readonly kind: 'transition'; readonly label: string }
  | { readonly kind: 'refused' }
  /** A fault attempt whose read really failed (nothing changes). */
  | { readonly kind: 'failed' }
  | { readonly kind: 'error'; readonly message: string };

const tla = (x: boolean) => (x ? 'TRUE' : 'FALSE');
const callLabel = (c: PendingCall) => `[by |-> ${c.by}, paused |-> ${tla(c.paused)}, version |-> ${c.version}]`;

export function attemptLabel(a: PauseAttempt): string {
  if (a.kind === 'event') return pauseEventLabel(a.ev);
  if (a.kind === 'overlap') return `ReconcileOverlapped(${a.r}, ${callLabel(a.c)})`;
  if (a.kind === 'failLaterWrite') return `FailLaterWrite(${callLabel(a.c)})`;
  return `${a.kind === 'failLoad' ? 'FailLoad' : 'FailReconcile'}(${a.r})`;
}

const ROW: Readonly<Record<PauseAttempt['kind'], string>> = { event: '', failLoad: 'FailLoad', failReconcile: 'FailReconcile', overlap: 'ReconcileOverlapped', failLaterWrite: 'FailLaterWrite' };

export function decisionView(a: PauseAttempt, d: PauseDecision): DecisionView {
  const row = a.kind === 'event' ? a.ev.type : ROW[a.kind];
  switch (d.kind) {
    case 'transition':
      return a.kind === 'event' ? { label: `transition ${d.label}`, kind: 'transition', instance: d.label, row } : { label: `transition ${d.label}`, kind: 'transition', row };
    case 'refused':
      return { label: 'refused', kind: 'refused', row };
    case 'failed':
      return { label: 'failed (nothing changes)', kind: 'refused', row };
    case 'error':
      return { label: `error ${d.message}`, kind: 'error', row };
  }
}

/** What each replica shows in s: the hot read (unavailable unless ready, loaded and, by the spec's Answer, served), the age flag, the timer. */
export function modelViews(machine: ReturnType<typeof pauseMachineFor>, s: PauseModelState, replicas: readonly Replica[], maxAge: number): Record<Replica, ReplicaView> {
  return Object.fromEntries(
    replicas.map((r) => {
      const snap = s.snap[r] ?? null;
      const stale = snap === null || s.age[r]! > maxAge;
      let answer: PauseAnswer = 'unavailable';
      if (s.ready[r] && snap !== null) {
        const a = pauseAnswer(machine, s, r);
        answer = !a.served ? 'unavailable' : a.paused ? 'paused' : 'running';
      }
      const gate: StartGateView = s.ready[r] ? 'started' : !s.subscribed[r] ? 'subscribe' : snap === null ? 'load' : 'ready';
      return [r, { answer, stale, timer: s.ready[r]!, gate, loaded: snap !== null }];
    }),
  ) as Record<Replica, ReplicaView>;
}

const b = (x: boolean) => (x ? 'T' : 'F');

export function tourKey(s: PauseTourState): string {
  const rs = Object.keys(s.replicas).sort();
  return `${pauseKey(s.model)};hot=${rs
    .map((r) => {
      const v = s.replicas[r as Replica]!;
      return `${r}:${v.answer}/${b(v.stale)}/${b(v.timer)}/${v.gate}/${b(v.loaded)}`;
    })
    .join(',')}${s.unpredicted ? ';unpredicted' : ''}`;
}

export type PauseTourModel = TourModel<PauseTourState, PauseAttempt, PauseDecision>;

const models = new Map<string, PauseTourModel>();

/** The tour model at these constants (kept: the engine keeps its model graph with the object). */
export function pauseTourModel(bounds: PauseBounds): PauseTourModel {
  const id = `${bounds.replicas.join(',')}|${bounds.maxCalls}|${bounds.maxAge}`;
  const hit = models.get(id);
  if (hit) return hit;
  const machine = pauseMachineFor(bounds);
  const inv = pauseInvariants(machine, bounds);
  const wrap = (m: PauseModelState): PauseTourState => ({ model: m, replicas: modelViews(machine, m, bounds.replicas, bounds.maxAge) });
  // Every attempt of a state asks for its successors: once per state, not per attempt (the model
  // graph at the base config spent ~13 s of CPU recomputing them).
  const succ = memoPerObject((s: PauseModelState) => pauseSuccessors(machine, bounds, s));
  const after = (s: PauseModelState, label: string): PauseModelState | null => succ(s).find((x) => pauseEventLabel(x.event) === label)?.state ?? null;
  const same = (s: PauseTourState): Prediction<PauseTourState, PauseDecision> => ({ decision: { kind: 'refused' }, next: s });
  const model: PauseTourModel = {
    initialStates: () => [wrap(initialPauseState(bounds))],
    key: tourKey,
    attempts: (s) => {
      const out: PauseAttempt[] = [];
      for (const ev of candidateEvents(s.model, bounds)) if (ev.type !== 'Tick' || ev.r === bounds.replicas[0]) out.push({ kind: 'event', ev });
      for (const r of bounds.replicas) out.push({ kind: 'failLoad', r }, { kind: 'failReconcile', r });
      for (const r of bounds.replicas) for (const c of s.model.pending) out.push({ kind: 'overlap', r, c });
      for (const c of s.model.pending) out.push({ kind: 'failLaterWrite', c });
      return out;
    },
    attemptLabel,
    predict: (s, a) => {
      const m = s.model;
      if (a.kind === 'event') {
        const label = pauseEventLabel(a.ev);
        const next = after(m, label);
        return next === null ? same(s) : { decision: { kind: 'transition', label }, next: wrap(next) };
      }
      if (a.kind === 'failLoad') return after(m, `Load(${a.r})`) === null ? same(s) : { decision: { kind: 'failed' }, next: s };
      if (a.kind === 'failReconcile') return m.snap[a.r] == null ? same(s) : { decision: { kind: 'failed' }, next: s };
      if (a.kind === 'failLaterWrite') {
        const committed = after(m, pauseEventLabel({ type: 'CommitSetPaused', c: a.c }));
        return committed === null ? same(s) : { decision: { kind: 'transition', label: attemptLabel(a) }, next: wrap(committed) };
      }
      if (m.snap[a.r] == null || !m.pending.some((c) => sameCall(c, a.c))) return same(s);
      const read = after(m, `Reconcile(${a.r})`)!;
      const committed = after(read, pauseEventLabel({ type: 'CommitSetPaused', c: a.c }))!;
      const e = { paused: a.c.paused, version: version(read) + 1 };
      const delivered = committed.chan[a.r]!.some((x) => sameEvent(x, e)) ? after(committed, pauseEventLabel({ type: 'Deliver', r: a.r, e }))! : committed;
      return { decision: { kind: 'transition', label: attemptLabel(a) }, next: wrap(delivered) };
    },
    view: decisionView,
    enabledInstances: (s) => [...new Set(succ(s.model).map((x) => pauseEventLabel(x.event)))],
    invariants: Object.fromEntries(
      PAUSE_INVARIANT_NAMES.map((n) => [
        n,
        // The hot read is judged on what the replica answered: past the bound (by the driver's clock)
        // only "unavailable"; within it, the snapshot's value.
        n === 'Inv_FailClosed'
          ? (s: PauseTourState) => bounds.replicas.every((r) => !(s.model.ready[r] && s.model.snap[r] != null && s.model.age[r]! > bounds.maxAge) || s.replicas[r]!.answer === 'unavailable')
          : n === 'Inv_ServesFresh'
            ? (s: PauseTourState) =>
                bounds.replicas.every((r) => {
                  const snap = s.model.snap[r];
                  return !(s.model.ready[r] && snap != null && s.model.age[r]! <= bounds.maxAge) || s.replicas[r]!.answer === (snap.paused ? 'paused' : 'running');
                })
            : (s: PauseTourState) => inv[n](s.model),
      ]),
    ),
    typeInvariant: 'TypeOK',
  };
  models.set(id, model);
  return model;
}
