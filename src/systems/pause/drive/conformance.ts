/**
 * Where the twin is deterministic, the real system must do what it predicted: each replica's
 * readiness and snapshot, Valkey's version and value, the hot read's answer, and the step's own
 * predictions (the start phase that ran, the messages that arrived, a failed write that wrote
 * nothing). A difference is a conformance failure, reported as such: not an invariant. The one
 * prediction that depends on time is skipped, and counted: a fresh model snapshot that the real
 * replica already fails closed on when, by the driver's clock, as much as half the bound may have
 * passed since its last sync (from when the step that synced began to when the answer was read: the
 * true age is at most that; measured to the view's start instead, a stall after it — the observation
 * waits out a timers phase — fired a timer the driver had not counted, under load in verify).
 * Never the replica's own report of its age: a replica that counts its age wrong would excuse itself.
 */
import { pausedNow, version, type PauseModelState, type Replica } from '../model-state.js';
import type { RealView } from './observe.js';

export interface ConformanceResult {
  readonly mismatches: string[];
  /** Answers not compared because real time, not a Tick, aged the snapshot. */
  readonly timeSkipped: number;
}

const showSnap = (x: { paused: boolean; version: number } | null): string => (x === null ? 'no snapshot' : `${x.paused ? 'paused' : 'running'}@v${x.version}`);

/** `driverAge(r)`: the most real time that can have passed since r's last sync, up to the answer's read, by the driver's record (null: no sync seen). */
export function compare(model: PauseModelState, view: RealView, maxAge: number, maxAgeMs: number, driverAge: (r: Replica) => number | null): ConformanceResult {
  const mismatches: string[] = [];
  let timeSkipped = 0;
  if (view.valkey.version !== version(model) || view.valkey.paused !== pausedNow(model))
    mismatches.push(`Valkey holds ${showSnap(view.valkey)}, the twin ${showSnap({ paused: pausedNow(model), version: version(model) })}`);
  for (const [r, x] of Object.entries(view.replicas) as [Replica, RealView['replicas'][Replica]][]) {
    const want = model.snap[r] ?? null;
    const got = x.status.version === null ? null : { paused: x.status.paused!, version: x.status.version };
    if (showSnap(want) !== showSnap(got)) mismatches.push(`${r} holds ${showSnap(got)}, the twin ${showSnap(want)}`);
    if (model.ready[r] !== x.status.ready) mismatches.push(`${r} reports ready=${x.status.ready}, the twin ${model.ready[r]}`);
    if (!model.ready[r] || want === null || got === null) continue;
    const served = model.age[r]! <= maxAge;
    const expected = served ? (want.paused ? 'paused' : 'running') : 'unavailable';
    if (x.answer === expected) continue;
    // The flag's timer counts from the event loop's cached clock, which lags under load: a snapshot
    // past half the bound may already be flagged stale. Failing closed early is time's doing.
    const age = driverAge(r);
    if (served && x.answer === 'unavailable' && age !== null && age >= maxAgeMs / 2) timeSkipped++;
    else mismatches.push(`${r} answers '${x.answer}' from a snapshot at most ${age === null ? '?' : Math.round(age)} ms old by the driver's clock, the twin '${expected}'`);
  }
  return { mismatches, timeSkipped };
}
