/**
 * Fencing as a ModelSystem (src/systems/): the XState twin of tla/fencing/RedisClusterFencingMigration.tla
 * (models/fencing/) stepped by its own `can` and `transition`, the canonical key, labels and TLC
 * mapping fencing's parity already uses, and the names a model patch may replace (M1–M9 are the
 * manifest's: mutants/fencing/model/Mx.ts, applied through src/seam/model-patch.ts).
 */
import {
  EFFECT_NAMES,
  EVENT_TYPES,
  POD_EVENT_TYPES,
  SPEC_GUARD_NAMES,
  allEvents,
  eventLabel,
  machineFor,
  snapshotOf,
  type FencingEvent,
  type FencingOverrides,
  type FencingSnapshot,
} from '../../../models/fencing/index.js';
import type { ModelSystem, Successor } from '../../seam/system.js';
import { twinSystem, type TwinParts } from '../../seam/twin.js';
import { stepCandidates, type StepOptions } from '../../seam/twin-step.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from './tlc/config.js';
import { FENCING_VARIABLES, fencingStateToTla, toFencingState } from './tlc/state.js';
import { INVARIANTS, INVARIANT_NAMES } from './invariants.js';
import { DEFAULT_BOUNDS, comparePods, initialState, podsOf, type FencingBounds, type FencingState, type Pod } from './state.js';
import { enabledPlans, type PlanEntry } from './enabled.js';
import { keyerFor, packerFor } from './state-key.js';

export type FencingSystem = ModelSystem<FencingState, FencingEvent>;

/**
 * The successor function of the machine with these overrides: every enabled action instance, in
 * allEvents order, chosen by the compiled selection (enabled.ts: `snapshot.can`, answered without its
 * per-call cost) and stepped by the machine's own `transition`. The snapshot of each successor is kept
 * (`resume`) for its own expansion, and the first states are re-checked with `can` itself.
 */
export function fencingSuccessorsFor(bounds: FencingBounds, overrides: FencingOverrides | undefined): (s: FencingState, resume?: unknown) => Successor<FencingState, FencingEvent>[] {
  const machine = machineFor(bounds, overrides);
  const events = allEvents(bounds);
  const planOf = enabledPlans(machine, events);
  let checked = 0;
  return (s, resume) => {
    const snap = (resume as FencingSnapshot | undefined) ?? snapshotOf(machine, s);
    const out: Successor<FencingState, FencingEvent>[] = stepCandidates<FencingState, FencingEvent, FencingSnapshot, PlanEntry>(machine, snap, planOf(snap), BY_PLAN);
    if (checked < CHECKED_WITH_CAN) {
      checked += 1;
      const expected = events
        .filter((ev) => snap.can(ev))
        .map(eventLabel)
        .join(',');
      const got = out.map((o) => eventLabel(o.event)).join(',');
      if (expected !== got) throw new Error(`enabled.ts disagrees with snapshot.can: [${got}] vs [${expected}]`);
    }
    return out;
  };
}

/** Fencing's candidates are the compiled plan's entries, each with its own enabledness test; the successor's snapshot is kept. */
const BY_PLAN: StepOptions<PlanEntry, FencingEvent, FencingSnapshot> = {
  twin: 'fencing',
  eventOf: (c) => c.event,
  enabled: (c, snap) => c.enabled(snap),
  by: 'enabled.ts',
  label: eventLabel,
  keepSnapshots: true,
};

/** States whose every event is also asked of `snapshot.can` (a cheap runtime check of enabled.ts). */
const CHECKED_WITH_CAN = 256;

/** Per part of a model patch (mutants/fencing/model/Mx.ts), the names the fencing machine lets it replace (as layers/model.ts checks them). */
export const FENCING_OVERRIDABLE = { guards: SPEC_GUARD_NAMES, actions: EFFECT_NAMES } as const;

/** The spec's per-pod actions (`\E p \in Pods : AcquireB(p)`) name their parameter `p`. */
export const FENCING_PARAM_NAMES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(POD_EVENT_TYPES.map((t) => [t, ['p']]));

/** The twin's parts at these constants. */
function partsAt(bounds: FencingBounds): TwinParts<FencingState, FencingEvent, FencingOverrides> {
  // The invariants read the constants (TypeOK) but never the overrides: one table for every patch.
  const invariants = Object.fromEntries(INVARIANT_NAMES.map((n) => [n, (s: FencingState) => INVARIANTS[n](s, bounds)]));
  return {
    name: 'fencing',
    spec: SPEC_PATH,
    config: BASE_CONFIG_PATH,
    variables: FENCING_VARIABLES,
    bounds,
    initial: () => initialState(bounds),
    machine: (o) => ({ successors: fencingSuccessorsFor(bounds, o), invariants }),
    key: keyerFor(bounds),
    fastKey: () => packerFor(bounds) ?? (() => undefined),
    label: eventLabel,
    tlcLabels: true,
    fromTlc: toFencingState,
    toTla: fencingStateToTla,
    paramNames: FENCING_PARAM_NAMES,
    overridable: FENCING_OVERRIDABLE,
    withConstants: (c) => partsAt(fencingConstants(bounds, c)),
    withBounds: (b) => partsAt(fencingBounds(b)),
    boundsOf: (s) => ({ pods: (Object.keys(s.version) as Pod[]).sort(comparePods), maxGen: bounds.maxGen }),
    actions: EVENT_TYPES,
    parityTables: async () => (await import('./parity-tables.js')).fencingParityTables(),
    cfgValue: (name, value) => (name === 'Pods' && /^\d+$/.test(value) ? `{${podsOf(Number(value)).join(', ')}}` : value),
  };
}

/**
 * The bounds for TLC-style constants: `Pods` as a count (`4`) or a set (`{p1, p2}`), `MaxGen` as an
 * integer; any other name, or a value out of range, is a RangeError naming it.
 */
export function fencingConstants(base: FencingBounds, c: Readonly<Record<string, string>>): FencingBounds {
  let { pods, maxGen } = base;
  for (const [name, value] of Object.entries(c)) {
    const v = value.trim();
    if (name === 'Pods') {
      if (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 9) pods = podsOf(Number(v));
      else if (/^\{\s*p\d(\s*,\s*p\d)*\s*\}$/.test(v))
        pods = [
          ...new Set(
            v
              .slice(1, -1)
              .split(',')
              .map((x) => x.trim() as Pod),
          ),
        ].sort();
      else throw new RangeError(`Pods takes a count from 1 to 9 or a set {p1, p2, ...}, got "${value}"`);
    } else if (name === 'MaxGen') {
      if (!/^\d+$/.test(v) || Number(v) > 12) throw new RangeError(`MaxGen takes an integer from 0 to 12, got "${value}"`);
      maxGen = Number(v);
    } else throw new RangeError(`fencing has no constant ${name} (constants: Pods, MaxGen)`);
  }
  return { pods, maxGen };
}

/** Bounds as a trace records them (`{pods: ["p1", …], maxGen}`), checked; RangeError otherwise. */
export function fencingBounds(b: unknown): FencingBounds {
  const o = (typeof b === 'object' && b !== null ? b : {}) as { pods?: unknown; maxGen?: unknown };
  const pods = o.pods;
  if (!Array.isArray(pods) || pods.length === 0 || !pods.every((p) => typeof p === 'string' && /^p\d+$/.test(p)) || new Set(pods).size !== pods.length)
    throw new RangeError(`fencing bounds: pods must be distinct pod names p1..pN, got ${JSON.stringify(pods)}`);
  if (!Number.isInteger(o.maxGen) || (o.maxGen as number) < 0) throw new RangeError(`fencing bounds: maxGen must be a non-negative integer, got ${JSON.stringify(o.maxGen)}`);
  return { pods: [...(pods as Pod[])].sort(comparePods), maxGen: o.maxGen as number };
}

/** The fencing system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function fencingSystem(bounds: FencingBounds = DEFAULT_BOUNDS, overrides?: FencingOverrides, label?: string): FencingSystem {
  return twinSystem(partsAt(bounds), overrides, label);
}
