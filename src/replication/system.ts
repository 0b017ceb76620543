/**
 * The failover fencing model as a ModelSystem (src/systems/): the XState twin of
 * tla/replication/FencingReplication.tla (models/replication/), its invariants, TLC's state mapping
 * and the R1 override (the remedy Acquire_WaitReplica dropped).
 */
import {
  REPLICATION_INVARIANT_NAMES, REPLICATION_MUTANTS, replicationEventLabel, replicationInvariants, replicationMachineFor, replicationSuccessors,
  type ReplicationModelEvent, type ReplicationOverrides,
} from '../../models/replication/index.js';
import type { ModelSystem } from '../systems/system.js';
import { TlcOutputError } from '../tlc/errors.js';
import { atomText, type TlaValue } from '../tlc/tla-value.js';
import {
  REPLICATION_BASE_BOUNDS, REPLICATION_VARIABLES, initialReplicationState, normalisedPending, replicationKey,
  type Lease, type PendingAcquire, type Pod, type ReplicationBounds, type ReplicationModelState, type Store,
} from './model-state.js';

export const REPLICATION_SPEC = 'tla/replication/FencingReplication.tla';
export const REPLICATION_CONFIG = 'tla/replication/FencingReplication.cfg';

export type ReplicationSystem = ModelSystem<ReplicationModelState, ReplicationModelEvent>;

/** The replication system at these constants (default: the base config), optionally with a mutant's overrides. */
export function replicationSystem(bounds: ReplicationBounds = REPLICATION_BASE_BOUNDS, overrides?: ReplicationOverrides, mutant?: string): ReplicationSystem {
  const machine = replicationMachineFor(bounds, overrides);
  const invariants = replicationInvariants(bounds);
  return {
    name: mutant ? `replication/${mutant}` : 'replication',
    spec: REPLICATION_SPEC,
    config: mutant ? `tla/replication/mutants/${mutant}.cfg` : REPLICATION_CONFIG,
    variables: REPLICATION_VARIABLES,
    bounds,
    initialStates: () => [initialReplicationState(bounds)],
    successors: (s) => replicationSuccessors(machine, bounds, s),
    key: replicationKey,
    label: replicationEventLabel,
    invariants: Object.fromEntries(REPLICATION_INVARIANT_NAMES.map((n) => [n, invariants[n]])),
    fromTlc: replicationStateFromTlc,
    mutants: REPLICATION_MUTANTS.map(({ id, target, expected }) => ({ id, target, expected })),
    withMutant: (id) => {
      const m = REPLICATION_MUTANTS.find((x) => x.id === id);
      if (!m) throw new RangeError(`replication has no mutant ${id} (has: ${REPLICATION_MUTANTS.map((x) => x.id).join(', ')})`);
      return replicationSystem(bounds, m.overrides, id);
    },
  };
}

/** A TLC state of FencingReplication (variable → value) as a ReplicationModelState. */
export function replicationStateFromTlc(vars: Readonly<Record<string, TlaValue>>): ReplicationModelState {
  const extra = Object.keys(vars).filter((k) => !(REPLICATION_VARIABLES as readonly string[]).includes(k));
  if (extra.length > 0) throw new TlcOutputError(`state has variables the replication model does not: ${extra.join(', ')}`);
  const get = (name: string): TlaValue => {
    const v = vars[name];
    if (v === undefined) throw new TlcOutputError(`state has no variable ${name} (has: ${Object.keys(vars).join(', ')})`);
    if (v.kind === 'unreadable') throw new TlcOutputError(`variable ${name}: ${v.error}`);
    return v;
  };
  return {
    primary: store(get('primary'), 'primary'),
    replica: store(get('replica'), 'replica'),
    pending: normalisedPending(setItems(get('pending'), 'pending').map(pendingAcquire)),
    held: held(get('held')),
    lastAcked: int(get('lastAcked'), 'lastAcked'),
    monoOk: bool(get('monoOk'), 'monoOk'),
    failovers: int(get('failovers'), 'failovers'),
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
  return { lease: lease(f['lease']!, `${what}.lease`), gen: int(f['gen']!, `${what}.gen`) };
}

function lease(v: TlaValue, what: string): Lease {
  const f = fields(v, what, ['owner', 'gen']);
  const owner = atomText(f['owner']!);
  return { owner: owner === 'None' ? null : pod(owner), gen: int(f['gen']!, `${what}.gen`) };
}

function pendingAcquire(v: TlaValue): PendingAcquire {
  const f = fields(v, 'pending', ['pod', 'gen']);
  return { pod: pod(atomText(f['pod']!)), gen: int(f['gen']!, 'pending.gen') };
}

function held(v: TlaValue): Readonly<Record<Pod, number>> {
  if (v.kind !== 'fn') throw new TlcOutputError(`held: expected a function of the pods, got ${v.kind}`);
  return Object.fromEntries(v.entries.map(([k, x]) => [pod(atomText(k)), int(x, 'held')])) as Readonly<Record<Pod, number>>;
}

function setItems(v: TlaValue, what: string): readonly TlaValue[] {
  if (v.kind === 'set') return v.items;
  throw new TlcOutputError(`${what}: expected a set, got ${v.kind}`);
}

function pod(name: string): Pod {
  if (!/^p\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a pod model value (p1, p2, ...)`);
  return name as Pod;
}

function int(v: TlaValue, what: string): number {
  if (v.kind !== 'int') throw new TlcOutputError(`${what}: expected an integer, got ${v.kind}`);
  return v.value;
}

function bool(v: TlaValue, what: string): boolean {
  if (v.kind !== 'bool') throw new TlcOutputError(`${what}: expected TRUE/FALSE, got ${v.kind}`);
  return v.value;
}
