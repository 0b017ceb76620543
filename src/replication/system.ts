/**
 * The failover fencing model as a ModelSystem (src/systems/): the XState twin of
 * tla/replication/FencingReplication.tla (models/replication/), its invariants, TLC's state mapping
 * and the guards a model patch may replace (R1, the remedy Acquire_WaitReplica dropped, is the
 * manifest's: mutants/model/replication/R1.ts).
 */
import {
  GUARDS, REPLICATION_INVARIANT_NAMES, replicationEventLabel, replicationInvariants, replicationMachineFor, replicationSuccessors,
  type ReplicationModelEvent, type ReplicationOverrides,
} from '../../models/replication/index.js';
import type { ModelSystem } from '../systems/system.js';
import { twinSystem } from '../systems/twin.js';
import { TlcOutputError } from '../tlc/errors.js';
import { readBool, readInt, readSet, stateVariables } from '../tlc/read-state.js';
import { atomText, type TlaValue } from '../tlc/tla-value.js';
import {
  REPLICATION_BASE_BOUNDS, REPLICATION_VARIABLES, initialReplicationState, normalisedPending, replicationKey,
  type Lease, type PendingAcquire, type Pod, type ReplicationBounds, type ReplicationModelState, type Store,
} from './model-state.js';

export const REPLICATION_SPEC = 'tla/replication/FencingReplication.tla';
export const REPLICATION_CONFIG = 'tla/replication/FencingReplication.cfg';

export type ReplicationSystem = ModelSystem<ReplicationModelState, ReplicationModelEvent>;

/** The replication system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function replicationSystem(bounds: ReplicationBounds = REPLICATION_BASE_BOUNDS, overrides?: ReplicationOverrides, label?: string): ReplicationSystem {
  const invariants = replicationInvariants(bounds);
  return twinSystem(
    {
      name: 'replication',
      spec: REPLICATION_SPEC,
      config: REPLICATION_CONFIG,
      variables: REPLICATION_VARIABLES,
      bounds,
      initial: () => initialReplicationState(bounds),
      machine: (o) => {
        const machine = replicationMachineFor(bounds, o);
        return { successors: (s) => replicationSuccessors(machine, bounds, s), invariants: Object.fromEntries(REPLICATION_INVARIANT_NAMES.map((n) => [n, invariants[n]])) };
      },
      key: replicationKey,
      label: replicationEventLabel,
      fromTlc: replicationStateFromTlc,
      overridable: { guards: Object.keys(GUARDS) },
    },
    overrides,
    label,
  );
}

/** A TLC state of FencingReplication (variable → value) as a ReplicationModelState. */
export function replicationStateFromTlc(vars: Readonly<Record<string, TlaValue>>): ReplicationModelState {
  const get = stateVariables(vars, REPLICATION_VARIABLES, 'replication');
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
  return { lease: lease(f['lease']!, `${what}.lease`), gen: readInt(f['gen']!, `${what}.gen`) };
}

function lease(v: TlaValue, what: string): Lease {
  const f = fields(v, what, ['owner', 'gen']);
  const owner = atomText(f['owner']!);
  return { owner: owner === 'None' ? null : pod(owner), gen: readInt(f['gen']!, `${what}.gen`) };
}

function pendingAcquire(v: TlaValue): PendingAcquire {
  const f = fields(v, 'pending', ['pod', 'gen']);
  return { pod: pod(atomText(f['pod']!)), gen: readInt(f['gen']!, 'pending.gen') };
}

function held(v: TlaValue): Readonly<Record<Pod, number>> {
  if (v.kind !== 'fn') throw new TlcOutputError(`held: expected a function of the pods, got ${v.kind}`);
  return Object.fromEntries(v.entries.map(([k, x]) => [pod(atomText(k)), readInt(x, 'held')])) as Readonly<Record<Pod, number>>;
}


function pod(name: string): Pod {
  if (!/^p\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a pod model value (p1, p2, ...)`);
  return name as Pod;
}


