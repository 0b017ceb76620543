/**
 * Fencing's replay (src/seam/replay.ts) on real Valkey: each step's event goes through the fencing
 * step driver (the scripts of the pod's version, the deployment gate for fleet steps), and the real
 * keyspace is read back as the spec's variables. A trace made under a mutant replays with that
 * mutant's implementation patch (the manifest's `impl` entry). A trace that crosses the mode door
 * replays with the 3-primary cluster the door carries the keyspace onto (T3 is then also checked on
 * the wire). A conformance-tour trace replays on the tour's topologies, from Init on one session,
 * with the pods' remembered generations and TTL expiry as the tour ran them.
 */
import { itfInt, itfToTla, tlaToItf, type ItfValue } from '../../core/itf-value.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { Step, Trace } from '../../core/trace-format.js';
import { ReplayInputError, ReplayUnavailableError, type ReplayOpenOptions, type ReplaySession, type TraceReplayer } from '../../seam/replay.js';
import { ValkeyUnavailableError } from '../../valkey/index.js';
import { replayJudgement } from '../../seam/tour/replay-path.js';
import { INVARIANT_NAMES } from './invariants.js';
import { EVENT_TYPES, POD_EVENT_TYPES, type FencingEvent } from '../../../models/fencing/index.js';
import { createFencingDriver, type FencingDriver, type StepOutcome, type StepStatus } from './driver.js';
import { loadPatch } from './impl-runner.js';
import { IMPL_PATCH_TYPE, isImplPatch, type ImplPatch } from './patch.js';
import { importDefault } from '../../core/import-default.js';
import { projectRoot } from '../../core/project-root.js';
import type { FencingBounds, FencingState, Pod } from './state.js';
import { fencingBounds } from './system.js';
import { FENCING_VARIABLES, fencingStateToTla, toFencingState } from './tlc/state.js';

/** The attempts a conformance-tour trace may name besides the model's events. */
const TOUR_ATTEMPTS = ['Acquire', 'Upgrade', 'Downgrade', 'Expire', 'Renew', 'Release'];
const TOUR_POD_ATTEMPTS = ['Acquire', 'Upgrade', 'Downgrade', 'Renew', 'Release'];
/** Steps that carry the keyspace across the mode door: a replay with one needs the cluster too. */
export const DOOR_STEPS: readonly string[] = ['EnterCompatible', 'RevertDisabled', 'Enable'];

const POD = /^p\d+$/;
const podParam = (step: Pick<Step, 'params'>): string | undefined => {
  const p = step.params.p;
  return typeof p === 'string' ? p : undefined;
};

function boundsOf(trace: Trace): FencingBounds {
  try {
    return fencingBounds(trace.bounds);
  } catch (err) {
    if (err instanceof RangeError) throw new ReplayInputError(err.message);
    throw err;
  }
}

/** A trace state as the model's FencingState. */
function fencingState(state: Readonly<Record<string, ItfValue>>): FencingState {
  return toFencingState(Object.fromEntries(FENCING_VARIABLES.map((v) => [v, itfToTla(state[v]!)])));
}

function itfState(s: FencingState): Record<string, ItfValue> {
  const tla = fencingStateToTla(s);
  return Object.fromEntries(FENCING_VARIABLES.map((v) => [v, tlaToItf(tla[v])]));
}

/**
 * Every step after Init is an action the step driver knows (or, in a tour trace, an attempt the tour
 * makes), and every pod a step names is one of the trace's bounds.
 */
function check(trace: Trace): void {
  const pods: readonly string[] = boundsOf(trace).pods;
  const tour = trace.source === 'conform';
  const known: readonly string[] = tour ? [...EVENT_TYPES, ...TOUR_ATTEMPTS] : EVENT_TYPES;
  const podActions: readonly string[] = [...POD_EVENT_TYPES, ...(tour ? TOUR_POD_ATTEMPTS : [])];
  trace.steps.forEach((step, i) => {
    if (i === 0) return;
    const at = `steps[${i}]`;
    if (!known.includes(step.action)) throw new ReplayInputError(`${at}: unknown action ${JSON.stringify(step.action)} (one of ${known.join(', ')})`);
    const p = step.params.p;
    if (p !== undefined && (typeof p !== 'string' || !pods.includes(p))) throw new ReplayInputError(`${at}: pod ${JSON.stringify(p)} is not one of the trace's bounds.pods (${pods.join(', ')})`);
    if (podActions.includes(step.action) && p === undefined) throw new ReplayInputError(`${at}: ${step.action} needs a pod (params.p)`);
    for (const [k, v] of Object.entries(step.params))
      if (typeof v === 'string' && POD.test(v) && !pods.includes(v)) throw new ReplayInputError(`${at}: params.${k} ${JSON.stringify(v)} is not one of the trace's bounds.pods (${pods.join(', ')})`);
  });
}

/**
 * The impl patch to replay with: the trace's recorded patch file (checked by the caller to be the
 * file recorded), else the one its mutant's manifest entry names (mutants/fencing/impl/Mx.ts).
 */
async function implPatch(trace: Trace, entry: MutantEntry | undefined, patchFile: string | undefined): Promise<{ path: string; patch: ImplPatch } | undefined> {
  if (patchFile !== undefined) {
    const shown = trace.patch?.path ?? patchFile;
    let loaded: unknown;
    try {
      loaded = await importDefault(patchFile, projectRoot);
    } catch (err) {
      throw new ReplayInputError(`patch file ${shown} cannot be loaded: ${String((err as Error).message).split('\n')[0]}`);
    }
    if (!isImplPatch(loaded)) throw new ReplayInputError(`patch file ${shown} default-exports no fencing patch (${IMPL_PATCH_TYPE})`);
    return { path: shown, patch: loaded };
  }
  if (trace.mutant === undefined) return undefined;
  if (!entry) throw new ReplayUnavailableError(`mutant ${trace.mutant} is not in mutants/manifest.json`);
  if (entry.system !== trace.system) throw new ReplayUnavailableError(`mutant ${entry.id} is a ${entry.system} mutant, not one of ${trace.system}`);
  const path = entry.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${entry.id} has no implementation-layer patch in the manifest`);
  try {
    return { path, patch: await loadPatch(entry) };
  } catch (err) {
    throw new ReplayUnavailableError(`cannot load ${path}: ${(err as Error).message}`);
  }
}

/**
 * One step on the driver. A step with a remembered generation (`gen`, from the conformance tour) is
 * the pod's renew or release with that memory; a tour step named after an attempt (`Acquire`,
 * `Upgrade`, ...) is that attempt; anything else is the model event.
 */
async function performStep(driver: FencingDriver, step: Step, prev: FencingState): Promise<{ status: StepStatus; note: string }> {
  const p = (podParam(step) ?? '') as Pod | '';
  const gen = step.params.gen !== undefined ? itfInt(step.params.gen) : undefined;
  const byRenew = step.action === 'MigrateB' || step.action === 'Renew';
  const byRelease = step.action === 'Release' || ((step.action === 'ExpireOld' || step.action === 'ExpireNew') && p !== '');
  if (gen !== undefined && p !== '' && (byRenew || byRelease)) {
    driver.remember(p, gen);
    if (byRenew) {
      const r = await driver.renew(p);
      return { status: r?.kind === 'migrated' ? 'applied' : 'refused', note: `${p} renews ${gen}: ${r?.kind ?? 'nothing remembered'}` };
    }
    const r = await driver.release(p);
    return { status: r?.kind === 'released' ? 'applied' : 'refused', note: `${p} releases ${gen}: ${r?.kind ?? 'nothing remembered'}${r?.kind === 'released' ? ` ${r.where}` : ''}` };
  }
  const attempt: Record<string, string> = {
    Acquire: `Acquire${p ? prev.version[p] : ''}`,
    Upgrade: 'UpgradePod',
    Downgrade: 'DowngradePod',
    Expire: step.params.which === 'new' ? 'ExpireNew' : 'ExpireOld',
  };
  const type = attempt[step.action] ?? step.action;
  const event = (p ? { type, p } : { type }) as FencingEvent;
  const outcome: StepOutcome = await driver.apply(event, prev);
  return { status: outcome.status, note: outcome.note };
}

function session(driver: FencingDriver, where: string, patch: string | undefined, close: () => Promise<void>): ReplaySession {
  return {
    where,
    ...(patch !== undefined && { patch }),
    step: (_i, step, prev) => performStep(driver, step, fencingState(prev.state)),
    observe: async () => itfState(await driver.observe()),
    takeBreaches: () => driver.takeSlotBreaches().map((b) => `T3 on the wire: ${b.script}: ${b.what}`),
    close: async () => {
      try {
        await driver.close();
      } finally {
        await close();
      }
    },
  };
}

async function open(trace: Trace, opts: ReplayOpenOptions): Promise<ReplaySession> {
  const bounds = boundsOf(trace);
  const patch = await implPatch(trace, opts.mutant, opts.patchFile);
  if (opts.provider !== undefined) process.env.FENCECHECK_VALKEY_PROVIDER = opts.provider;
  try {
    // A tour's finding that is no invariant (Conformance, TTL, the read side, T3) replays as the tour judged it.
    if (replayJudgement(trace, INVARIANT_NAMES) === 'tour') {
      const { openFencingTourReplay } = await import('./tour/replay.js');
      return await openFencingTourReplay({ bounds, ...(patch ? { patch } : {}), start: {}, toItf: itfState });
    }
    if (trace.source === 'conform') {
      const { openTourRig, tourDoor } = await import('./tour/rig.js');
      const { loadFencingScripts } = await import('./scripts.js');
      const rig = await openTourRig();
      const ref = rig.session();
      const driver = createFencingDriver(rig.topologies.disabled, {
        bounds,
        scripts: loadFencingScripts(patch?.patch),
        door: tourDoor(rig, ref),
        session: ref,
        connections: { standalone: rig.conns.disabled, current: rig.conns.disabled },
        expiry: 'ttl',
        ...(patch ? { patch: patch.patch } : {}),
      });
      return session(driver, `from Init on one session: standalone, 1-shard and 3-shard cluster (${rig.topologies.disabled.provider})`, patch?.path, () => rig.close());
    }
    const { openPropsEnv } = await import('../../../properties/fencing/env.js');
    const door = trace.steps.some((s) => DOOR_STEPS.includes(s.action));
    const env = await openPropsEnv(door ? 'door' : 'standalone', { bounds, ...(patch ? { patch: patch.patch } : {}) });
    const driver = createFencingDriver(env.ctx.topology, {
      bounds,
      scripts: env.ctx.scripts,
      ...(env.ctx.door ? { door: env.ctx.door } : {}),
      ...(patch ? { patch: patch.patch } : {}),
    });
    return session(driver, `on ${env.ctx.topology.provider} standalone Valkey${door ? ' and a 3-primary cluster for the door' : ''}`, patch?.path, () => env.close());
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) throw new ReplayUnavailableError(err.message);
    throw err;
  }
}

export const fencingReplayer: TraceReplayer = { check, open };
