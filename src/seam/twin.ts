/**
 * A ModelSystem built from an XState twin's parts: the one place that turns a twin (machine for
 * given overrides, its invariants, key, labels, TLC mapping, the names a patch may override) into a
 * system with `withOverrides`. Every system on the seam is built here; its mutants are the
 * manifest's entries, whose model patches (mutants/fencing/model/<system>/<id>.ts) arrive as `overrides`.
 */
import type { TlaValue } from '../core/tla-value.js';
import { checkOverrides, type OverridableNames } from './overrides.js';
import type { Invariant, ModelSystem, ParityTable, Successor } from './system.js';

export interface TwinParts<S, E, O> {
  readonly name: string;
  readonly spec: string;
  readonly config: string;
  readonly variables: readonly string[];
  readonly bounds: unknown;
  initial(): S;
  /** The successor function and the invariants of the machine with these overrides provided. */
  machine(overrides: O | undefined): { successors(s: S, resume?: unknown): readonly Successor<S, E>[]; readonly invariants: Readonly<Record<string, Invariant<S>>> };
  key(s: S): string;
  readonly fastKey?: () => (s: S) => number | undefined;
  label(e: E): string;
  readonly tlcLabels?: boolean;
  fromTlc(vars: Readonly<Record<string, TlaValue>>): S;
  /** Per part of O (`guards`, ...), the names the machine has. */
  readonly overridable: OverridableNames;
  /** The parts at other constants (ModelSystem.withConstants). */
  withConstants?(constants: Readonly<Record<string, string>>): TwinParts<S, E, O>;
  cfgValue?(name: string, value: string): string;
  readonly actions?: readonly string[];
  parityTables?(): Promise<readonly ParityTable[]>;
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
    successors: (s, resume) => m.successors(s, resume),
    key: parts.key,
    ...(parts.fastKey && { fastKey: parts.fastKey }),
    label: parts.label,
    ...(parts.tlcLabels && { tlcLabels: true }),
    invariants: m.invariants,
    fromTlc: parts.fromTlc,
    overridable: parts.overridable,
    ...(parts.withConstants && { withConstants: (c: Readonly<Record<string, string>>) => twinSystem(parts.withConstants!(c), overrides, label) }),
    ...(parts.cfgValue && { cfgValue: parts.cfgValue }),
    ...(parts.actions && { actions: parts.actions }),
    ...(parts.parityTables && { parityTables: parts.parityTables }),
    withOverrides: (o, l) => {
      checkOverrides(o, parts.overridable, undefined, `${parts.name}/${l}`);
      // Checked above: only names of O's parts, each a function.
      return twinSystem(parts, o as O, l);
    },
  };
}
