// The fencing model's public API (pinned in the helper preamble; other layers import only this).
export { allEvents, eventLabel, eventParams, isPodEvent, EVENT_TYPES, POD_EVENT_TYPES, GLOBAL_EVENT_TYPES } from './events.js';
export type { FencingEvent, FencingEventType, PodEvent, GlobalEvent } from './events.js';
export { GUARD_NAMES, SPEC_GUARD_NAMES, EFFECT_NAMES, GUARDS, EFFECTS, EFFECTS_OF, NO_LEASE, issueNew, issueOld, podOf } from './rules.js';
export type { GuardName, EffectName, SpecGuard, SpecEffect, GuardEnv } from './rules.js';
export { fencingMachine, implementationsFor } from './machine.js';
export type { FencingMachine, FencingOverrides } from './machine.js';
export { nextState, applyEffect, enabledEvents, machineFor, snapshotOf, isEnabled, inertScope } from './step.js';
export type { FencingSnapshot } from './step.js';
