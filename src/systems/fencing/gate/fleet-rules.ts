/**
 * The gate's rules on the fleet it read for itself (fleet.ts): consulted only when the deploy facts
 * come from the fleet (a GateObservations with `fleet`), where each fails closed and says why. With
 * the facts given by flags (tests, scripting) there is nothing of the fleet to judge and they hold.
 */
import type { GateObservations } from './observations.js';
import { replicaSetOf } from './fleet.js';
import { GATE_STEPS, type GateStep } from './rules.js';

export interface FleetRule {
  readonly name: string;
  readonly steps: readonly GateStep[];
  readonly check: (o: GateObservations) => string | null;
}

const IMAGE_CHANGES: readonly GateStep[] = ['AdvanceTarget', 'RollbackPhase'];
const list = (xs: readonly string[]) => xs.join(', ');
const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'no timestamp');

export const FLEET_RULES = [
  {
    // A pod that is not heard from may run anything: its silence is never read as agreement.
    name: 'Fleet_EveryPodReports',
    steps: GATE_STEPS,
    check: (o) => {
      const f = o.fleet;
      if (!f) return null;
      const why = [...f.down.map((p) => `${p}: last scrape failed`), ...f.silent.map((p) => `${p}: no ${'buzz_fencing_phase'} gauge`)];
      return why.length === 0 ? null : `pods not heard from (${f.source}): ${list(why)}`;
    },
  },
  {
    name: 'Fleet_FreshSamples',
    steps: GATE_STEPS,
    check: (o) => {
      const f = o.fleet;
      if (!f || f.stale.length === 0) return null;
      return `phase samples older than ${seconds(f.maxAgeMs)}: ${list(f.stale.map((s) => `${s.who} ${seconds(s.ageMs)}`))}`;
    },
  },
  {
    name: 'Fleet_OnePhasePerPod',
    steps: GATE_STEPS,
    check: (o) => {
      const f = o.fleet;
      if (!f) return null;
      const two = Object.entries(f.pods).filter(([, ps]) => ps.length > 1);
      return two.length === 0 ? null : `pods reporting more than one phase: ${list(two.map(([p, ps]) => `${p}=${ps.join('+')}`))}`;
    },
  },
  {
    // The ReplicaSets' pod counts and the pods heard from must agree: a pod missing from the gauge
    // (not yet scraped, its series gone) or one no ReplicaSet owns is a fleet the gate cannot see whole.
    name: 'Fleet_ReplicaSetsMatchPods',
    steps: GATE_STEPS,
    check: (o) => {
      const f = o.fleet;
      if (!f) return null;
      const seen = new Map<string, number>();
      const orphans: string[] = [];
      for (const pod of Object.keys(f.pods)) {
        const rs = replicaSetOf(pod, f.replicaSets);
        if (rs) seen.set(rs.name, (seen.get(rs.name) ?? 0) + 1);
        else orphans.push(pod);
      }
      const off = f.replicaSets.filter((r) => (seen.get(r.name) ?? 0) !== r.replicas).map((r) => `${r.name} has ${r.replicas} pod(s), ${seen.get(r.name) ?? 0} report a phase`);
      const why = [...off, ...orphans.map((p) => `${p} belongs to no listed ReplicaSet`)];
      return why.length === 0 ? null : `ReplicaSets and pods disagree: ${list(why)}`;
    },
  },
  {
    // Rule 2(b): the next image change waits until every older ReplicaSet is at zero.
    name: 'ImageChange_OlderReplicaSetsAtZero',
    steps: IMAGE_CHANGES,
    check: (o) => {
      const f = o.fleet;
      if (!f) return null;
      const older = f.replicaSets.slice(0, -1).filter((r) => r.replicas > 0 || r.desired > 0);
      return older.length === 0 ? null : `older ReplicaSets still running: ${list(older.map((r) => `${r.name} (revision ${r.revision}) ${r.replicas}/${r.desired}`))}`;
    },
  },
] as const satisfies readonly FleetRule[];

export type FleetRuleName = (typeof FLEET_RULES)[number]['name'];
export const FLEET_RULE_NAMES: readonly FleetRuleName[] = FLEET_RULES.map((r) => r.name);
