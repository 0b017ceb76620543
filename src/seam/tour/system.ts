/**
 * What a system supplies to get an exhaustive tour of its real code (src/seam/tour/tour.ts runs it).
 *
 * The model side lists every attempt in a state — enabled or refused — in a fixed order and says
 * what the model predicts for each (a decision and a successor). The real side says how a fresh
 * instance of the real code gets into a model state: by injection (the state is written directly
 * on a fresh part of a rig — a fresh set of keys, say) or by replay (a fresh
 * instance starts in the initial state and the engine replays a path of attempts on it, for real
 * state that cannot be written: in-flight messages, open sockets, timers). Then how one attempt
 * runs, and how the real state is read back — from the real system, never from the harness's own
 * record of what it did. Checks beyond the state graph are optional, per step and per state.
 *
 * Everything else is the engine's: the breadth-first order, a fresh instance per (state, attempt),
 * the comparison with the model, conformance and invariant mode, the graph digest, coverage, the
 * counterexample path, progress, concurrency, sharding and stopping at the first failure.
 */

/** How a decision counts and compares. Two decisions are the same exactly when their labels are. */
export interface DecisionView {
  /** `transition AcquireB(p1)`, `refused`, `renewed new`: the decision as the graph labels its edge. */
  readonly label: string;
  /**
   * `transition`: a model action fired; `refused`: nothing happened; `unchanged`: the attempt was
   * accepted but changes no model variable (a renewal); `error`: the real code failed (never predicted).
   */
  readonly kind: 'transition' | 'refused' | 'unchanged' | 'error';
  /** A transition's action instance, `AcquireB(p1)`: with the state's key, one labelled transition of the model. */
  readonly instance?: string;
  /** The coverage row a refused or unchanged decision counts in (`renew`, `AdvanceTarget`); a transition counts under its action. */
  readonly row: string;
}

export interface Prediction<S, D> {
  readonly decision: D;
  readonly next: S;
}

export interface TourModel<S, A, D> {
  initialStates(): readonly S[];
  /** The canonical key: two states are one exactly when their keys are equal. */
  key(s: S): string;
  /** Every attempt in s, enabled or refused, in a fixed order; labels unique within a state. */
  attempts(s: S): readonly A[];
  /** `renew(p2@3)`: an attempt as edge lines and reports name it. */
  attemptLabel(a: A): string;
  /** What the model says attempt a does in s. */
  predict(s: S, a: A): Prediction<S, D>;
  view(a: A, d: D): DecisionView;
  /**
   * The model's own labelled transitions of s (every enabled action instance, as TLC counts its
   * edges). When given, coverage counts against these, so an alphabet that misses one shows below
   * 100 %; without it, the predicted transitions are the model's.
   */
  enabledInstances?(s: S): readonly string[];
  /** Invariant name → predicate; conformance mode checks all of them in every real state. */
  readonly invariants: Readonly<Record<string, (s: S) => boolean>>;
  /** An invariant checked beside the one an invariant-mode tour checks (TLC's TypeOK). */
  readonly typeInvariant?: string;
}

/** What one attempt did on the real code. */
export interface Outcome<D> {
  readonly decision: D;
  /** The real reply, for humans (`issued 2`, a gate's reason). */
  readonly note: string;
}

/** The real state read back, and whatever else the system's step check needs (TTLs, wire events). */
export interface Readback<S, O> {
  readonly state: S;
  readonly observation: O;
}

/** One executed attempt: what it did and what was read back after it. */
export interface RealStep<S, D, O> extends Outcome<D>, Readback<S, O> {}

export type Reach<S, A, I> =
  | {
      readonly kind: 'inject';
      /** A fresh instance in state s, made ready for attempt a (null: for a state check). */
      inject(s: S, a: A | null): Promise<I>;
    }
  | {
      readonly kind: 'replay';
      /** A fresh instance in the model's initial state (the first of initialStates()). */
      fresh(): Promise<I>;
    };

export interface TourReal<S, A, D, I, O> {
  readonly reach: Reach<S, A, I>;
  /** Runs attempt a on instance i. Throws only on a fault (the run is then not a verdict). */
  attempt(i: I, a: A): Promise<Outcome<D>>;
  /**
   * Reads the real state of i back. Throws TourObservationError when the real state cannot be
   * read as a model state (a reported failure), anything else on a fault.
   */
  read(i: I): Promise<Readback<S, O>>;
  /** Releases what i holds (always called, also after a failure). */
  dispose?(i: I): Promise<void>;
}

/** A finding: which check and what it saw. */
export interface TourCheckFailure {
  /** `Conformance`, `Observation`, `Replay`, an invariant name, or a system check (`TTL`, `ReadSide`). */
  readonly check: string;
  readonly message: string;
}

/**
 * A state check that passed, with what the real system answered (the read side's replies): the
 * tour's observed digest covers them, so a patch that changes an answer no rule judges is still
 * not equivalent to the unpatched code.
 */
export interface StateAnswers {
  readonly answers: string;
}

/** A state check's result: a finding, a pass with its answers, or a bare pass (null). */
export type StateCheckResult = TourCheckFailure | StateAnswers | null;

/** Whether a state check's result is a finding. */
export function isCheckFailure(r: StateCheckResult): r is TourCheckFailure {
  return r !== null && 'check' in r;
}

/** Checks beyond the state graph, in conformance mode. */
export interface TourChecks<S, A, D, I, O> {
  /** After every attempt, on what the attempt did and what was read back. */
  step?(from: S, a: A, step: RealStep<S, D, O>): TourCheckFailure | null;
  /**
   * The names the step check reports its findings by. An invariant-mode tour may name one of them
   * (that check alone, beside the type invariant), and one watching every invariant runs them all.
   */
  readonly stepNames?: readonly string[];
  /** Once in every state, on a fresh instance in it; must not change the real state. */
  state?(s: S, i: I): Promise<StateCheckResult>;
}

/** Words the reports use for the system's own figures. */
export interface TourWords {
  /** What an `unchanged` decision is, e.g. `renewals (TTL reset, no state change)`. */
  readonly unchanged?: string;
  /** What the per-state check checks, e.g. `read side (lookup, known_generation, validate_fenced_header)`. */
  readonly stateCheck?: string;
}

export interface TourSystem<S, A, D, I = unknown, O = unknown> {
  readonly name: string;
  /** The bounds of this instance, for reports (JSON-safe), and as one line (`Pods=3 MaxGen=4`). */
  readonly bounds: unknown;
  readonly boundsLabel: string;
  readonly model: TourModel<S, A, D>;
  readonly real: TourReal<S, A, D, I, O>;
  readonly checks?: TourChecks<S, A, D, I, O>;
  readonly words?: TourWords;
  /**
   * What an executed attempt showed beyond its decision and successor, as one line that is the same
   * on every run of the same code: its reply (the note, with what differs per instance — a session's
   * key names — taken out), the TTL class of every key, the keyspace's raw values. The observed
   * digest (TourResult.observed) covers it; absent: the note as it is.
   */
  observed?(step: RealStep<S, D, O>): string;
}

/** The real state could not be read back as a model state (a value that is no lease, say): a finding, not a fault. */
export class TourObservationError extends Error {
  override readonly name = 'TourObservationError';
}
