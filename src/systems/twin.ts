/**
 * A ModelSystem built from an XState twin's parts: the one place that turns a twin (machine for
 * given overrides, its invariants, key, labels, TLC mapping) and its mutants (one override each)
 * into a system with `withMutant`. Every system on the seam is built here.
 */
import type { TlaValue } from '../tlc/tla-value.js';
import type { Invariant, ModelSystem, Successor, SystemMutant } from './system.js';

export interface TwinMutant<O> extends SystemMutant {
  readonly overrides: O;
}

export interface TwinParts<S, E, O> {
  readonly name: string;
  readonly spec: string;
  readonly config: string;
  /** Where the mutants' TLC configs are: `${mutantConfigDir}/${id}.cfg`. */
  readonly mutantConfigDir: string;
  readonly variables: readonly string[];
  readonly bounds: unknown;
  initial(): S;
  /** The successor function and the invariants of the machine with these overrides provided. */
  machine(overrides: O | undefined): { successors(s: S): readonly Successor<S, E>[]; readonly invariants: Readonly<Record<string, Invariant<S>>> };
  key(s: S): string;
  label(e: E): string;
  fromTlc(vars: Readonly<Record<string, TlaValue>>): S;
  readonly mutants: readonly TwinMutant<O>[];
}

export function twinSystem<S, E, O>(parts: TwinParts<S, E, O>, overrides?: O, mutant?: string): ModelSystem<S, E> {
  const m = parts.machine(overrides);
  return {
    name: mutant ? `${parts.name}/${mutant}` : parts.name,
    spec: parts.spec,
    config: mutant ? `${parts.mutantConfigDir}/${mutant}.cfg` : parts.config,
    variables: parts.variables,
    bounds: parts.bounds,
    initialStates: () => [parts.initial()],
    successors: (s) => m.successors(s),
    key: parts.key,
    label: parts.label,
    invariants: m.invariants,
    fromTlc: parts.fromTlc,
    mutants: parts.mutants.map(({ id, target, expected }) => ({ id, target, expected })),
    withMutant: (id) => {
      const x = parts.mutants.find((y) => y.id === id);
      if (!x) throw new RangeError(`${parts.name} has no mutant ${id} (has: ${parts.mutants.map((y) => y.id).join(', ')})`);
      return twinSystem(parts, x.overrides, id);
    },
  };
}
