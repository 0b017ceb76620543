/**
 * Reading a parsed TLC state (variable → TlaValue) into a system's own state: the one set of typed
 * readers every system's `fromTlc` uses. Each names what it read on failure (TlcOutputError), so a
 * state that is not the system's says which variable and why.
 */
import { TlcOutputError } from './errors.js';
import type { TlaValue } from '../core/tla-value.js';

/** The accessor of a state's variables: exactly `names`, none missing, none unreadable. */
export function stateVariables(vars: Readonly<Record<string, TlaValue>>, names: readonly string[], system: string): (name: string) => TlaValue {
  const extra = Object.keys(vars).filter((k) => !names.includes(k));
  if (extra.length > 0) throw new TlcOutputError(`state has variables the ${system} model does not: ${extra.join(', ')}`);
  return (name) => {
    const v = vars[name];
    if (v === undefined) throw new TlcOutputError(`state has no variable ${name} (has: ${Object.keys(vars).join(', ')})`);
    if (v.kind === 'unreadable') throw new TlcOutputError(`variable ${name}: ${v.error}`);
    return v;
  };
}

export function readInt(v: TlaValue, what: string): number {
  if (v.kind !== 'int') throw new TlcOutputError(`${what}: expected an integer, got ${v.kind}`);
  return v.value;
}

export function readBool(v: TlaValue, what: string): boolean {
  if (v.kind !== 'bool') throw new TlcOutputError(`${what}: expected TRUE/FALSE, got ${v.kind}`);
  return v.value;
}

/**
 * A set's members; an interval (TLC prints `1..3` for {1, 2, 3}) as its integers; a sequence too,
 * since TLC's -dumpTrace json writes every set as a JSON array (an ITF sequence).
 */
export function readSet(v: TlaValue, what: string): readonly TlaValue[] {
  if (v.kind === 'set' || v.kind === 'seq') return v.items;
  if (v.kind === 'interval') return Array.from({ length: Math.max(0, v.hi - v.lo + 1) }, (_, i) => ({ kind: 'int', value: v.lo + i }) as const);
  throw new TlcOutputError(`${what}: expected a set, got ${v.kind}`);
}

/** A sequence's items (TLC prints the empty sequence as <<>>, sometimes as {}). */
export function readSeq(v: TlaValue, what: string): readonly TlaValue[] {
  if (v.kind === 'seq') return v.items;
  if (v.kind === 'set' && v.items.length === 0) return [];
  throw new TlcOutputError(`${what}: expected a sequence, got ${v.kind}`);
}

/**
 * A function's entries. TLC prints a function whose domain is 1..n as a sequence, and its
 * -dumpTrace json (like ITF without `#map`) writes a function of model values as an object, i.e. a
 * record: both are the same TLA+ function (a record is a function of strings), so both are read.
 */
export function readFn(v: TlaValue, what: string): readonly (readonly [TlaValue, TlaValue])[] {
  if (v.kind === 'fn') return v.entries;
  if (v.kind === 'record') return Object.entries(v.fields).map(([k, x]) => [{ kind: 'str', value: k }, x] as const);
  if (v.kind === 'seq') return v.items.map((x, i) => [{ kind: 'int', value: i + 1 }, x] as const);
  if (v.kind === 'set' && v.items.length === 0) return [];
  throw new TlcOutputError(`${what}: expected a function, got ${v.kind}`);
}
