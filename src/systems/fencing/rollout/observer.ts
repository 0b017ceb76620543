/**
 * What a rehearsal lets a watcher see, as it happens: the pods' lives, the gate's answers, the
 * leases the pods hold (with their generations) and the deploy record's target and mode. The
 * rehearsal only calls these; it never reads anything back, so a watcher (the observed trace, a
 * test) cannot change the run. Every event carries `at`, the controller's wall clock in ms.
 */
import type { GateStep } from '../gate/rules.js';
import type { Mode, Phase } from '../state.js';
import type { Refusal } from './figures.js';

export interface PodEvent {
  readonly at: number;
  readonly pod: string;
  readonly replicaSet: string;
  readonly phase: Phase;
}

/** A lane is one of a pod's two renewers (the reliable and the huddle tunnel). */
export interface LeaseEvent {
  readonly at: number;
  readonly pod: string;
  readonly phase: Phase;
  readonly lane: string;
  /** The session's owner: the lane that acquired it, kept across a hand-over. */
  readonly owner: string;
  /** `<community>:<session>` */
  readonly session: string;
  readonly gen: number;
}

export interface StepEvent {
  readonly at: number;
  readonly step: GateStep;
  /** The deploy record when the gate was asked (`stepAllowed`: after the step was applied). */
  readonly target: Phase;
  readonly mode: Mode;
  readonly backfilled: boolean;
}

export interface RehearsalObserver {
  podStarted?(e: PodEvent): void;
  /** A graceful stop (SIGTERM): its leases are handed over, not released. */
  podStopped?(e: PodEvent): void;
  /** `kill -9` (chaos): its leases stay on the keyspace until they expire. */
  podKilled?(e: PodEvent): void;
  stepAsked?(e: StepEvent): void;
  stepAllowed?(e: StepEvent): void;
  stepRefused?(e: StepEvent & { readonly refusedBy: readonly Refusal[] }): void;
  leaseAcquired?(e: LeaseEvent): void;
  /** `migrated`: a B pod's renew moved the lease from the old key to the new one. */
  leaseRenewed?(e: LeaseEvent & { readonly migrated: boolean }): void;
  leaseReleased?(e: LeaseEvent): void;
  /** A renew that found the lease gone or taken (`reply`: the script's answer). */
  leaseLost?(e: LeaseEvent & { readonly reply: string }): void;
  /** The deploy record's target phase or mode changed (a granted step). */
  phaseChanged?(e: { readonly at: number; readonly target: Phase; readonly mode: Mode; readonly backfilled: boolean; readonly by: GateStep }): void;
  /** The operator's backfill ran over every session of the pool. */
  backfillRan?(e: { readonly at: number }): void;
  /** A chaos event, as the figures name it. */
  chaos?(e: { readonly at: number; readonly what: string }): void;
}

/** One observer that calls `a`'s callback, then `b`'s, for every event either watches. */
export function bothObservers(a: RehearsalObserver, b: RehearsalObserver): RehearsalObserver {
  const out: Record<string, (e: unknown) => void> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const fa = (a as Record<string, ((e: unknown) => void) | undefined>)[k];
    const fb = (b as Record<string, ((e: unknown) => void) | undefined>)[k];
    out[k] = (e) => {
      fa?.call(a, e);
      fb?.call(b, e);
    };
  }
  return out as RehearsalObserver;
}
