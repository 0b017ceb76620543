/**
 * The pause snapshot as a ModelSystem (src/systems/): the XState twin of tla/pause/PauseSnapshot.tla
 * (models/pause/), its invariants, TLC's state mapping and the guards a model patch may replace
 * (P1–P6 are the manifest's: mutants/pause/model/).
 */
import { GUARDS, PAUSE_INVARIANT_NAMES, pauseEventLabel, pauseInvariants, pauseMachineFor, pauseSuccessors, type PauseModelEvent, type PauseOverrides } from '../../../models/pause/index.js';
import type { ModelSystem } from '../../seam/system.js';
import { twinSystem, type TwinParts } from '../../seam/twin.js';
import { TlcOutputError } from '../../tlc/errors.js';
import { readBool, readFn, readInt, readSeq, readSet, stateVariables } from '../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../core/tla-value.js';
import {
  PAUSE_BASE_BOUNDS,
  PAUSE_VARIABLES,
  initialPauseState,
  normalisedCalls,
  normalisedEvents,
  normalisedVersions,
  pauseKey,
  type PauseBounds,
  type PauseEvent,
  type PauseModelState,
  type PendingCall,
  type PerReplica,
  type Replica,
} from './model-state.js';

export const PAUSE_SPEC = 'tla/pause/PauseSnapshot.tla';
export const PAUSE_CONFIG = 'tla/pause/PauseSnapshot.cfg';

export type PauseSystem = ModelSystem<PauseModelState, PauseModelEvent>;

/** The pause system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function pauseSystem(bounds: PauseBounds = PAUSE_BASE_BOUNDS, overrides?: PauseOverrides, label?: string): PauseSystem {
  return twinSystem(pauseParts(bounds), overrides, label);
}

function pauseParts(bounds: PauseBounds): TwinParts<PauseModelState, PauseModelEvent, PauseOverrides> {
  return {
    name: 'pause',
    spec: PAUSE_SPEC,
    config: PAUSE_CONFIG,
    variables: PAUSE_VARIABLES,
    bounds,
    initial: () => initialPauseState(bounds),
    machine: (o) => {
      const machine = pauseMachineFor(bounds, o);
      const invariants = pauseInvariants(machine, bounds);
      return { successors: (s) => pauseSuccessors(machine, bounds, s), invariants: Object.fromEntries(PAUSE_INVARIANT_NAMES.map((n) => [n, invariants[n]])) };
    },
    key: pauseKey,
    label: pauseEventLabel,
    fromTlc: pauseStateFromTlc,
    toTla: pauseStateToTla,
    paramNames: PAUSE_PARAM_NAMES,
    overridable: { guards: Object.keys(GUARDS) },
    withConstants: (c) => pauseParts(pauseConstants(bounds, c)),
    withBounds: (b) => pauseParts(pauseBounds(b)),
    cfgValue: (name, value) => (name === 'Replicas' && /^\d+$/.test(value) ? `{${replicasOf(Number(value)).join(', ')}}` : value),
  };
}

const replicasOf = (n: number): Replica[] => Array.from({ length: n }, (_, i) => `r${i + 1}` as Replica);

/**
 * The bounds for TLC-style constants: `Replicas` as a count (`1`) or a set (`{r1, r2}`), `MaxCalls`
 * and `MaxAge` as integers; any other name, or a value out of range, is a RangeError naming it.
 */
export function pauseConstants(base: PauseBounds, c: Readonly<Record<string, string>>): PauseBounds {
  let { replicas, maxCalls, maxAge } = base;
  for (const [name, value] of Object.entries(c)) {
    const v = value.trim();
    if (name === 'Replicas') {
      if (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 4) replicas = replicasOf(Number(v));
      else if (/^\{\s*r\d(\s*,\s*r\d)*\s*\}$/.test(v))
        replicas = [
          ...new Set(
            v
              .slice(1, -1)
              .split(',')
              .map((x) => x.trim() as Replica),
          ),
        ].sort();
      else throw new RangeError(`Replicas takes a count from 1 to 4 or a set {r1, r2, ...}, got "${value}"`);
    } else if (name === 'MaxCalls') {
      if (!/^\d+$/.test(v) || Number(v) > 4) throw new RangeError(`MaxCalls takes an integer from 0 to 4, got "${value}"`);
      maxCalls = Number(v);
    } else if (name === 'MaxAge') {
      if (!/^\d+$/.test(v) || Number(v) > 3) throw new RangeError(`MaxAge takes an integer from 0 to 3, got "${value}"`);
      maxAge = Number(v);
    } else throw new RangeError(`pause has no constant ${name} (constants: Replicas, MaxCalls, MaxAge)`);
  }
  return { replicas, maxCalls, maxAge };
}

/** Bounds as a trace records them (`{replicas: ["r1", …], maxCalls, maxAge}`), checked; RangeError otherwise. */
export function pauseBounds(b: unknown): PauseBounds {
  const o = (typeof b === 'object' && b !== null ? b : {}) as { replicas?: unknown; maxCalls?: unknown; maxAge?: unknown };
  const rs = o.replicas;
  if (!Array.isArray(rs) || rs.length === 0 || !rs.every((r) => typeof r === 'string' && /^r\d+$/.test(r)) || new Set(rs).size !== rs.length)
    throw new RangeError(`pause bounds: replicas must be distinct replica names r1..rN, got ${JSON.stringify(rs)}`);
  for (const k of ['maxCalls', 'maxAge'] as const)
    if (!Number.isInteger(o[k]) || (o[k] as number) < 0) throw new RangeError(`pause bounds: ${k} must be a non-negative integer, got ${JSON.stringify(o[k])}`);
  return { replicas: rs as Replica[], maxCalls: o.maxCalls as number, maxAge: o.maxAge as number };
}

/** A TLC state of PauseSnapshot (variable → value) as a PauseModelState. */
export function pauseStateFromTlc(vars: Readonly<Record<string, TlaValue>>): PauseModelState {
  const get = stateVariables(vars, PAUSE_VARIABLES, 'pause');
  return {
    history: readSeq(get('history'), 'history').map((v) => readBool(v, 'history')),
    calls: readInt(get('calls'), 'calls'),
    pending: normalisedCalls(readSet(get('pending'), 'pending').map(call)),
    chan: fn(get('chan'), 'chan', (v) => normalisedEvents(readSet(v, 'chan').map((e) => event(e, 'chan')))),
    dropped: fn(get('dropped'), 'dropped', (v) => normalisedVersions(readSet(v, 'dropped').map((x) => readInt(x, 'dropped')))),
    subscribed: fn(get('subscribed'), 'subscribed', (v) => readBool(v, 'subscribed')),
    // None is a model value; ITF (and TLC's JSON) write it as the string "None".
    snap: fn(get('snap'), 'snap', (v) => ((v.kind === 'mv' && v.name === 'None') || (v.kind === 'str' && v.value === 'None') ? null : event(v, 'snap'))),
    age: fn(get('age'), 'age', (v) => readInt(v, 'age')),
    ready: fn(get('ready'), 'ready', (v) => readBool(v, 'ready')),
    applied: fn(get('applied'), 'applied', (v) => readInt(v, 'applied')),
    synced: fn(get('synced'), 'synced', (v) => readInt(v, 'synced')),
  };
}

/** The spec's parameter names of each parameterised action (Next's `\E r \in Replicas, p \in BOOLEAN`, `\E c \in pending`, `\E e \in chan[r]`). */
export const PAUSE_PARAM_NAMES: Readonly<Record<string, readonly string[]>> = {
  Subscribe: ['r'],
  Load: ['r'],
  Ready: ['r'],
  Reconcile: ['r'],
  BeginSetPaused: ['r', 'p'],
  CommitSetPaused: ['c'],
  FailSetPaused: ['c'],
  Deliver: ['r', 'e'],
  Drop: ['r', 'e'],
};

const mv = (name: string): TlaValue => ({ kind: 'mv', name });
const int = (value: number): TlaValue => ({ kind: 'int', value });
const bool = (value: boolean): TlaValue => ({ kind: 'bool', value });
const eventTla = (e: PauseEvent): TlaValue => ({ kind: 'record', fields: { paused: bool(e.paused), version: int(e.version) } });

/** A PauseModelState as the spec's variables (the inverse of pauseStateFromTlc): replicas and None model values, sets in the state's order. */
export function pauseStateToTla(s: PauseModelState): Record<(typeof PAUSE_VARIABLES)[number], TlaValue> {
  const rs = (Object.keys(s.snap) as Replica[]).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  const per = <T>(f: PerReplica<T>, each: (x: T) => TlaValue): TlaValue => ({ kind: 'fn', entries: rs.map((r) => [mv(r), each(f[r]!)] as const) });
  return {
    history: { kind: 'seq', items: s.history.map(bool) },
    calls: int(s.calls),
    pending: { kind: 'set', items: s.pending.map((c) => ({ kind: 'record', fields: { by: mv(c.by), paused: bool(c.paused), version: int(c.version) } })) },
    chan: per(s.chan, (es) => ({ kind: 'set', items: es.map(eventTla) })),
    dropped: per(s.dropped, (vs) => ({ kind: 'set', items: vs.map(int) })),
    subscribed: per(s.subscribed, bool),
    snap: per(s.snap, (x) => (x === null ? mv('None') : eventTla(x))),
    age: per(s.age, int),
    ready: per(s.ready, bool),
    applied: per(s.applied, int),
    synced: per(s.synced, int),
  };
}

function fn<T>(v: TlaValue, what: string, each: (x: TlaValue) => T): PerReplica<T> {
  return Object.fromEntries(readFn(v, what).map(([k, x]) => [replica(atomText(k)), each(x)])) as PerReplica<T>;
}

function replica(name: string): Replica {
  if (!/^r\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a replica model value (r1, r2, ...)`);
  return name as Replica;
}

function event(v: TlaValue, what: string): PauseEvent {
  if (v.kind !== 'record' || !v.fields.paused || !v.fields.version || Object.keys(v.fields).length !== 2) {
    throw new TlcOutputError(`${what}: expected [paused |-> .., version |-> ..], got ${v.kind}`);
  }
  return { paused: readBool(v.fields.paused, `${what}.paused`), version: readInt(v.fields.version, `${what}.version`) };
}

function call(v: TlaValue): PendingCall {
  if (v.kind !== 'record' || !v.fields.by || Object.keys(v.fields).length !== 3) throw new TlcOutputError(`pending: expected [by |-> .., paused |-> .., version |-> ..], got ${v.kind}`);
  return { by: replica(atomText(v.fields.by)), ...event({ kind: 'record', fields: { paused: v.fields.paused!, version: v.fields.version! } }, 'pending') };
}
