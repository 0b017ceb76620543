/**
 * The failover fencing model as a ModelSystem (src/systems/): the XState twin of
 * tla/fencing/failover/FencingReplication.tla (models/fencing/failover/), its invariants, TLC's state mapping
 * and the guards a model patch may replace (R1, the remedy Acquire_WaitReplica dropped, is the
 * manifest's: mutants/fencing/model/R1.ts).
 */
import {
  GUARDS,
  FAILOVER_INVARIANT_NAMES,
  failoverEventLabel,
  failoverInvariants,
  failoverMachineFor,
  failoverSuccessors,
  type FailoverModelEvent,
  type FailoverOverrides,
} from '../../../../models/fencing/failover/index.js';
import type { ModelSystem } from '../../../seam/system.js';
import { twinSystem } from '../../../seam/twin.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { readBool, readFn, readInt, readSet, stateVariables } from '../../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../../core/tla-value.js';
import {
  FAILOVER_BASE_BOUNDS,
  FAILOVER_VARIABLES,
  initialFailoverState,
  normalisedPending,
  failoverKey,
  type Lease,
  type PendingAcquire,
  type Pod,
  type FailoverBounds,
  type FailoverModelState,
  type Store,
} from './model-state.js';

export const FAILOVER_SPEC = 'tla/fencing/failover/FencingReplication.tla';
export const FAILOVER_CONFIG = 'tla/fencing/failover/FencingReplication.cfg';

export type FailoverSystem = ModelSystem<FailoverModelState, FailoverModelEvent>;

/** The replication system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function failoverSystem(bounds: FailoverBounds = FAILOVER_BASE_BOUNDS, overrides?: FailoverOverrides, label?: string): FailoverSystem {
  const invariants = failoverInvariants(bounds);
  return twinSystem(
    {
      name: 'failover',
      spec: FAILOVER_SPEC,
      config: FAILOVER_CONFIG,
      variables: FAILOVER_VARIABLES,
      bounds,
      initial: () => initialFailoverState(bounds),
      machine: (o) => {
        const machine = failoverMachineFor(bounds, o);
        return { successors: (s) => failoverSuccessors(machine, bounds, s), invariants: Object.fromEntries(FAILOVER_INVARIANT_NAMES.map((n) => [n, invariants[n]])) };
      },
      key: failoverKey,
      label: failoverEventLabel,
      fromTlc: failoverStateFromTlc,
      toTla: failoverStateToTla,
      paramNames: FAILOVER_PARAM_NAMES,
      overridable: { guards: Object.keys(GUARDS) },
    },
    overrides,
    label,
  );
}

/** A TLC state of FencingReplication (variable → value) as a FailoverModelState. */
export function failoverStateFromTlc(vars: Readonly<Record<string, TlaValue>>): FailoverModelState {
  const get = stateVariables(vars, FAILOVER_VARIABLES, 'failover');
  return {
    primary: store(get('primary'), 'primary'),
    replica: store(get('replica'), 'replica'),
    pending: normalisedPending(readSet(get('pending'), 'pending').map(pendingAcquire)),
    held: held(get('held')),
    lastAcked: readInt(get('lastAcked'), 'lastAcked'),
    monoOk: readBool(get('monoOk'), 'monoOk'),
    failovers: readInt(get('failovers'), 'failovers'),
  };
}

function fields(v: TlaValue, what: string, names: readonly string[]): Readonly<Record<string, TlaValue>> {
  if (v.kind !== 'record' || Object.keys(v.fields).length !== names.length || !names.every((n) => v.fields[n])) {
    throw new TlcOutputError(`${what}: expected [${names.map((n) => `${n} |-> ..`).join(', ')}], got ${v.kind}`);
  }
  return v.fields;
}

function store(v: TlaValue, what: string): Store {
  const f = fields(v, what, ['lease', 'gen']);
  return { lease: lease(f.lease!, `${what}.lease`), gen: readInt(f.gen!, `${what}.gen`) };
}

function lease(v: TlaValue, what: string): Lease {
  const f = fields(v, what, ['owner', 'gen']);
  const owner = atomText(f.owner!);
  return { owner: owner === 'None' ? null : pod(owner), gen: readInt(f.gen!, `${what}.gen`) };
}

function pendingAcquire(v: TlaValue): PendingAcquire {
  const f = fields(v, 'pending', ['pod', 'gen']);
  return { pod: pod(atomText(f.pod!)), gen: readInt(f.gen!, 'pending.gen') };
}

function held(v: TlaValue): Readonly<Record<Pod, number>> {
  return Object.fromEntries(readFn(v, 'held').map(([k, x]) => [pod(atomText(k)), readInt(x, 'held')])) as Readonly<Record<Pod, number>>;
}

/** The spec's parameter names of each parameterised action (Expire's witness is not a parameter). */
export const FAILOVER_PARAM_NAMES: Readonly<Record<string, readonly string[]>> = { Acquire: ['p'], Release: ['p'], Expire: ['p'], WaitAcked: ['a'], WaitTimedOut: ['a'] };

const mv = (name: string): TlaValue => ({ kind: 'mv', name });
const int = (value: number): TlaValue => ({ kind: 'int', value });
const leaseTla = (l: Lease): TlaValue => ({ kind: 'record', fields: { owner: mv(l.owner ?? 'None'), gen: int(l.gen) } });
const storeTla = (s: Store): TlaValue => ({ kind: 'record', fields: { lease: leaseTla(s.lease), gen: int(s.gen) } });

/** A FailoverModelState as the spec's variables (the inverse of failoverStateFromTlc). */
export function failoverStateToTla(s: FailoverModelState): Record<(typeof FAILOVER_VARIABLES)[number], TlaValue> {
  const pods = (Object.keys(s.held) as Pod[]).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return {
    primary: storeTla(s.primary),
    replica: storeTla(s.replica),
    pending: { kind: 'set', items: s.pending.map((a) => ({ kind: 'record', fields: { pod: mv(a.pod), gen: int(a.gen) } })) },
    held: { kind: 'fn', entries: pods.map((p) => [mv(p), int(s.held[p]!)] as const) },
    lastAcked: int(s.lastAcked),
    monoOk: { kind: 'bool', value: s.monoOk },
    failovers: int(s.failovers),
  };
}

function pod(name: string): Pod {
  if (!/^p\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a pod model value (p1, p2, ...)`);
  return name as Pod;
}
