import type { FencingBounds, Pod } from '../../src/systems/fencing/state.js';

/**
 * One event per TLA+ action (tla/fencing/RedisClusterFencingMigration.tla). Actions quantified over a pod
 * (`\E p \in Pods : AcquireB(p)`) carry it as `p`; the others take no parameter.
 */
export const POD_EVENT_TYPES = ['AcquireO', 'AcquireA', 'AcquireB', 'AcquireC', 'MigrateB', 'UpgradePod', 'DowngradePod'] as const;
export const GLOBAL_EVENT_TYPES = ['ExpireOld', 'ExpireNew', 'AdvanceTarget', 'Backfill', 'RollbackPhase', 'ReverseMerge', 'EnterCompatible', 'RevertDisabled', 'Enable'] as const;

export type PodEventType = (typeof POD_EVENT_TYPES)[number];
export type GlobalEventType = (typeof GLOBAL_EVENT_TYPES)[number];
export type FencingEventType = PodEventType | GlobalEventType;

export type PodEvent = { readonly type: PodEventType; readonly p: Pod };
export type GlobalEvent = { readonly type: GlobalEventType };
export type FencingEvent = PodEvent | GlobalEvent;

export const EVENT_TYPES: readonly FencingEventType[] = [...POD_EVENT_TYPES, ...GLOBAL_EVENT_TYPES];

export function isPodEvent(ev: FencingEvent): ev is PodEvent {
  return (POD_EVENT_TYPES as readonly string[]).includes(ev.type);
}

/** Every event with every pod: the alphabet the exploration offers in each state. */
export function allEvents(bounds: FencingBounds): FencingEvent[] {
  const perPod = POD_EVENT_TYPES.flatMap((type) => bounds.pods.map((p): FencingEvent => ({ type, p })));
  return [...perPod, ...GLOBAL_EVENT_TYPES.map((type): FencingEvent => ({ type }))];
}

/** `AcquireB(p1)` / `Backfill`: how a step is printed, matching the TLA+ action instance. */
export function eventLabel(ev: FencingEvent): string {
  return isPodEvent(ev) ? `${ev.type}(${ev.p})` : ev.type;
}

/** The trace-format params of an event (`{ p: 'p1' }` or `{}`). */
export function eventParams(ev: FencingEvent): Record<string, string> {
  return isPodEvent(ev) ? { p: ev.p } : {};
}
