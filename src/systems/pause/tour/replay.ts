/**
 * The pause snapshot's replay (src/seam/replay.ts): a trace's steps run as the tour's attempts on a
 * fresh tour instance (real replicas and SetPaused on an owned Valkey, the driver's clock), from
 * Init; the real state is read back as the spec's variables after each step. The spec's Answer(r)
 * is no variable, so a replica that serves a value past the age bound (by the driver's clock) is
 * reported as a breach of Inv_FailClosed, one that does not serve its snapshot's value within the
 * bound as a breach of Inv_ServesFresh; either stops the replay. A trace made under a mutant runs
 * with that mutant's implementation patch.
 */
import { itfToTla, tlaToItf, type ItfValue } from '../../../core/itf-value.js';
import type { MutantEntry } from '../../../core/manifest.js';
import { projectRoot } from '../../../core/project-root.js';
import { atomText, type TlaValue } from '../../../core/tla-value.js';
import type { Step, Trace } from '../../../core/trace-format.js';
import { ReplayInputError, ReplayUnavailableError, type ReplaySession, type TraceReplayer } from '../../../seam/replay.js';
import { readBool, readInt } from '../../../tlc/read-state.js';
import { ValkeyUnavailableError } from '../../../valkey/index.js';
import { PAUSE_ACTIONS, type PauseModelEvent } from '../../../../models/pause/index.js';
import type { PauseBounds, PendingCall, Replica } from '../model-state.js';
import { isPausePatch, loadPausePatch, PAUSE_PATCH_TYPE, type PausePatch } from '../patch.js';
import { loadPatchModule } from '../../../seam/patch-file.js';
import { PAUSE_VARIABLES } from '../model-state.js';
import { pauseStateToTla } from '../system.js';
import { TourSetupError } from '../../../seam/tour/entry.js';
import { pauseTourBounds } from './entry.js';
import { PauseInstance } from './instance.js';
import type { PauseAttempt } from './model.js';
import { openPauseTourRig } from './rig.js';

const showSnap = (s: { paused: boolean; version: number }) => `${s.paused ? 'paused' : 'running'}@v${s.version}`;

const FAULTS = ['FailLoad', 'FailReconcile', 'ReconcileOverlapped', 'FailLaterWrite'] as const;
const KNOWN: readonly string[] = [...PAUSE_ACTIONS, ...FAULTS];

function boundsOf(trace: Trace): PauseBounds {
  try {
    return pauseTourBounds(trace.bounds);
  } catch (err) {
    if (err instanceof TourSetupError) throw new ReplayInputError(err.message);
    throw err;
  }
}

function param(step: Step, name: string, at: string): TlaValue {
  const v: ItfValue | undefined = step.params[name];
  if (v === undefined) throw new ReplayInputError(`${at}: ${step.action} needs params.${name}`);
  return itfToTla(v);
}

function replicaParam(step: Step, at: string, replicas: readonly Replica[]): Replica {
  const r = atomText(param(step, 'r', at));
  if (!(replicas as readonly string[]).includes(r)) throw new ReplayInputError(`${at}: replica ${JSON.stringify(r)} is not one of the trace's bounds.replicas (${replicas.join(', ')})`);
  return r as Replica;
}

function record(v: TlaValue, at: string, fields: readonly string[]): Record<string, TlaValue> {
  if (v.kind !== 'record' || !fields.every((f) => v.fields[f] !== undefined)) throw new ReplayInputError(`${at}: expected a record [${fields.join(', ')}]`);
  return v.fields as Record<string, TlaValue>;
}

/** A trace step as the tour's attempt; ReplayInputError naming what does not fit. */
export function attemptOfStep(step: Step, at: string, bounds: PauseBounds): PauseAttempt {
  if (!KNOWN.includes(step.action)) throw new ReplayInputError(`${at}: unknown action ${JSON.stringify(step.action)} (one of ${KNOWN.join(', ')})`);
  const rs = bounds.replicas;
  try {
    const call = (): PendingCall => {
      const f = record(param(step, 'c', at), `${at}: params.c`, ['by', 'paused', 'version']);
      const by = atomText(f.by!);
      if (!(rs as readonly string[]).includes(by)) throw new ReplayInputError(`${at}: params.c.by ${JSON.stringify(by)} is not one of the trace's replicas`);
      return { by: by as Replica, paused: readBool(f.paused!, 'paused'), version: readInt(f.version!, 'version') };
    };
    switch (step.action) {
      case 'FailLoad':
      case 'FailReconcile':
        return { kind: step.action === 'FailLoad' ? 'failLoad' : 'failReconcile', r: replicaParam(step, at, rs) };
      case 'ReconcileOverlapped':
        return { kind: 'overlap', r: replicaParam(step, at, rs), c: call() };
      case 'FailLaterWrite':
        return { kind: 'failLaterWrite', c: call() };
      case 'Tick':
        return { kind: 'event', ev: { type: 'Tick', r: rs[0]! } };
      case 'BeginSetPaused':
        return { kind: 'event', ev: { type: 'BeginSetPaused', r: replicaParam(step, at, rs), p: readBool(param(step, 'p', at), 'p') } };
      case 'CommitSetPaused':
      case 'FailSetPaused':
        return { kind: 'event', ev: { type: step.action, c: call() } };
      case 'Deliver':
      case 'Drop': {
        const f = record(param(step, 'e', at), `${at}: params.e`, ['paused', 'version']);
        return { kind: 'event', ev: { type: step.action, r: replicaParam(step, at, rs), e: { paused: readBool(f.paused!, 'paused'), version: readInt(f.version!, 'version') } } };
      }
      default:
        return {
          kind: 'event',
          ev: { type: step.action as Exclude<PauseModelEvent['type'], 'BeginSetPaused' | 'CommitSetPaused' | 'FailSetPaused' | 'Deliver' | 'Drop'>, r: replicaParam(step, at, rs) } as PauseModelEvent,
        };
    }
  } catch (err) {
    if (err instanceof ReplayInputError) throw err;
    throw new ReplayInputError(`${at}: ${(err as Error).message}`);
  }
}

async function patchOf(trace: Trace, entry: MutantEntry | undefined, patchFile: string | undefined): Promise<{ path: string; patch: PausePatch } | undefined> {
  // A user's patch the trace recorded (checked by the caller to be the file recorded).
  if (patchFile !== undefined) {
    try {
      return { path: trace.patch?.path ?? patchFile, patch: await loadPatchModule(patchFile, isPausePatch, PAUSE_PATCH_TYPE) };
    } catch (err) {
      throw new ReplayInputError((err as Error).message);
    }
  }
  if (trace.mutant === undefined) return undefined;
  if (!entry) throw new ReplayUnavailableError(`mutant ${trace.mutant} is not in mutants/manifest.json`);
  const path = entry.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${entry.id} has no implementation-layer patch in the manifest`);
  try {
    return { path, patch: await loadPausePatch(path, projectRoot) };
  } catch (err) {
    throw new ReplayUnavailableError((err as Error).message);
  }
}

export const pauseReplayer: TraceReplayer = {
  check(trace) {
    const bounds = boundsOf(trace);
    trace.steps.forEach((step, i) => void (i > 0 && attemptOfStep(step, `steps[${i}]`, bounds)));
  },
  async open(trace, opts): Promise<ReplaySession> {
    const bounds = boundsOf(trace);
    const patch = await patchOf(trace, opts.mutant, opts.patchFile);
    let rig;
    try {
      rig = await openPauseTourRig(opts.provider === 'native' || opts.provider === 'testcontainers' || opts.provider === 'external' || opts.provider === 'auto' ? { provider: opts.provider } : {});
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) throw new ReplayUnavailableError(err.message);
      throw err;
    }
    const inst = new PauseInstance(rig, { bounds, ...(patch ? { patch: patch.patch } : {}) });
    try {
      await inst.open();
    } catch (err) {
      await inst.close().catch(() => {});
      await rig.close();
      throw err;
    }
    let breaches: string[] = [];
    return {
      where: `an owned standalone Valkey (${rig.topology.provider}), the tour's replicas and clock`,
      ...(patch ? { patch: patch.path } : {}),
      async step(index, step) {
        const out = await inst.perform(attemptOfStep(step, `steps[${index}]`, bounds));
        const d = out.decision;
        return { status: d.kind === 'transition' ? 'applied' : d.kind === 'error' ? 'ambiguous' : 'refused', note: out.note };
      },
      async observe() {
        const { state } = await inst.read();
        for (const r of bounds.replicas) {
          const m = state.model;
          if (m.ready[r] && m.snap[r] != null && m.age[r]! > bounds.maxAge && state.replicas[r]!.answer !== 'unavailable')
            breaches.push(`Inv_FailClosed: ${r} answered '${state.replicas[r]!.answer}' from a snapshot past the age bound (by the driver's clock)`);
          const snap = m.snap[r];
          const want = snap == null ? null : snap.paused ? 'paused' : 'running';
          if (m.ready[r] && snap != null && m.age[r]! <= bounds.maxAge && state.replicas[r]!.answer !== want)
            breaches.push(`Inv_ServesFresh: ${r} answered '${state.replicas[r]!.answer}' from a snapshot ${showSnap(snap)} within the age bound (by the driver's clock)`);
        }
        const tla = pauseStateToTla(state.model);
        return Object.fromEntries(PAUSE_VARIABLES.map((v) => [v, tlaToItf(tla[v])]));
      },
      takeBreaches() {
        const b = breaches;
        breaches = [];
        return b;
      },
      async close() {
        await inst.close().catch(() => {});
        await rig.close();
      },
    };
  },
};
