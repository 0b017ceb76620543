/**
 * The one successor stepper of the XState twins: for each candidate event of a state, in the order
 * given, the machine's own `transition` from the state's snapshot when the candidate is enabled. The
 * twins differ only in their candidates and how enabledness is asked (`snapshot.can`, or fencing's
 * compiled selection); an enabled event whose transition selects nothing is a bug of that test.
 */
import { inertScope } from './xstate-scope.js';

/** What of an XState machine stepping needs; the scope is the inert one (src/seam/xstate-scope.ts). */
export interface SteppingMachine<Snap, E> {
  transition(snapshot: Snap, event: E, scope: never): Snap;
}

export interface TwinStep<S, E, Snap> {
  readonly event: E;
  readonly state: S;
  /** The successor's snapshot, kept only when asked (`keepSnapshots`), for its own expansion. */
  readonly resume?: Snap;
}

export interface StepOptions<C, E, Snap> {
  /** The twin's name, for the disagreement's message. */
  readonly twin: string;
  /** The event of a candidate (a candidate may carry its own enabledness test). */
  readonly eventOf: (c: C) => E;
  /** Whether the snapshot enables the candidate; `by` names the test in the disagreement's message. */
  readonly enabled: (c: C, snap: Snap) => boolean;
  readonly by: string;
  readonly label: (e: E) => string;
  readonly keepSnapshots?: boolean;
}

const scopes = new Map<string, unknown>();

function scopeOf(twin: string): never {
  if (!scopes.has(twin)) scopes.set(twin, inertScope<unknown>(`${twin}-model`));
  return scopes.get(twin) as never;
}

/** Every enabled candidate of `snap` and its successor, in candidate order. */
export function stepCandidates<S, E, Snap extends { readonly context: S }, C>(
  machine: SteppingMachine<Snap, E>,
  snap: Snap,
  candidates: Iterable<C>,
  o: StepOptions<C, E, Snap>,
): TwinStep<S, E, Snap>[] {
  const scope = scopeOf(o.twin);
  const out: TwinStep<S, E, Snap>[] = [];
  for (const c of candidates) {
    if (!o.enabled(c, snap)) continue;
    const event = o.eventOf(c);
    const next = machine.transition(snap, event, scope);
    // xstate hands back the very snapshot when it selects no transition: the enabledness test and `transition` disagreed.
    if (next === snap) throw new Error(`${o.twin} machine: ${o.by} admits ${o.label(event)} where transition() selects nothing`);
    out.push(o.keepSnapshots ? { event, state: next.context, resume: next } : { event, state: next.context });
  }
  return out;
}

/** The common case: the candidates are events, enabled when `snapshot.can` says so. */
export function twinSuccessors<S, E extends { readonly type: string }, Snap extends { readonly context: S; can(e: E): boolean }>(
  machine: SteppingMachine<Snap, E>,
  snap: Snap,
  candidates: Iterable<E>,
  twin: string,
): TwinStep<S, E, Snap>[] {
  return stepCandidates<S, E, Snap, E>(machine, snap, candidates, { twin, eventOf: identity, enabled: canStep, by: 'can()', label: eventType });
}

const identity = <E>(e: E): E => e;
const canStep = <E, Snap extends { can(e: E): boolean }>(e: E, snap: Snap): boolean => snap.can(e);
const eventType = (e: { readonly type: string }): string => e.type;
