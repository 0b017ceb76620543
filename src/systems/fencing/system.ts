/**
 * Fencing as a ModelSystem (src/systems/): the XState twin of tla/fencing/RedisClusterFencingMigration.tla
 * (models/fencing/) stepped by its own `can` and `transition`, the canonical key, labels and TLC
 * mapping fencing's parity already uses, and the names a model patch may replace (M1–M9 are the
 * manifest's: mutants/fencing/model/Mx.ts, applied through src/seam/model-patch.ts). The fast
 * exploration (src/systems/fencing/model/bfs.ts) stays the fencing CLI's path; this one is what the generic layers
 * see, and test/systems/fencing-seam.test.ts holds the two to the same figures.
 */
import {
  EFFECT_NAMES, SPEC_GUARD_NAMES, allEvents, eventLabel, inertScope, machineFor, snapshotOf, type FencingEvent, type FencingOverrides,
} from '../../../models/fencing/index.js';
import type { ModelSystem, Successor } from '../../seam/system.js';
import { twinSystem } from '../../seam/twin.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from './tlc/config.js';
import { FENCING_VARIABLES, toFencingState } from './tlc/state.js';
import { INVARIANTS, INVARIANT_NAMES } from './invariants.js';
import { DEFAULT_BOUNDS, canonicalKey, initialState, type FencingBounds, type FencingState } from './state.js';

export type FencingSystem = ModelSystem<FencingState, FencingEvent>;

/**
 * Every enabled action instance of `s`, in allEvents order: the machine's own `can` chooses, its own
 * `transition` steps (no compiled selection, unlike src/systems/fencing/model/enabled.ts).
 */
export function fencingSuccessors(bounds: FencingBounds, overrides: FencingOverrides | undefined, s: FencingState): Successor<FencingState, FencingEvent>[] {
  const machine = machineFor(bounds, overrides);
  const snap = snapshotOf(machine, s);
  const out: Successor<FencingState, FencingEvent>[] = [];
  for (const event of allEvents(bounds)) {
    if (!snap.can(event)) continue;
    const next = machine.transition(snap, event, inertScope);
    // xstate hands back the very snapshot when it selects no transition: `can` and `transition` disagreed.
    if (next === snap) throw new Error(`fencing machine: can() admits ${eventLabel(event)} where transition() selects nothing`);
    out.push({ event, state: next.context });
  }
  return out;
}

/** Per part of a model patch (mutants/fencing/model/Mx.ts), the names the fencing machine lets it replace (as layers/model.ts checks them). */
export const FENCING_OVERRIDABLE = { guards: SPEC_GUARD_NAMES, actions: EFFECT_NAMES } as const;

/** The fencing system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function fencingSystem(bounds: FencingBounds = DEFAULT_BOUNDS, overrides?: FencingOverrides, label?: string): FencingSystem {
  // The invariants read the constants (TypeOK) but never the overrides: one table for every patch.
  const invariants = Object.fromEntries(INVARIANT_NAMES.map((n) => [n, (s: FencingState) => INVARIANTS[n](s, bounds)]));
  return twinSystem(
    {
      name: 'fencing',
      spec: SPEC_PATH,
      config: BASE_CONFIG_PATH,
      variables: FENCING_VARIABLES,
      bounds,
      initial: () => initialState(bounds),
      machine: (o) => ({ successors: (s) => fencingSuccessors(bounds, o, s), invariants }),
      key: canonicalKey,
      label: eventLabel,
      fromTlc: toFencingState,
      overridable: FENCING_OVERRIDABLE,
    },
    overrides,
    label,
  );
}
