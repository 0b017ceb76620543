/**
 * The deployment gate: what a deploy pipeline (or an operator, via `fencecheck gate`) asks before a
 * phase advance, a backfill, a rollback, a reverse merge or a mode door. A mutated gate is this same
 * gate built without one rule.
 */
import { GATE_RULES, GATE_RULE_NAMES, type GateRule, type GateRuleName, type GateStep } from './rules.js';
import type { GateObservations } from './observations.js';
import { FLEET_RULES, FLEET_RULE_NAMES, type FleetRule, type FleetRuleName } from './fleet-rules.js';

/** Any rule the gate consults: a step's rule, or a rule on the fleet it read. */
export type AnyGateRuleName = GateRuleName | FleetRuleName;

export interface GateRefusal {
  readonly rule: AnyGateRuleName;
  readonly reason: string;
}

export interface GateDecision {
  readonly step: GateStep;
  readonly allowed: boolean;
  readonly refusedBy: readonly GateRefusal[];
  /** The rules consulted (dropped rules are not). */
  readonly checked: readonly AnyGateRuleName[];
}

export interface Gate {
  readonly dropped: readonly AnyGateRuleName[];
  decide(step: GateStep, obs: GateObservations): GateDecision;
}

/** `drop`: rules left out (by name); `rewrite`: a change to the rule list itself (an impl mutant). */
export function createGate(opts: { drop?: readonly AnyGateRuleName[]; rewrite?: (rules: readonly GateRule[]) => readonly GateRule[] } = {}): Gate {
  const dropped = [...(opts.drop ?? [])];
  for (const d of dropped) if (!GATE_RULE_NAMES.includes(d as GateRuleName) && !FLEET_RULE_NAMES.includes(d as FleetRuleName)) throw new RangeError(`no gate rule named ${d}`);
  const kept: readonly GateRule[] = GATE_RULES.filter((r) => !dropped.includes(r.name));
  const rules = opts.rewrite ? opts.rewrite(kept) : kept;
  const fleetRules: readonly FleetRule[] = FLEET_RULES.filter((r) => !dropped.includes(r.name));
  return {
    dropped,
    decide(step, obs) {
      // The fleet's rules first: a fleet the gate cannot see whole is named before what it would mean.
      const mine = [...fleetRules.filter((r) => r.steps.includes(step)).map((r) => ({ name: r.name, step, check: r.check })), ...rules.filter((r) => r.step === step)];
      const refusedBy: GateRefusal[] = [];
      for (const r of mine) {
        const reason = r.check(obs);
        if (reason !== null) refusedBy.push({ rule: r.name as AnyGateRuleName, reason });
      }
      return { step, allowed: refusedBy.length === 0, refusedBy, checked: mine.map((r) => r.name as AnyGateRuleName) };
    },
  };
}
