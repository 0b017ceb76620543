/**
 * A ModelSystem built from an XState twin's parts: the one place that turns a twin (machine for
 * given overrides, its invariants, key, labels, TLC mapping, the names a patch may override) into a
 * system with `withOverrides`. Every system on the seam is built here; its mutants are the
 * manifest's entries, whose model patches (mutants/fencing/model/<system>/<id>.ts) arrive as `overrides`.
 */
import type { TlaValue } from '../core/tla-value.js';
import { checkOverrides, type OverridableNames } from './overrides.js';
import type { Invariant, ModelSystem, Successor } from './system.js';

export interface TwinParts<S, E, O> {
  readonly name: string;
  readonly spec: string;
  readonly config: string;
  readonly variables: readonly string[];
  readonly bounds: unknown;
  initial(): S;
  /** The successor function and the invariants of the machine with these overrides provided. */
  machine(overrides: O | undefined): { successors(s: S): readonly Successor<S, E>[]; readonly invariants: Readonly<Record<string, Invariant<S>>> };
  key(s: S): string;
  label(e: E): string;
  fromTlc(vars: Readonly<Record<string, TlaValue>>): S;
  /** Per part of O (`guards`, ...), the names the machine has. */
  readonly overridable: OverridableNames;
}

export function twinSystem<S, E, O>(parts: TwinParts<S, E, O>, overrides?: O, label?: string): ModelSystem<S, E> {
  const m = parts.machine(overrides);
  return {
    name: label ? `${parts.name}/${label}` : parts.name,
    spec: parts.spec,
    config: parts.config,
    variables: parts.variables,
    bounds: parts.bounds,
    initialStates: () => [parts.initial()],
    successors: (s) => m.successors(s),
    key: parts.key,
    label: parts.label,
    invariants: m.invariants,
    fromTlc: parts.fromTlc,
    overridable: parts.overridable,
    withOverrides: (o, l) => {
      checkOverrides(o, parts.overridable, undefined, `${parts.name}/${l}`);
      // Checked above: only names of O's parts, each a function.
      return twinSystem(parts, o as O, l);
    },
  };
}
