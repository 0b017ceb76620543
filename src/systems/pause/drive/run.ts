/**
 * A model-driven run: `walks` seeded walks of the twin, each on fresh keys with fresh replicas, on
 * one DriveWorld. Stops at the first walk that breaks an invariant (a mutant run needs no more);
 * conformance failures are collected and do not stop it. Walk i of seed S is the same sequence of
 * model events in every run, so a failure's replay command reruns exactly that walk.
 */
import { pauseSystem } from '../system.js';
import type { PausePatch } from '../patch.js';
import type { Violation } from './checkers.js';
import { coverageOf, twinTotals, type Coverage } from './coverage.js';
import { FAULT_KINDS, type FaultKind } from './execute.js';
import { runWalk, type WalkResult, type WalkSettings } from './walk.js';
import type { DriveWorld } from './world.js';

export const DRIVE_DEFAULTS = { walks: 16, steps: 30, seed: 1, maxAgeMs: 25, failClosedSlackMs: 3, tickMarginMs: 20, deliveryWaitMs: 500 } as const;

export interface DriveOptions {
  readonly walks?: number;
  readonly steps?: number;
  readonly seed?: number;
  readonly patch?: PausePatch;
  /** Only this walk (a replay). */
  readonly walk?: number;
  readonly maxAgeMs?: number;
  readonly failClosedSlackMs?: number;
  /** A Tick sleeps maxAgeMs plus this. */
  readonly tickMarginMs?: number;
  readonly deliveryWaitMs?: number;
  /** Compute the twin's coverage figures (one exhaustive exploration, about a second, once per process). */
  readonly coverage?: boolean;
  readonly onWalk?: (w: WalkResult, done: number, total: number) => void;
}

export interface DriveFailure {
  readonly walk: number;
  readonly step: number;
  /** The walk's model events up to and including the failing step. */
  readonly labels: readonly string[];
}

export interface DriveResult {
  readonly seed: number;
  readonly steps: number;
  readonly walks: readonly WalkResult[];
  readonly violation: (DriveFailure & { readonly invariants: readonly Violation[] }) | null;
  readonly conformance: (DriveFailure & { readonly message: string }) | null;
  /** Walks that exercised each fault kind. */
  readonly faultWalks: Readonly<Record<FaultKind, number>>;
  readonly stepsRun: number;
  readonly timeSkipped: number;
  readonly coverage: Coverage | null;
  /** The walks' time (the coverage totals' exploration not included). */
  readonly durationMs: number;
}

let runs = 0;

export async function runPauseDrive(world: DriveWorld, o: DriveOptions = {}): Promise<DriveResult> {
  const t0 = performance.now();
  const twin = pauseSystem();
  const seed = o.seed ?? DRIVE_DEFAULTS.seed;
  const steps = o.steps ?? DRIVE_DEFAULTS.steps;
  const settings: WalkSettings = {
    seed,
    steps,
    ...(o.patch ? { patch: o.patch } : {}),
    maxAgeMs: o.maxAgeMs ?? DRIVE_DEFAULTS.maxAgeMs,
    failClosedSlackMs: o.failClosedSlackMs ?? DRIVE_DEFAULTS.failClosedSlackMs,
    deliveryWaitMs: o.deliveryWaitMs ?? DRIVE_DEFAULTS.deliveryWaitMs,
    tickMs: (o.maxAgeMs ?? DRIVE_DEFAULTS.maxAgeMs) + (o.tickMarginMs ?? DRIVE_DEFAULTS.tickMarginMs),
    tag: `${process.pid.toString(36)}${Date.now().toString(36)}${(runs++).toString(36)}`,
  };
  const indexes = o.walk !== undefined ? [o.walk] : Array.from({ length: o.walks ?? DRIVE_DEFAULTS.walks }, (_, i) => i);
  const walks: WalkResult[] = [];
  let violation: DriveResult['violation'] = null;
  let conformance: DriveResult['conformance'] = null;
  for (const i of indexes) {
    const w = await runWalk(world, twin, i, settings);
    walks.push(w);
    o.onWalk?.(w, walks.length, indexes.length);
    if (w.conformance && !conformance) conformance = { walk: i, step: w.conformance.step, labels: w.labels.slice(0, w.conformance.step), message: w.conformance.message };
    if (w.violation) {
      violation = { walk: i, step: w.violation.step, labels: w.labels.slice(0, w.violation.step), invariants: w.violation.invariants };
      break;
    }
  }
  const durationMs = performance.now() - t0;
  const faultWalks = Object.fromEntries(FAULT_KINDS.map((k) => [k, walks.filter((w) => w.faults.includes(k)).length])) as Record<FaultKind, number>;
  return {
    seed,
    steps,
    walks,
    violation,
    conformance,
    faultWalks,
    stepsRun: walks.reduce((n, w) => n + w.labels.length, 0),
    timeSkipped: walks.reduce((n, w) => n + w.timeSkipped, 0),
    coverage: o.coverage ? coverageOf(walks, twinTotals(twin)) : null,
    durationMs,
  };
}

/** The one-line command that reruns walk `walk` of this run (with the patch, if there was one). */
export function replayCommand(r: { topology: 'standalone' | 'cluster'; seed: number; steps: number; walk: number; patch?: string }): string {
  return `fencecheck pause --topology ${r.topology} --seed ${r.seed} --steps ${r.steps} --walk ${r.walk}${r.patch ? ` --patch ${r.patch}` : ''}`;
}
