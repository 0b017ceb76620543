/**
 * The seam between a spec's XState twin and the layers that check it: everything the generic
 * exploration (explore.ts), the state-set parity (parity.ts) and a mutant run need to know about one
 * system, and nothing they must not (no XState types, no spec-specific variables).
 */
import type { TlaValue } from '../core/tla-value.js';
import type { OverridableNames } from './overrides.js';

/** One enabled action instance and the state it leads to. */
export interface Successor<S, E> {
  readonly event: E;
  readonly state: S;
  /**
   * Optional: the system's own form of the successor (fencing: its XState snapshot), handed back to
   * `successors` when this state is expanded, so that it need not be rebuilt from `state`.
   */
  readonly resume?: unknown;
}

export type Invariant<S> = (s: S) => boolean;

/** A mutant as the seam's evidence names it (from its manifest entry): its id, mutation point and expected invariant. */
export interface SystemMutant {
  readonly id: string;
  /** The mutation point's name, the same in the spec (`Dropped`) and the machine. */
  readonly target: string;
  /** The invariant the mutant's TLC config checks (with TypeOK): the one that must break. */
  readonly expected: string;
}

export interface ModelSystem<S, E> {
  readonly name: string;
  /** Repository-relative paths of the TLA+ spec and the base config the twin mirrors. */
  readonly spec: string;
  readonly config: string;
  /** The spec's variables (what a TLC state carries). */
  readonly variables: readonly string[];
  /** The constants this instance was built for, for reports (JSON-safe). */
  readonly bounds: unknown;
  /**
   * Optional: the same system at other values of the spec's constants, given as TLC would read
   * them (`{ Pods: '4', MaxGen: '6' }`); throws RangeError naming the constant and its allowed values.
   */
  withConstants?(constants: Readonly<Record<string, string>>): ModelSystem<S, E>;
  /**
   * Optional: the same system at other bounds, given in its own form (what `bounds` reports, as a
   * trace records it); throws RangeError when they are not this system's bounds.
   */
  withBounds?(bounds: unknown): ModelSystem<S, E>;
  /** Optional: the bounds a state shows (a set of pods: the domain of a per-pod function), the others this instance's. */
  boundsOf?(s: S): unknown;
  /** Optional: the twin's event types, to compare with the actions of the spec's Next (`fencecheck parity`). */
  readonly actions?: readonly string[];
  /** Optional: tables an auditor reads beside parity (action ↔ event ↔ implementation, …). */
  parityTables?(): Promise<readonly ParityTable[]>;
  /** Optional: a constant's short value as TLA+ for a config (`Pods`, `3` → `{p1, p2, p3}`); default: the value itself. */
  cfgValue?(name: string, value: string): string;
  initialStates(): readonly S[];
  /** Every enabled action instance of `s` with its successor, from the machine's own transition (`resume`: what the successor that reached `s` carried). */
  successors(s: S, resume?: unknown): readonly Successor<S, E>[];
  /** The canonical key: two states are one exactly when TLC would count them as one. */
  key(s: S): string;
  /**
   * Optional, for speed: a fresh packer of states into integers, looked up before `key` (equal packs
   * must imply equal keys; undefined for a state that does not pack). Each call gives a new packer
   * (it may keep caches).
   */
  readonly fastKey?: () => (s: S) => number | undefined;
  /** The TLA+ action instance of an event, e.g. `Deliver(r1, [paused |-> TRUE, version |-> 1])`. */
  label(e: E): string;
  /**
   * Whether `label` is what TLC's labelled state graph prints for the same step (every action of
   * Next a named operator with its parameters): edge parity then compares labels too, else only
   * which state leads to which.
   */
  readonly tlcLabels?: boolean;
  /** Invariant name → predicate, in the spec's config order. */
  readonly invariants: Readonly<Record<string, Invariant<S>>>;
  /** A TLC state (variable → value, as parseTlaState gives it) as S; throws TlcOutputError when it is not one. */
  fromTlc(vars: Readonly<Record<string, TlaValue>>): S;
  /**
   * The inverse of fromTlc: S as the spec's variables (each of `variables` → its TLA+ value, model
   * values as `mv`), so that `key(fromTlc(toTla(s))) === key(s)`. A trace's states are this, as ITF.
   */
  toTla(s: S): Readonly<Record<string, TlaValue>>;
  /**
   * Optional: the spec's parameter names of each parameterised action (`AcquireB` → ['p']), for a
   * trace's params; without them (or for other actions) parameters are `arg0`, `arg1`, … as TLC's own
   * traces name them.
   */
  readonly paramNames?: Readonly<Record<string, readonly string[]>>;
  /** Per part of a model patch (`guards`, ...), the names the machine lets a patch replace. */
  readonly overridable: OverridableNames;
  /**
   * The same system with a model patch's overrides provided to the machine, named `<name>/<label>`.
   * Throws OverridesError when the patch replaces a name the machine lacks (src/seam/overrides.ts).
   * The mutants themselves are the manifest's (mutants/manifest.json), not the system's.
   */
  withOverrides(overrides: unknown, label: string): ModelSystem<S, E>;
}

/** `pods={p1, p2, p3} maxGen=4`: a system's bounds in one line, for reports. */
export function boundsLabel(b: unknown): string {
  return typeof b === 'object' && b !== null
    ? Object.entries(b)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? `{${v.join(', ')}}` : String(v)}`)
        .join(' ')
    : String(b);
}

/** A table of text cells, for reports. */
export interface ParityTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}
