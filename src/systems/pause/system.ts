/**
 * The pause snapshot as a ModelSystem (src/systems/): the XState twin of tla/pause/PauseSnapshot.tla
 * (models/pause/), its invariants, TLC's state mapping and the guards a model patch may replace
 * (P1–P6 are the manifest's: mutants/pause/model/).
 */
import { GUARDS, PAUSE_INVARIANT_NAMES, pauseEventLabel, pauseInvariants, pauseMachineFor, pauseSuccessors, type PauseModelEvent, type PauseOverrides } from '../../../models/pause/index.js';
import type { ModelSystem } from '../../seam/system.js';
import { twinSystem } from '../../seam/twin.js';
import { TlcOutputError } from '../../tlc/errors.js';
import { readBool, readInt, readSeq, readSet, stateVariables } from '../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../core/tla-value.js';
import {
  PAUSE_BASE_BOUNDS, PAUSE_VARIABLES, initialPauseState, normalisedCalls, normalisedEvents, normalisedVersions, pauseKey,
  type PauseBounds, type PauseEvent, type PauseModelState, type PendingCall, type PerReplica, type Replica,
} from './model-state.js';

export const PAUSE_SPEC = 'tla/pause/PauseSnapshot.tla';
export const PAUSE_CONFIG = 'tla/pause/PauseSnapshot.cfg';

export type PauseSystem = ModelSystem<PauseModelState, PauseModelEvent>;

/** The pause system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function pauseSystem(bounds: PauseBounds = PAUSE_BASE_BOUNDS, overrides?: PauseOverrides, label?: string): PauseSystem {
  return twinSystem(
    {
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
      overridable: { guards: Object.keys(GUARDS) },
    },
    overrides,
    label,
  );
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
    snap: fn(get('snap'), 'snap', (v) => ((v.kind === 'mv' || v.kind === 'str') && atomText(v) === 'None' ? null : event(v, 'snap'))),
    age: fn(get('age'), 'age', (v) => readInt(v, 'age')),
    ready: fn(get('ready'), 'ready', (v) => readBool(v, 'ready')),
    applied: fn(get('applied'), 'applied', (v) => readInt(v, 'applied')),
    synced: fn(get('synced'), 'synced', (v) => readInt(v, 'synced')),
  };
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
  return { paused: readBool(v.fields['paused'], `${what}.paused`), version: readInt(v.fields['version'], `${what}.version`) };
}

function call(v: TlaValue): PendingCall {
  if (v.kind !== 'record' || !v.fields['by'] || Object.keys(v.fields).length !== 3) throw new TlcOutputError(`pending: expected [by |-> .., paused |-> .., version |-> ..], got ${v.kind}`);
  return { by: replica(atomText(v.fields['by'])), ...event({ kind: 'record', fields: { paused: v.fields['paused']!, version: v.fields['version']! } }, 'pending') };
}


