/**
 * The seam between a spec's XState twin and the layers that check it: everything the generic
 * exploration (explore.ts), the state-set parity (parity.ts) and a mutant run need to know about one
 * system, and nothing they must not (no XState types, no spec-specific variables).
 */
import type { TlaValue } from '../tlc/tla-value.js';

/** One enabled action instance and the state it leads to. */
export interface Successor<S, E> {
  readonly event: E;
  readonly state: S;
}

export type Invariant<S> = (s: S) => boolean;

/** A mutant of the model layer: one named guard or effect replaced (machine.provide()). */
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
  readonly mutants: readonly SystemMutant[];
  /** The same system with one mutant's override provided to the machine; throws on an unknown id. */
  withMutant(id: string): ModelSystem<S, E>;
}
