/**
 * The spec's guards and effects as named pure functions over the TLA+ variables.
 * The machine (machine.ts) refers to them by name only, so a mutant replaces exactly one name with
 * `machine.provide()`. Names follow ../shared/design/fencing-model.md ("Actions"); the mutant targets
 * of mutants/manifest.json (AcquireB_OldLeaseFree, AcquireB_MaxMerge, AdvanceToC_Gate, ...) are among them.
 */
import { NONE, PHASES, type FencingBounds, type FencingState, type Lease, type Phase, type Pod } from '../../src/systems/fencing/state.js';
import { isPodEvent, type FencingEvent, type FencingEventType } from './events.js';

/** What a guard may consult beyond the state and event: the constants, and the (possibly mutated) effects. */
export interface GuardEnv {
  readonly bounds: FencingBounds;
  /** Runs a named effect as the machine would (with its override, if any). */
  readonly effect: (name: EffectName, s: FencingState, ev: FencingEvent) => FencingState;
}

export type SpecGuard = (s: FencingState, ev: FencingEvent, env: GuardEnv) => boolean;
export type SpecEffect = (s: FencingState, ev: FencingEvent) => FencingState;

/** A freed lease: TLA+ `[owner |-> None, gen |-> 0]`. Expiry and release are the same state change. */
export const NO_LEASE: Lease = { owner: NONE, gen: 0 };

const free = (l: Lease): boolean => l.owner === NONE;
const rank = (ph: Phase): number => PHASES.indexOf(ph);
const pods = (s: FencingState): Pod[] => Object.keys(s.version) as Pod[];
const fleetAt = (s: FencingState, ph: Phase): boolean => pods(s).every((q) => s.version[q] === ph);

/** version[p]; a pod outside the state's Pods is a wiring bug, not a refusal. */
export function versionOf(s: FencingState, p: Pod): Phase {
  const v = s.version[p];
  if (v === undefined) throw new RangeError(`unknown pod ${p}`);
  return v;
}

/** The pod of a per-pod event; a per-pod rule given a pod-less event is a wiring bug. */
export function podOf(ev: FencingEvent): Pod {
  if (!isPodEvent(ev)) throw new TypeError(`${ev.type} carries no pod`);
  return ev.p;
}

export function nextPhase(ph: Phase): Phase {
  const n = PHASES[rank(ph) + 1];
  if (n === undefined) throw new RangeError(`no phase after ${ph}`);
  return n;
}

export function previousPhase(ph: Phase): Phase {
  const n = PHASES[rank(ph) - 1];
  if (n === undefined) throw new RangeError(`no phase before ${ph}`);
  return n;
}

/** Issuing generation g (TLA+ Issue(g) without the bound, which is a guard here): history variables first (T2 as a one-run invariant), then the lease and counter. */
function issued(s: FencingState, g: number): Pick<FencingState, 'lastIssued' | 'monoOk'> {
  return { lastIssued: g, monoOk: s.monoOk && g > s.lastIssued };
}
export function issueOld(s: FencingState, p: Pod, g: number): FencingState {
  return { ...s, ...issued(s, g), oldGen: g, oldLease: { owner: p, gen: g } };
}
export function issueNew(s: FencingState, p: Pod, g: number): FencingState {
  return { ...s, ...issued(s, g), newGen: g, newLease: { owner: p, gen: g } };
}

/** Issuance stays within MaxGen: the generation the (possibly mutated) issuing effect would issue. */
const withinMaxGen =
  (issuer: EffectName): SpecGuard =>
  (s, ev, env) =>
    env.effect(issuer, s, ev).lastIssued <= env.bounds.maxGen;

export const GUARDS = {
  // AcquireO(p): version[p] = O, old lease free; g = oldGen + 1
  AcquireO_PodOnO: (s, ev) => s.version[podOf(ev)] === 'O',
  AcquireO_OldLeaseFree: (s) => free(s.oldLease),
  AcquireO_WithinMaxGen: withinMaxGen('AcquireO_Issue'),
  // AcquireA(p): union check of both lease keys
  AcquireA_PodOnA: (s, ev) => s.version[podOf(ev)] === 'A',
  AcquireA_OldLeaseFree: (s) => free(s.oldLease),
  AcquireA_NewLeaseFree: (s) => free(s.newLease), // M2
  AcquireA_WithinMaxGen: withinMaxGen('AcquireA_MaxMerge'),
  // AcquireB(p): union check of both lease keys
  AcquireB_PodOnB: (s, ev) => s.version[podOf(ev)] === 'B',
  AcquireB_OldLeaseFree: (s) => free(s.oldLease), // M1
  AcquireB_NewLeaseFree: (s) => free(s.newLease),
  AcquireB_WithinMaxGen: withinMaxGen('AcquireB_MaxMerge'),
  // AcquireC(p): new keys only
  AcquireC_PodOnC: (s, ev) => s.version[podOf(ev)] === 'C',
  AcquireC_NewLeaseFree: (s) => free(s.newLease),
  AcquireC_WithinMaxGen: withinMaxGen('AcquireC_Issue'),
  // MigrateB(p): B's renewer finds its own lease on the old key
  MigrateB_PodOnB: (s, ev) => s.version[podOf(ev)] === 'B',
  MigrateB_OwnsOldLease: (s, ev) => s.oldLease.owner === podOf(ev),
  MigrateB_NewLeaseFree: (s) => free(s.newLease),
  // ExpireOld / ExpireNew: TTL expiry or release
  ExpireOld_Live: (s) => !free(s.oldLease),
  ExpireNew_Live: (s) => !free(s.newLease),
  // per-pod rollout
  UpgradePod_OneBelowTarget: (s, ev) => rank(versionOf(s, podOf(ev))) + 1 === rank(s.target),
  DowngradePod_AboveTarget: (s, ev) => rank(versionOf(s, podOf(ev))) > rank(s.target),
  // AdvanceTarget (target ≠ C is the phase state itself)
  AdvanceTarget_ModeDisabled: (s) => s.mode === 'disabled',
  AdvanceTarget_FleetAtTarget: (s) => fleetAt(s, s.target),
  AdvanceToC_Gate: (s) => s.backfilled && free(s.oldLease), // M4: backfill done, old keyspace drained
  // Backfill (target = B is the phase state)
  Backfill_FleetOnB: (s) => fleetAt(s, 'B'),
  // RollbackPhase (target ≠ O is the phase state): the Deployment Gate's rollback matrix
  Rollback_ModeDisabled: (s) => s.mode === 'disabled',
  Rollback_NoPodAboveTarget: (s) => pods(s).every((q) => rank(versionOf(s, q)) <= rank(s.target)), // M8
  RollbackToO_NewLeaseFree: (s) => free(s.newLease), // M6
  RollbackToO_ReverseMerged: (s) => s.oldGen >= s.newGen, // M7
  // EnterCompatible (mode = disabled is the mode state): the G3 door
  EnterCompatible_FleetOnC: (s) => s.target === 'C' && fleetAt(s, 'C'), // M9
  EnterCompatible_Backfilled: (s) => s.backfilled,
  EnterCompatible_OldLeaseFree: (s) => free(s.oldLease),
} as const satisfies Record<string, SpecGuard>;

export type GuardName = keyof typeof GUARDS;

export const EFFECTS = {
  AcquireO_Issue: (s, ev) => issueOld(s, podOf(ev), s.oldGen + 1),
  AcquireA_MaxMerge: (s, ev) => issueOld(s, podOf(ev), Math.max(s.oldGen, s.newGen) + 1), // M5: oldGen + 1
  AcquireB_MaxMerge: (s, ev) => issueNew(s, podOf(ev), Math.max(s.oldGen, s.newGen) + 1), // M3: newGen + 1
  AcquireC_Issue: (s, ev) => issueNew(s, podOf(ev), s.newGen + 1),
  // same owner, same generation, one atomic script: no issuance
  MigrateB_Move: (s) => ({ ...s, newLease: s.oldLease, oldLease: NO_LEASE }),
  ExpireOld_Free: (s) => ({ ...s, oldLease: NO_LEASE }),
  ExpireNew_Free: (s) => ({ ...s, newLease: NO_LEASE }),
  UpgradePod_ToTarget: (s, ev) => ({ ...s, version: { ...s.version, [podOf(ev)]: s.target } }),
  DowngradePod_ToTarget: (s, ev) => ({ ...s, version: { ...s.version, [podOf(ev)]: s.target } }),
  AdvanceTarget_Next: (s) => ({ ...s, target: nextPhase(s.target) }),
  Backfill_Merge: (s) => ({ ...s, newGen: Math.max(s.oldGen, s.newGen), backfilled: true }),
  // any rollback invalidates the backfill
  RollbackPhase_Previous: (s) => ({ ...s, target: previousPhase(s.target), backfilled: false }),
  ReverseMerge_Merge: (s) => ({ ...s, oldGen: Math.max(s.oldGen, s.newGen) }),
  EnterCompatible_SetMode: (s) => ({ ...s, mode: 'compatible' }),
  RevertDisabled_SetMode: (s) => ({ ...s, mode: 'disabled' }),
  Enable_SetMode: (s) => ({ ...s, mode: 'enabled' }),
} as const satisfies Record<string, SpecEffect>;

export type EffectName = keyof typeof EFFECTS;

/** Each TLA+ action's effect, as the named effects the machine runs in order. */
export const EFFECTS_OF: Readonly<Record<FencingEventType, readonly EffectName[]>> = {
  AcquireO: ['AcquireO_Issue'],
  AcquireA: ['AcquireA_MaxMerge'],
  AcquireB: ['AcquireB_MaxMerge'],
  AcquireC: ['AcquireC_Issue'],
  MigrateB: ['MigrateB_Move'],
  UpgradePod: ['UpgradePod_ToTarget'],
  DowngradePod: ['DowngradePod_ToTarget'],
  ExpireOld: ['ExpireOld_Free'],
  ExpireNew: ['ExpireNew_Free'],
  AdvanceTarget: ['AdvanceTarget_Next'],
  Backfill: ['Backfill_Merge'],
  RollbackPhase: ['RollbackPhase_Previous'],
  ReverseMerge: ['ReverseMerge_Merge'],
  EnterCompatible: ['EnterCompatible_SetMode'],
  RevertDisabled: ['RevertDisabled_SetMode'],
  Enable: ['Enable_SetMode'],
};

export const SPEC_GUARD_NAMES = Object.keys(GUARDS) as GuardName[];
export const EFFECT_NAMES = Object.keys(EFFECTS) as EffectName[];

/**
 * Every name a mutant may target: the named guards, then the named effects (M3 and M5 change an
 * effect, the issuance's max-merge). Includes every manifest `target` of the fencing mutants.
 */
export const GUARD_NAMES: readonly string[] = [...SPEC_GUARD_NAMES, ...EFFECT_NAMES];
