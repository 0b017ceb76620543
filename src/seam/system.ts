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
  initialStates(): readonly S[];
  /** Every enabled action instance of `s` with its successor, from the machine's own transition. */
  successors(s: S): readonly Successor<S, E>[];
  /** The canonical key: two states are one exactly when TLC would count them as one. */
  key(s: S): string;
  /** The TLA+ action instance of an event, e.g. `Deliver(r1, [paused |-> TRUE, version |-> 1])`. */
  label(e: E): string;
  /** Invariant name → predicate, in the spec's config order. */
  readonly invariants: Readonly<Record<string, Invariant<S>>>;
  /** A TLC state (variable → value, as parseTlaState gives it) as S; throws TlcOutputError when it is not one. */
  fromTlc(vars: Readonly<Record<string, TlaValue>>): S;
  /** Per part of a model patch (`guards`, ...), the names the machine lets a patch replace. */
  readonly overridable: OverridableNames;
  /**
   * The same system with a model patch's overrides provided to the machine, named `<name>/<label>`.
   * Throws OverridesError when the patch replaces a name the machine lacks (src/seam/overrides.ts).
   * The mutants themselves are the manifest's (mutants/manifest.json), not the system's.
   */
  withOverrides(overrides: unknown, label: string): ModelSystem<S, E>;
}
