/**
 * The pause snapshot as a ModelSystem (src/systems/): the XState twin of tla/pause/PauseSnapshot.tla
 * (models/pause/), its invariants, TLC's state mapping and the P1–P6 overrides.
 */
import { PAUSE_INVARIANT_NAMES, PAUSE_MUTANTS, pauseEventLabel, pauseInvariants, pauseMachineFor, pauseSuccessors, type PauseModelEvent, type PauseOverrides } from '../../models/pause/index.js';
import type { ModelSystem } from '../systems/system.js';
import { TlcOutputError } from '../tlc/errors.js';
import { atomText, type TlaValue } from '../tlc/tla-value.js';
import {
  PAUSE_BASE_BOUNDS, PAUSE_VARIABLES, initialPauseState, normalisedCalls, normalisedEvents, normalisedVersions, pauseKey,
  type PauseBounds, type PauseEvent, type PauseModelState, type PendingCall, type PerReplica, type Replica,
} from './model-state.js';

export const PAUSE_SPEC = 'tla/pause/PauseSnapshot.tla';
export const PAUSE_CONFIG = 'tla/pause/PauseSnapshot.cfg';

export type PauseSystem = ModelSystem<PauseModelState, PauseModelEvent>;

/** The pause system at these constants (default: the base config), optionally with a mutant's overrides. */
export function pauseSystem(bounds: PauseBounds = PAUSE_BASE_BOUNDS, overrides?: PauseOverrides, mutant?: string): PauseSystem {
  const machine = pauseMachineFor(bounds, overrides);
  const invariants = pauseInvariants(machine, bounds);
  return {
    name: mutant ? `pause/${mutant}` : 'pause',
    spec: PAUSE_SPEC,
    config: mutant ? `tla/pause/mutants/${mutant}.cfg` : PAUSE_CONFIG,
    variables: PAUSE_VARIABLES,
    bounds,
    initialStates: () => [initialPauseState(bounds)],
    successors: (s) => pauseSuccessors(machine, bounds, s),
    key: pauseKey,
    label: pauseEventLabel,
    invariants: Object.fromEntries(PAUSE_INVARIANT_NAMES.map((n) => [n, invariants[n]])),
    fromTlc: pauseStateFromTlc,
    mutants: PAUSE_MUTANTS.map(({ id, target, expected }) => ({ id, target, expected })),
    withMutant: (id) => {
      const m = PAUSE_MUTANTS.find((x) => x.id === id);
      if (!m) throw new RangeError(`pause has no mutant ${id} (has: ${PAUSE_MUTANTS.map((x) => x.id).join(', ')})`);
      return pauseSystem(bounds, m.overrides, id);
    },
  };
}

/** A TLC state of PauseSnapshot (variable → value) as a PauseModelState. */
export function pauseStateFromTlc(vars: Readonly<Record<string, TlaValue>>): PauseModelState {
  const extra = Object.keys(vars).filter((k) => !(PAUSE_VARIABLES as readonly string[]).includes(k));
  if (extra.length > 0) throw new TlcOutputError(`state has variables the pause model does not: ${extra.join(', ')}`);
  const get = (name: string): TlaValue => {
    const v = vars[name];
    if (v === undefined) throw new TlcOutputError(`state has no variable ${name} (has: ${Object.keys(vars).join(', ')})`);
    if (v.kind === 'unreadable') throw new TlcOutputError(`variable ${name}: ${v.error}`);
    return v;
  };
  return {
    history: items(get('history'), 'history').map((v) => bool(v, 'history')),
    calls: int(get('calls'), 'calls'),
    pending: normalisedCalls(setItems(get('pending'), 'pending').map(call)),
    chan: fn(get('chan'), 'chan', (v) => normalisedEvents(setItems(v, 'chan').map((e) => event(e, 'chan')))),
    dropped: fn(get('dropped'), 'dropped', (v) => normalisedVersions(setItems(v, 'dropped').map((x) => int(x, 'dropped')))),
    subscribed: fn(get('subscribed'), 'subscribed', (v) => bool(v, 'subscribed')),
    snap: fn(get('snap'), 'snap', (v) => (v.kind === 'mv' && v.name === 'None' ? null : event(v, 'snap'))),
    age: fn(get('age'), 'age', (v) => int(v, 'age')),
    ready: fn(get('ready'), 'ready', (v) => bool(v, 'ready')),
    applied: fn(get('applied'), 'applied', (v) => int(v, 'applied')),
    synced: fn(get('synced'), 'synced', (v) => int(v, 'synced')),
  };
}

function items(v: TlaValue, what: string): readonly TlaValue[] {
  // TLC prints the empty sequence as <<>>; a function 1..n -> x it may print as a tuple too.
  if (v.kind === 'seq') return v.items;
  if (v.kind === 'set' && v.items.length === 0) return [];
  throw new TlcOutputError(`${what}: expected a sequence, got ${v.kind}`);
}

function setItems(v: TlaValue, what: string): readonly TlaValue[] {
  if (v.kind === 'set') return v.items;
  if (v.kind === 'interval') return Array.from({ length: Math.max(0, v.hi - v.lo + 1) }, (_, i) => ({ kind: 'int', value: v.lo + i }) as const);
  throw new TlcOutputError(`${what}: expected a set, got ${v.kind}`);
}

function fn<T>(v: TlaValue, what: string, each: (x: TlaValue) => T): PerReplica<T> {
  if (v.kind !== 'fn') throw new TlcOutputError(`${what}: expected a function of the replicas, got ${v.kind}`);
  return Object.fromEntries(v.entries.map(([k, x]) => [replica(atomText(k)), each(x)])) as PerReplica<T>;
}

function replica(name: string): Replica {
  if (!/^r\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a replica model value (r1, r2, ...)`);
  return name as Replica;
}

function event(v: TlaValue, what: string): PauseEvent {
  if (v.kind !== 'record' || !v.fields['paused'] || !v.fields['version'] || Object.keys(v.fields).length !== 2) {
    throw new TlcOutputError(`${what}: expected [paused |-> .., version |-> ..], got ${v.kind}`);
  }
  return { paused: bool(v.fields['paused'], `${what}.paused`), version: int(v.fields['version'], `${what}.version`) };
}

function call(v: TlaValue): PendingCall {
  if (v.kind !== 'record' || !v.fields['by'] || Object.keys(v.fields).length !== 3) throw new TlcOutputError(`pending: expected [by |-> .., paused |-> .., version |-> ..], got ${v.kind}`);
  return { by: replica(atomText(v.fields['by'])), ...event({ kind: 'record', fields: { paused: v.fields['paused']!, version: v.fields['version']! } }, 'pending') };
}

function int(v: TlaValue, what: string): number {
  if (v.kind !== 'int') throw new TlcOutputError(`${what}: expected an integer, got ${v.kind}`);
  return v.value;
}

function bool(v: TlaValue, what: string): boolean {
  if (v.kind !== 'bool') throw new TlcOutputError(`${what}: expected TRUE/FALSE, got ${v.kind}`);
  return v.value;
}
