/**
 * Replays a trace against real Valkey: each step's event goes through the fencing step driver (the
 * scripts of the pod's version, the deployment gate for fleet steps), the real keyspace is observed
 * after each step and laid beside the trace's model state, and the replay stops at the first step
 * where an invariant breaks on the real keyspace. A trace made under a mutant replays with that
 * mutant's implementation patch (the manifest's `impl` entry) applied.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FencingEvent } from '../../models/fencing/index.js';
import { createFencingDriver, type StepStatus } from '../fencing/driver.js';
import { brokenInvariants } from '../fencing/invariants.js';
import type { ImplPatch } from '../fencing/patch.js';
import type { FencingState } from '../fencing/state.js';
import type { MutantManifest } from '../mutants/manifest.js';
import { projectRoot } from '../project-root.js';
import type { Topology } from '../valkey/index.js';
import type { FencingTrace, TraceStep } from './format.js';
import { stateCells, stateColumns, stepPod } from './steps.js';

export const REPLAY_SCHEMA = 'fencecheck.replay/1' as const;

export interface ReplayStep {
  readonly index: number;
  readonly action: string;
  readonly params: Readonly<Record<string, string | number>>;
  /** What the real system did with the step ('init' for the first state). */
  readonly status: StepStatus | 'init';
  readonly note: string;
  readonly model: FencingState;
  readonly real: FencingState;
  /** Variables whose real value differs from the model's. */
  readonly mismatches: readonly string[];
  readonly brokenModel: readonly string[];
  readonly brokenReal: readonly string[];
}

export interface ReplayResult {
  readonly schema: typeof REPLAY_SCHEMA;
  readonly mutant?: string;
  /** The impl patch module applied, when the trace names a mutant. */
  readonly patch?: string;
  readonly topology: string;
  readonly steps: readonly ReplayStep[];
  /** The step at which an invariant broke on the real keyspace (the replay stopped there), or null. */
  readonly stoppedAt: number | null;
  readonly brokenReal: readonly string[];
  /** The first step whose model state breaks an invariant (the trace's prediction), or null. */
  readonly predictedAt: number | null;
}

/** The manifest names no impl patch for this mutant, or its module cannot be loaded. */
export class ReplayUnavailableError extends Error {
  override readonly name = 'ReplayUnavailableError';
}

/** Loads the impl patch (default export of mutants/impl/Mx.ts) the manifest names for `mutant`. */
export async function loadImplPatch(manifest: MutantManifest, mutant: string): Promise<{ path: string; patch: ImplPatch }> {
  const entry = manifest.mutants.find((m) => m.id === mutant);
  if (!entry) throw new ReplayUnavailableError(`mutant ${mutant} is not in mutants/manifest.json`);
  const path = entry.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${mutant} has no implementation-layer patch in the manifest`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(projectRoot, path)).href)) as { default?: unknown };
  } catch (err) {
    throw new ReplayUnavailableError(`cannot load ${path}: ${(err as Error).message}`);
  }
  const patch = mod.default;
  if (typeof patch !== 'object' || patch === null) throw new ReplayUnavailableError(`${path} must default-export an ImplPatch`);
  return { path, patch: patch as ImplPatch };
}

/** The trace step as the model's event (the step's action with its pod). */
export function stepEvent(step: TraceStep): FencingEvent {
  const p = stepPod(step);
  return (p ? { type: step.action, p } : { type: step.action }) as FencingEvent;
}

export interface ReplayOptions {
  readonly topology: Topology;
  readonly patch?: { path: string; patch: ImplPatch };
  readonly onStep?: (step: ReplayStep) => void;
}

export async function replayTrace(trace: FencingTrace, opts: ReplayOptions): Promise<ReplayResult> {
  const driver = createFencingDriver(opts.topology, { bounds: trace.bounds, ...(opts.patch ? { patch: opts.patch.patch } : {}) });
  const columns = stateColumns(trace.bounds.pods);
  const steps: ReplayStep[] = [];
  let stoppedAt: number | null = null;
  let prevBrokenReal: string[] = [];
  try {
    for (const [index, step] of trace.steps.entries()) {
      let status: ReplayStep['status'] = 'init';
      let note = 'initial state';
      if (index > 0) {
        const outcome = await driver.apply(stepEvent(step), trace.steps[index - 1]!.state);
        status = outcome.status;
        note = outcome.note;
      }
      const real = await driver.observe();
      const modelCells = stateCells(step.state);
      const realCells = stateCells(real);
      const brokenReal = brokenInvariants(real, trace.bounds);
      const row: ReplayStep = {
        index,
        action: step.action,
        params: step.params,
        status,
        note,
        model: step.state,
        real,
        mismatches: columns.filter((c) => modelCells[c] !== realCells[c]),
        brokenModel: brokenInvariants(step.state, trace.bounds),
        brokenReal,
      };
      steps.push(row);
      opts.onStep?.(row);
      if (brokenReal.some((b) => !prevBrokenReal.includes(b))) {
        stoppedAt = index;
        break;
      }
      prevBrokenReal = brokenReal;
    }
  } finally {
    await driver.close();
  }
  const predictedAt = trace.steps.findIndex((s) => brokenInvariants(s.state, trace.bounds).length > 0);
  return {
    schema: REPLAY_SCHEMA,
    ...(trace.mutant !== undefined ? { mutant: trace.mutant } : {}),
    ...(opts.patch ? { patch: opts.patch.path } : {}),
    topology: opts.topology.spec.kind,
    steps,
    stoppedAt,
    brokenReal: stoppedAt === null ? [] : steps[stoppedAt]!.brokenReal,
    predictedAt: predictedAt < 0 ? null : predictedAt,
  };
}
