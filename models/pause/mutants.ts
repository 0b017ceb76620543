/**
 * P1–P6 of tla/pause/mutants/: each drops one mutation point, here one guard override handed to
 * `machine.provide()` — the spec's `Kept(name) = FALSE` branch of that guard.
 */
import type { PauseOverrides } from './machine.js';
import type { PauseInvariantName } from './invariants.js';
import type { PauseMutationPoint } from './rules.js';

export interface PauseMutant {
  readonly id: string;
  readonly target: PauseMutationPoint;
  /** The invariant tla/pause/mutants/<id>.cfg checks (with TypeOK). */
  readonly expected: PauseInvariantName;
  readonly overrides: PauseOverrides;
}

export const PAUSE_MUTANTS: readonly PauseMutant[] = [
  { id: 'P1', target: 'Deliver_VersionCheck', expected: 'Inv_NoRevert', overrides: { guards: { Deliver_VersionCheck: () => true } } },
  { id: 'P2', target: 'SetPaused_PublishAfterWrite', expected: 'Inv_OnlyCommitted', overrides: { guards: { SetPaused_PublishAfterWrite: () => false } } },
  { id: 'P3', target: 'Reconcile_ReadsValkey', expected: 'Inv_ReconcileFresh', overrides: { guards: { Reconcile_ReadsValkey: () => false } } },
  { id: 'P4', target: 'Read_FailClosed', expected: 'Inv_FailClosed', overrides: { guards: { Read_FailClosed: () => false } } },
  { id: 'P5', target: 'Ready_AfterSnapshot', expected: 'Inv_ReadyAfterSnapshot', overrides: { guards: { Ready_AfterSnapshot: () => true } } },
  {
    id: 'P6',
    target: 'Subscribe_BeforeLoad',
    expected: 'Inv_NoMissedEvent',
    // Subscribe after the load; Load no longer waits for the subscription.
    overrides: { guards: { Subscribe_BeforeLoad: (s, ev) => (ev.type === 'Subscribe' ? s.snap[ev.r] !== null : true) } },
  },
];
