/**
 * One walk: fresh keys, two real replicas (the twin's r1, r2) started and held at their first start
 * phase, a seeded random path through the twin (pauseSystem().successors), each event executed for
 * real (see `choose`), then the real system observed and checked — invariants first (a violation ends the walk),
 * then conformance to what the twin predicted. After the last step the walk waits a moment for
 * messages still on their way and checks once more.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PauseModelEvent } from '../../../../models/pause/index.js';
import type { ModelSystem, Successor } from '../../../seam/system.js';
import { PAUSE_BASE_BOUNDS, type PauseModelState } from '../model-state.js';
import { pauseKeys } from '../keys.js';
import { patched, type PausePatch } from '../patch.js';
import type { PauseState } from '../keys.js';
import type { StartPhase } from '../replica.js';
import { RealCheckers, type Violation } from './checkers.js';
import { compare } from './conformance.js';
import { execute, type FaultKind } from './execute.js';
import { Fleet } from './fleet.js';
import { observe } from './observe.js';
import { walkRng } from './rng.js';
import type { DriveWorld } from './world.js';
import type { ObservedStep, ObservedTrace } from '../../../seam/tracecheck/format.js';
import { pauseClaim, pauseObservation, type BegunCall, type DriverRecord } from '../tracecheck.js';
import type { Replica } from '../model-state.js';
import type { RealView } from './observe.js';

export interface WalkSettings {
  readonly seed: number;
  readonly steps: number;
  readonly patch?: PausePatch;
  /** The real age bound standing for MaxAge = 0: one Tick is more real time than this. */
  readonly maxAgeMs: number;
  readonly failClosedSlackMs: number;
  readonly deliveryWaitMs: number;
  /** A Tick: real time passing beyond maxAgeMs. */
  readonly tickMs: number;
  /** Makes the walk's keys unique to this run. */
  readonly tag: string;
}

export interface WalkResult {
  readonly index: number;
  /** The model events executed, as TLA+ action instances. */
  readonly labels: readonly string[];
  /** Canonical keys of the twin's states visited (Init first). */
  readonly states: readonly string[];
  /** `stateKey|label` of each transition taken. */
  readonly edges: readonly string[];
  /** The first step whose real state broke an invariant, with every invariant it broke. */
  readonly violation: { readonly step: number; readonly invariants: readonly Violation[] } | null;
  /** The first conformance failure (the real system did not do what the twin predicted). */
  readonly conformance: { readonly step: number; readonly message: string } | null;
  readonly mismatches: number;
  /** Answers not compared: real time, not a Tick, had aged the snapshot past the bound. */
  readonly timeSkipped: number;
  readonly faults: readonly FaultKind[];
  readonly durationMs: number;
  /**
   * What the real system did, for trace validation (src/systems/pause/tracecheck.ts): the view
   * before the first step and after every step (and once more after the walk settled), each step
   * claiming what really ran. Its prediction is the walk's first violation or conformance failure.
   */
  readonly observed: ObservedTrace;
}

type PauseTwin = ModelSystem<PauseModelState, PauseModelEvent>;

/** After the last step: how long messages still in flight get to arrive before the last check. */
const SETTLE_MS = 25;

/**
 * The walk's next transition: uniformly among the distinct labelled transitions (Tick's witnesses
 * are one) that lead to a state this walk has not visited yet; null when there is none — the walk
 * is over (what is left is stutter: reconciling an up-to-date snapshot, ageing a stale one).
 * Depends only on the walk's own history, so walk i replays alone.
 */
function choose(twin: PauseTwin, s: PauseModelState, seen: ReadonlySet<string>, rng: () => number): Successor<PauseModelState, PauseModelEvent> | null {
  const byLabel = new Map<string, Successor<PauseModelState, PauseModelEvent>>();
  for (const n of twin.successors(s)) if (!byLabel.has(twin.label(n.event)) && !seen.has(twin.key(n.state))) byLabel.set(twin.label(n.event), n);
  const fresh = [...byLabel.values()];
  return fresh.length === 0 ? null : fresh[Math.floor(rng() * fresh.length)]!;
}

export async function runWalk(world: DriveWorld, twin: PauseTwin, index: number, w: WalkSettings): Promise<WalkResult> {
  const t0 = performance.now();
  const rng = walkRng(w.seed, index);
  const replicas = PAUSE_BASE_BOUNDS.replicas;
  const keys = pauseKeys(world.topology.keyPrefix, `drive-${w.tag}-${index}`);
  let step = 0;
  const fleet = new Fleet({ topology: world.topology, keys, replicas, maxAgeMs: w.maxAgeMs, ...(w.patch ? { patch: w.patch } : {}), step: () => step });
  const checkers = new RealCheckers({ maxAgeMs: w.maxAgeMs, failClosedSlackMs: w.failClosedSlackMs });
  const { setPaused } = patched(w.patch);
  const labels: string[] = [];
  const edges: string[] = [];
  const faults = new Set<FaultKind>();
  let violation: WalkResult['violation'] = null;
  let conformance: WalkResult['conformance'] = null;
  let mismatches = 0;
  let timeSkipped = 0;
  let settledViolation = false;
  // A violation the trace cannot show: a replica served a snapshot stale in real time but not in the spec's Ticks.
  let invisible = false;
  let state = twin.initialStates()[0]!;
  const states = [twin.key(state)];
  const seen = new Set(states);
  // The driver's own record of its calls (never the twin's state): what the trace's lines observe beside the real view.
  let calls = 0;
  const begun: BegunCall[] = [];
  const record = (): DriverRecord => ({
    calls,
    begun: [...begun],
    phases: Object.fromEntries(fleet.all().map((m) => [m.name, [...m.phases]])) as Record<Replica, readonly StartPhase[]>,
    held: Object.fromEntries(fleet.all().map((m) => [m.name, m.held.map((h) => h.state)])) as Record<Replica, readonly PauseState[]>,
  });
  const lines: ObservedStep[] = [];
  const line = (view: RealView, claim: Pick<ObservedStep, 'action' | 'stutter'> | null, note: string) =>
    lines.push({ ...(claim ?? {}), ...pauseObservation(replicas, view, record(), staleness(view).all), note });
  // Real time by the driver's clock (when it saw each replica's last sync complete), and whether a Tick was made since.
  const syncedAt = new Map<Replica, number>();
  const tickedSince = new Map<Replica, boolean>();
  const staleness = (view: RealView) => {
    const holding = replicas.filter((r) => view.replicas[r]!.status.version !== null);
    const stale = (r: Replica) => syncedAt.has(r) && view.takenAt - syncedAt.get(r)! > w.maxAgeMs + w.failClosedSlackMs;
    const all = holding.length > 0 && holding.every(stale);
    // A served answer from a stale snapshot shows in the trace only where the spec's age is past the bound too.
    const visibleStaleServe = holding.some((r) => stale(r) && view.replicas[r]!.status.ready && view.replicas[r]!.answer !== 'unavailable' && (all || tickedSince.get(r) === true));
    return { all, visibleStaleServe };
  };
  fleet.startAll();
  try {
    line(await observe(world, fleet, keys), null, 'replicas started, each held before its first start phase');
    // When the step of each replica's last sync began (the driver's clock): its true age is at most the time since.
    const syncBegan = new Map<Replica, number>();
    for (step = 1; step <= w.steps; step++) {
      const began = performance.now();
      const pick = choose(twin, state, seen, rng);
      if (pick === null) break;
      const label = twin.label(pick.event);
      labels.push(label);
      edges.push(`${states.at(-1)!}|${label}`);
      const out = await execute(pick.event, state, label, {
        world,
        fleet,
        keys,
        setPaused,
        replicas,
        step,
        deliveryWaitMs: w.deliveryWaitMs,
        tickMs: w.tickMs,
      });
      const doneAt = performance.now();
      for (const f of out.faults) faults.add(f);
      state = pick.state;
      states.push(twin.key(state));
      seen.add(states.at(-1)!);
      const ev = pick.event;
      if (ev.type === 'BeginSetPaused') {
        calls += 1;
        begun.push({ by: ev.r, paused: ev.p });
      } else if (ev.type === 'CommitSetPaused' || ev.type === 'FailSetPaused') {
        // A call is its caller and value (the spec's pending is a set): two alike begun are one, written once.
        for (let i = begun.length - 1; i >= 0; i--) if (begun[i]!.by === ev.c.by && begun[i]!.paused === ev.c.paused) begun.splice(i, 1);
      }
      const view = await observe(world, fleet, keys);
      if (out.synced) {
        syncedAt.set(out.synced, doneAt);
        syncBegan.set(out.synced, began);
        tickedSince.set(out.synced, false);
      }
      if (ev.type === 'Tick') for (const r of replicas) if (view.replicas[r]!.status.version !== null) tickedSince.set(r, true);
      line(view, pauseClaim(ev, out), `${label}${out.notes.length > 0 ? `: ${out.notes.join('; ')}` : ''}`);
      if (out.synced) checkers.syncedAt(out.synced, view, doneAt);
      const broken = checkers.check(view);
      if (broken.length > 0) {
        violation = { step, invariants: broken };
        invisible = broken.every((b) => b.invariant === 'Inv_FailClosed') && !staleness(view).visibleStaleServe;
        break;
      }
      // Up to when the answers were read (readAt), not when the view began: an early fail-closed is
      // excused by the most time that can have passed, the served-too-long check (checkers.ts) by the least.
      const c = compare(state, view, PAUSE_BASE_BOUNDS.maxAge, w.maxAgeMs, (r) => (syncBegan.has(r) ? view.readAt - syncBegan.get(r)! : null));
      timeSkipped += c.timeSkipped;
      const notes = [...out.notes, ...c.mismatches];
      mismatches += notes.length;
      if (notes.length > 0 && conformance === null) conformance = { step, message: notes.join('; ') };
    }
    if (violation === null) {
      await sleep(SETTLE_MS);
      const view = await observe(world, fleet, keys);
      line(view, { action: [], stutter: true }, `settled (${SETTLE_MS} ms after the last step)`);
      const broken = checkers.check(view);
      if (broken.length > 0) violation = { step: labels.length, invariants: broken };
      if (broken.length > 0) settledViolation = true;
      if (broken.length > 0) invisible = broken.every((b) => b.invariant === 'Inv_FailClosed') && !staleness(view).visibleStaleServe;
    }
  } finally {
    await fleet.close();
    await world.writer.del(keys.paused, keys.version);
  }
  // The walk's own prediction of where TLC rejects its trace: its first violation or conformance failure (a settled-state violation: the settle line).
  const firsts = [violation && !invisible ? (settledViolation ? lines.length - 1 : violation.step) : null, conformance?.step ?? null].filter((x): x is number => x !== null);
  const observed: ObservedTrace = {
    system: 'pause',
    source: 'walk',
    id: `walk ${index} seed ${w.seed}`,
    predicted: {
      step: firsts.length > 0 ? Math.min(...firsts) : null,
      by: `the walk's checkers and its twin (first violation or conformance failure)${invisible ? "; its Inv_FailClosed violation is real-time staleness of one snapshot the spec's Ticks do not show" : ''}`,
    },
    steps: lines,
  };
  return { index, labels, states, edges, violation, conformance, mismatches, timeSkipped, faults: [...faults], durationMs: performance.now() - t0, observed };
}
