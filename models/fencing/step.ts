/**
 * One step of the machine over plain FencingState values: what the property runs (fast-check
 * commands) and the exploration use. Everything goes through the machine's own transition function;
 * `applyEffect` alone bypasses the guards, to follow a real system a mutated gate let through.
 */
import { inertScope as sharedInertScope } from '../../src/seam/xstate-scope.js';
import type { FencingBounds, FencingState } from '../../src/systems/fencing/state.js';
import { allEvents, type FencingEvent } from './events.js';
import { fencingMachine, implementationsFor, type FencingMachine, type FencingOverrides } from './machine.js';
import { EFFECTS, EFFECTS_OF } from './rules.js';

const NO_OVERRIDES: FencingOverrides = {};
const machines = new WeakMap<FencingOverrides, Map<string, FencingMachine>>();

/** The machine for these constants (MaxGen) with these overrides applied via provide(); cached. */
export function machineFor(bounds: FencingBounds, overrides: FencingOverrides = NO_OVERRIDES): FencingMachine {
  let byBounds = machines.get(overrides);
  if (!byBounds) machines.set(overrides, (byBounds = new Map()));
  const key = `${bounds.pods.join(',')}|${bounds.maxGen}`;
  let m = byBounds.get(key);
  if (!m) byBounds.set(key, (m = fencingMachine.provide(implementationsFor(bounds, overrides))));
  return m;
}

export type FencingSnapshot = ReturnType<FencingMachine['resolveState']>;

/** The machine snapshot whose context is `s` and whose regions sit at `s.mode` / `s.target`. */
export function snapshotOf(machine: FencingMachine, s: FencingState): FencingSnapshot {
  return machine.resolveState({ value: { mode: s.mode, target: s.target }, context: s });
}

/** Is `ev` enabled in this snapshot (some transition's guard holds)? A stuttering step counts as enabled. */
export function isEnabled(snapshot: FencingSnapshot, ev: FencingEvent): boolean {
  return snapshot.can(ev);
}

/** The inert actor scope of every step (src/seam/xstate-scope.ts): the machine's effects are all `assign`s. */
export const inertScope = sharedInertScope<Parameters<FencingMachine['transition']>[2]>('fencing-model');

/** The successor of `s` under `ev`, or null when no transition's guard admits it. */
export function nextState(s: FencingState, ev: FencingEvent, bounds: FencingBounds, overrides?: FencingOverrides): FencingState | null {
  const machine = machineFor(bounds, overrides);
  const snap = snapshotOf(machine, s);
  if (!isEnabled(snap, ev)) return null;
  return machine.transition(snap, ev, inertScope).context;
}

/** Every event (with every pod) enabled in `s`, in allEvents order. */
export function enabledEvents(s: FencingState, bounds: FencingBounds, overrides?: FencingOverrides): FencingEvent[] {
  const snap = snapshotOf(machineFor(bounds, overrides), s);
  return allEvents(bounds).filter((ev) => isEnabled(snap, ev));
}

/**
 * The effect of `ev` on `s` with no guard at all (the named effects, overrides included). Throws a
 * RangeError where the effect itself is undefined (AdvanceTarget from C, RollbackPhase from O).
 * `bounds` is accepted for symmetry with nextState; no effect depends on the constants.
 */
export function applyEffect(s: FencingState, ev: FencingEvent, _bounds: FencingBounds, overrides?: FencingOverrides): FencingState {
  return EFFECTS_OF[ev.type].reduce((acc, name) => (overrides?.actions?.[name] ?? EFFECTS[name])(acc, ev), s);
}
