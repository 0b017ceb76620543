/**
 * PauseSnapshot.tla's invariants over PauseModelState. Inv_FailClosed reads the hot read `Answer(r)`
 * through the machine (its Read_FailClosed guard), so the invariants are built per machine.
 */
import { version, type PauseBounds, type PauseEvent, type PauseModelState, type Replica } from '../../src/systems/pause/model-state.js';
import type { PauseMachine } from './machine.js';
import { pauseAnswer } from './step.js';

export const PAUSE_INVARIANT_NAMES = ['TypeOK', 'Inv_NoRevert', 'Inv_OnlyCommitted', 'Inv_FailClosed', 'Inv_ServesFresh', 'Inv_ReadyAfterSnapshot', 'Inv_ReconcileFresh', 'Inv_NoMissedEvent'] as const;
export type PauseInvariantName = (typeof PAUSE_INVARIANT_NAMES)[number];

export type PauseInvariant = (s: PauseModelState) => boolean;

const within = (x: number, lo: number, hi: number): boolean => Number.isInteger(x) && x >= lo && x <= hi;

export function pauseInvariants(machine: PauseMachine, b: PauseBounds): Readonly<Record<PauseInvariantName, PauseInvariant>> {
  const rs = b.replicas;
  const committed = (s: PauseModelState, e: PauseEvent): boolean => e.version <= version(s) && (e.version === 0 ? e.paused === false : s.history[e.version - 1] === e.paused);
  const snapOf = (s: PauseModelState, r: Replica): PauseEvent | null => s.snap[r] ?? null;
  return {
    TypeOK: (s) =>
      s.history.length <= b.maxCalls &&
      within(s.calls, 0, b.maxCalls) &&
      s.pending.every((c) => rs.includes(c.by) && within(c.version, 0, b.maxCalls)) &&
      rs.every((r) => {
        const x = snapOf(s, r);
        return (
          s.chan[r]!.every((e) => within(e.version, 1, b.maxCalls)) &&
          s.dropped[r]!.every((v) => within(v, 1, b.maxCalls)) &&
          (x === null || within(x.version, 0, b.maxCalls)) &&
          within(s.age[r]!, 0, b.maxAge + 1) &&
          within(s.applied[r]!, 0, b.maxCalls) &&
          within(s.synced[r]!, 0, b.maxCalls)
        );
      }),
    Inv_NoRevert: (s) => rs.every((r) => snapOf(s, r) === null || snapOf(s, r)!.version === s.applied[r]),
    Inv_OnlyCommitted: (s) => rs.every((r) => (snapOf(s, r) === null || committed(s, snapOf(s, r)!)) && s.chan[r]!.every((e) => committed(s, e))),
    Inv_FailClosed: (s) => rs.every((r) => !(s.ready[r] && snapOf(s, r) !== null && s.age[r]! > b.maxAge) || !pauseAnswer(machine, s, r).served),
    Inv_ServesFresh: (s) =>
      rs.every((r) => {
        const x = snapOf(s, r);
        if (!s.ready[r] || x === null || s.age[r]! > b.maxAge) return true;
        const a = pauseAnswer(machine, s, r);
        return a.served && a.paused === x.paused;
      }),
    Inv_ReadyAfterSnapshot: (s) => rs.every((r) => !s.ready[r] || (snapOf(s, r) !== null && s.subscribed[r]!)),
    Inv_ReconcileFresh: (s) => rs.every((r) => snapOf(s, r) === null || snapOf(s, r)!.version >= s.synced[r]!),
    Inv_NoMissedEvent: (s) =>
      rs.every((r) => {
        const x = snapOf(s, r);
        if (!s.ready[r] || x === null) return true;
        for (let v = x.version + 1; v <= version(s); v++) if (!s.chan[r]!.some((e) => e.version === v) && !s.dropped[r]!.includes(v)) return false;
        return true;
      }),
  };
}
