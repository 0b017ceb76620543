/**
 * Replays a trace against real Valkey: each step's event goes through the fencing step driver (the
 * scripts of the pod's version, the deployment gate for fleet steps), the real keyspace is observed
 * after each step and laid beside the trace's model state, and the replay stops at the first step
 * where an invariant breaks on the real keyspace. A trace made under a mutant replays with that
 * mutant's implementation patch (the manifest's `impl` entry) applied. A trace that crosses the mode
 * door replays with the cluster the door carries the keyspace onto.
 */
import type { FencingEvent } from '../../models/fencing/index.js';
import type { DoorBackend } from '../systems/fencing/door.js';
import { createFencingDriver, type ExpiryMode, type FencingDriver, type StepOutcome, type StepStatus } from '../systems/fencing/driver.js';
import type { SessionRef } from '../systems/fencing/keys.js';
import type { ValkeyClient } from '../valkey/index.js';
import { brokenInvariants } from '../systems/fencing/invariants.js';
import type { ImplPatch } from '../systems/fencing/patch.js';
import type { FencingScripts } from '../systems/fencing/scripts.js';
import type { FencingState } from '../systems/fencing/state.js';
import { loadPatch } from '../systems/fencing/impl-runner.js';
import type { MutantManifest } from '../core/manifest.js';
import type { Topology } from '../valkey/index.js';
import type { FencingTrace, TraceStep } from '../core/trace-format.js';
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
  /** T3 seen on the wire after the door: a CROSSSLOT rejection, or an old key among a script's KEYS. */
  readonly slotBreaches: readonly string[];
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

/** The impl patch (default export of mutants/fencing/impl/Mx.ts) the manifest names for `mutant`, loaded by the impl layer's loader. */
export async function loadImplPatch(manifest: MutantManifest, mutant: string): Promise<{ path: string; patch: ImplPatch }> {
  const entry = manifest.mutants.find((m) => m.id === mutant);
  if (!entry) throw new ReplayUnavailableError(`mutant ${mutant} is not in mutants/manifest.json`);
  const path = entry.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${mutant} has no implementation-layer patch in the manifest`);
  try {
    return { path, patch: await loadPatch(entry) };
  } catch (err) {
    throw new ReplayUnavailableError(`cannot load ${path}: ${(err as Error).message}`);
  }
}

/** The trace step as the model's event (the step's action with its pod). */
export function stepEvent(step: TraceStep): FencingEvent {
  const p = stepPod(step);
  return (p ? { type: step.action, p } : { type: step.action }) as FencingEvent;
}

/** Steps that carry the keyspace across the mode door: a replay with one needs the cluster too. */
export const DOOR_STEPS: readonly string[] = ['EnterCompatible', 'RevertDisabled', 'Enable'];

export function needsDoor(trace: FencingTrace): boolean {
  return trace.steps.some((s) => DOOR_STEPS.includes(s.action));
}

export interface ReplayOptions {
  /** The standalone node (mode disabled). */
  readonly topology: Topology;
  /** The cluster the keyspace is carried onto at EnterCompatible (without one, door steps are skipped). */
  readonly door?: DoorBackend;
  /** Scripts already loaded with the patch. */
  readonly scripts?: FencingScripts;
  readonly patch?: { path: string; patch: ImplPatch };
  readonly onStep?: (step: ReplayStep) => void;
  /** A conformance-tour trace replays on the tour's topologies: its session, connections and TTL expiry. */
  readonly session?: SessionRef;
  readonly connections?: { readonly standalone: ValkeyClient; readonly current: ValkeyClient };
  readonly expiry?: ExpiryMode;
}

/**
 * One step on the driver. A step with a remembered generation (`gen`, from the conformance tour) is
 * the pod's renew or release with that memory; a tour step named after an attempt (`Acquire`,
 * `Upgrade`, ...) is that attempt; anything else is the model event.
 */
async function performStep(driver: FencingDriver, step: TraceStep, prev: FencingState): Promise<{ status: StepStatus; note: string }> {
  const p = stepPod(step);
  const gen = step.params.gen;
  const byRenew = step.action === 'MigrateB' || step.action === 'Renew';
  const byRelease = step.action === 'Release' || ((step.action === 'ExpireOld' || step.action === 'ExpireNew') && p !== '');
  if (typeof gen === 'number' && p !== '' && (byRenew || byRelease)) {
    driver.remember(p, gen);
    if (byRenew) {
      const r = await driver.renew(p);
      return { status: r?.kind === 'migrated' ? 'applied' : 'refused', note: `${p} renews ${gen}: ${r?.kind ?? 'nothing remembered'}` };
    }
    const r = await driver.release(p);
    return { status: r?.kind === 'released' ? 'applied' : 'refused', note: `${p} releases ${gen}: ${r?.kind ?? 'nothing remembered'}${r?.kind === 'released' ? ` ${r.where}` : ''}` };
  }
  const attempt: Record<string, string> = { Acquire: `Acquire${p ? prev.version[p] : ''}`, Upgrade: 'UpgradePod', Downgrade: 'DowngradePod', Expire: step.params.which === 'new' ? 'ExpireNew' : 'ExpireOld' };
  const action = attempt[step.action] ?? step.action;
  const outcome: StepOutcome = await driver.apply(stepEvent({ ...step, action }), prev);
  return { status: outcome.status, note: outcome.note };
}

export async function replayTrace(trace: FencingTrace, opts: ReplayOptions): Promise<ReplayResult> {
  const driver = createFencingDriver(opts.topology, {
    bounds: trace.bounds,
    ...(opts.patch ? { patch: opts.patch.patch } : {}),
    ...(opts.door ? { door: opts.door } : {}),
    ...(opts.scripts ? { scripts: opts.scripts } : {}),
    ...(opts.session ? { session: opts.session } : {}),
    ...(opts.connections ? { connections: opts.connections } : {}),
    ...(opts.expiry ? { expiry: opts.expiry } : {}),
  });
  const columns = stateColumns(trace.bounds.pods);
  const steps: ReplayStep[] = [];
  let stoppedAt: number | null = null;
  let prevBrokenReal: string[] = [];
  try {
    for (const [index, step] of trace.steps.entries()) {
      let status: ReplayStep['status'] = 'init';
      let note = 'initial state';
      if (index > 0) {
        ({ status, note } = await performStep(driver, step, trace.steps[index - 1]!.state));
      }
      const real = await driver.observe();
      const slotBreaches = driver.takeSlotBreaches().map((b) => `${b.script}: ${b.what}`);
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
        slotBreaches,
      };
      steps.push(row);
      opts.onStep?.(row);
      if (brokenReal.some((b) => !prevBrokenReal.includes(b)) || slotBreaches.length > 0) {
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
