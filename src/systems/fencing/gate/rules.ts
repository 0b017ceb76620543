/**
 * The deployment gate's rules (seed "Deployment Gate"), named as the model's guards
 * (models/fencing/rules.ts) so that a mutant drops the same name at every layer.
 * A rule returns null when it holds, or the reason it refuses.
 */
import { PHASES, type Phase } from '../state.js';
import type { GateObservations } from './observations.js';

export const GATE_STEPS = ['AdvanceTarget', 'Backfill', 'RollbackPhase', 'ReverseMerge', 'EnterCompatible', 'RevertDisabled', 'Enable'] as const;
export type GateStep = (typeof GATE_STEPS)[number];

export interface GateRule {
  readonly name: string;
  readonly step: GateStep;
  readonly check: (o: GateObservations) => string | null;
}

const rank = (p: Phase) => PHASES.indexOf(p);
const pods = (o: GateObservations) => Object.entries(o.podPhases);
const notAt = (o: GateObservations, ph: Phase) =>
  pods(o)
    .filter(([, v]) => v !== ph)
    .map(([p, v]) => `${p}=${v}`);
const list = (xs: string[]) => xs.join(', ');

export const GATE_RULES = [
  // Advance gate: one adjacent phase at a time, only when every pod reports the target.
  { name: 'AdvanceTarget_NotAtC', step: 'AdvanceTarget', check: (o) => (o.target === 'C' ? 'target is already C' : null) },
  { name: 'AdvanceTarget_ModeDisabled', step: 'AdvanceTarget', check: (o) => (o.mode === 'disabled' ? null : `mode is ${o.mode}: phases move only in disabled mode`) },
  {
    name: 'AdvanceTarget_FleetAtTarget',
    step: 'AdvanceTarget',
    check: (o) => (notAt(o, o.target).length === 0 ? null : `pods not at target ${o.target}: ${list(notAt(o, o.target))}`),
  },
  {
    // C-gate: participation-based, observed, never temporal.
    name: 'AdvanceToC_Gate',
    step: 'AdvanceTarget',
    check: (o) => {
      if (o.target !== 'B') return null;
      if (!o.backfilled) return 'C-gate: the backfill has not run since the last rollback';
      return o.oldLeaseCensus === 0 ? null : `C-gate: ${o.oldLeaseCensus} live old-keyspace lease(s) observed`;
    },
  },
  { name: 'Backfill_TargetB', step: 'Backfill', check: (o) => (o.target === 'B' ? null : `target is ${o.target}, the backfill runs at B`) },
  { name: 'Backfill_FleetOnB', step: 'Backfill', check: (o) => (notAt(o, 'B').length === 0 ? null : `pods not on B: ${list(notAt(o, 'B'))}`) },
  // Rollback matrix.
  { name: 'Rollback_NotAtO', step: 'RollbackPhase', check: (o) => (o.target === 'O' ? 'target is already O' : null) },
  { name: 'Rollback_ModeDisabled', step: 'RollbackPhase', check: (o) => (o.mode === 'disabled' ? null : `mode is ${o.mode}: revert the mode to disabled first`) },
  {
    name: 'Rollback_NoPodAboveTarget',
    step: 'RollbackPhase',
    check: (o) => {
      const above = pods(o)
        .filter(([, v]) => rank(v) > rank(o.target))
        .map(([p, v]) => `${p}=${v}`);
      return above.length === 0 ? null : `a rollback is still running: pods above target ${o.target}: ${list(above)}`;
    },
  },
  {
    name: 'RollbackToO_NewLeaseFree',
    step: 'RollbackPhase',
    check: (o) => (o.target !== 'A' || o.newLeaseCensus === 0 ? null : `rollback into O: ${o.newLeaseCensus} live new-keyspace lease(s) observed`),
  },
  {
    name: 'RollbackToO_ReverseMerged',
    step: 'RollbackPhase',
    check: (o) => {
      if (o.target !== 'A') return null;
      const behind = o.counters.filter((c) => c.oldGen < c.newGen).map((c) => `${c.session} old=${c.oldGen} < new=${c.newGen}`);
      return behind.length === 0 ? null : `rollback into O: run the reverse merge first (${list(behind)})`;
    },
  },
  { name: 'ReverseMerge_TargetA', step: 'ReverseMerge', check: (o) => (o.target === 'A' ? null : `target is ${o.target}, the reverse merge runs at A`) },
  // Mode doors.
  { name: 'EnterCompatible_ModeDisabled', step: 'EnterCompatible', check: (o) => (o.mode === 'disabled' ? null : `mode is ${o.mode}`) },
  {
    name: 'EnterCompatible_FleetOnC',
    step: 'EnterCompatible',
    check: (o) => {
      if (o.target !== 'C') return `target is ${o.target}, not C`;
      return notAt(o, 'C').length === 0 ? null : `pods not on C: ${list(notAt(o, 'C'))}`;
    },
  },
  { name: 'EnterCompatible_Backfilled', step: 'EnterCompatible', check: (o) => (o.backfilled ? null : 'the backfill has not run') },
  {
    name: 'EnterCompatible_OldLeaseFree',
    step: 'EnterCompatible',
    check: (o) => (o.oldLeaseCensus === 0 ? null : `${o.oldLeaseCensus} live old-keyspace lease(s) observed`),
  },
  {
    // Pre-G3 checklist: a mis-tagged pair is invisible in disabled mode and a CROSSSLOT outage after.
    name: 'EnterCompatible_KeyslotPair',
    step: 'EnterCompatible',
    check: (o) => {
      if (o.keyslot === null) return 'CLUSTER KEYSLOT check of a tagged pair (before the cluster door) not run: no cluster-enabled node to ask';
      const [a, b] = o.keyslot.slots;
      return a === b ? null : `CLUSTER KEYSLOT differs on the tagged pair: ${o.keyslot.keys[0]}=${a}, ${o.keyslot.keys[1]}=${b}`;
    },
  },
  { name: 'RevertDisabled_ModeCompatible', step: 'RevertDisabled', check: (o) => (o.mode === 'compatible' ? null : `mode is ${o.mode}`) },
  // enabled is the one-way door (A3): nothing leaves it.
  { name: 'Enable_ModeCompatible', step: 'Enable', check: (o) => (o.mode === 'compatible' ? null : `mode is ${o.mode}`) },
] as const satisfies readonly GateRule[];

export type GateRuleName = (typeof GATE_RULES)[number]['name'];
export const GATE_RULE_NAMES: readonly GateRuleName[] = GATE_RULES.map((r) => r.name);

export function isGateStep(s: string): s is GateStep {
  return (GATE_STEPS as readonly string[]).includes(s);
}
