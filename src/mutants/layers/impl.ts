/**
 * The implementation layer's mutant runner, on the conformance tour: for each fencing mutant, its
 * patch (mutants/fencing/impl/Mx.ts: mutated Lua, the prelude, a changed or dropped gate rule, changed deploy
 * records) is applied and the real implementation's own state graph is explored breadth-first on
 * real Valkey, checking the mutant's expected invariant alone (with TypeOK) in every real state.
 * Deterministic: no seed, no search budget. Killed = the expected invariant breaks in a state of the
 * mutant's real graph (the BFS path from Init is the counterexample, replayed by `trace replay`);
 * equivalent = the real graph is the unmutated one (same states, same labelled edges, the same
 * decision in every reply); survived = a different graph where nothing broke.
 * A kill means something only when the unpatched implementation passes the full tour first.
 * Entries of the systems on the seam (pause, replication) go to their own runners
 * (src/seam/impl-runner.ts), loaded only when the layer runs.
 */
import { importDefault } from '../../core/import-default.js';
import type { LayerRunner, LayerRunOptions } from '../../seam/layer-runner.js';
import { SYSTEM_IMPL_RUNNERS, type SystemImplRunner } from '../../seam/impl-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import { brokenInvariants, INVARIANT_NAMES, type InvariantName } from '../../systems/fencing/invariants.js';
import { isImplPatch, type ImplPatch } from '../../systems/fencing/patch.js';
import { DEFAULT_BOUNDS } from '../../systems/fencing/state.js';
import { valkeyUnavailableReason, ValkeyUnavailableError } from '../../valkey/index.js';
import { asInfrastructureFault } from '../../valkey/fault.js';
import { runConform, type ConformOptions } from '../../systems/fencing/tour/run.js';
import { openTourWorld, type TourWorld } from '../../systems/fencing/tour/world.js';
import { modelTour } from '../../systems/fencing/tour/model-graph.js';

/** The ImplPatch a manifest entry names (mutants/fencing/impl/Mx.ts default export). */
export async function loadPatch(entry: MutantEntry): Promise<ImplPatch> {
  const file = entry.layers.impl?.patch;
  if (!file) throw new Error(`${entry.id} names no impl patch`);
  const patch = await importDefault(file, projectRoot);
  if (!isImplPatch(patch)) throw new Error(`${file} default-exports no ImplPatch`);
  return patch;
}

function isInvariant(name: string): name is InvariantName {
  return (INVARIANT_NAMES as readonly string[]).includes(name);
}

/** A fault (Valkey lost, a timeout, a permission) is "could not run", never a verdict. */
function notRun(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

async function runOne(entry: MutantEntry, world: TourWorld, log: (l: string) => void, onProgress?: ConformOptions['onProgress']): Promise<MutantResult> {
  const started = Date.now();
  const base = { id: entry.id, layer: 'impl' as const, expectedInvariant: entry.expectedInvariant };
  if (!isInvariant(entry.expectedInvariant)) return { ...base, verdict: 'invalid', reason: `unknown invariant ${entry.expectedInvariant}` };
  let patch: ImplPatch;
  try {
    patch = await loadPatch(entry);
  } catch (err) {
    return { ...base, verdict: 'invalid', reason: `patch: ${(err as Error).message}`, durationMs: Date.now() - started };
  }
  try {
    const run = await runConform({ bounds: DEFAULT_BOUNDS, patch, invariant: entry.expectedInvariant, mutant: entry.id, world, ...(onProgress ? { onProgress } : {}) });
    const r = run.result;
    const durationMs = Date.now() - started;
    if (!r.failure) {
      return r.equalToModel
        ? { ...base, verdict: 'equivalent', reason: `the real graph equals the unmutated one within the bounds (${r.states} states, ${r.attempts} attempts, the same decision in every reply)`, durationMs }
        : { ...base, verdict: 'survived', reason: `the real graph differs (${r.states} states) but ${entry.expectedInvariant} holds in every state of it`, durationMs };
    }
    const f = r.failure;
    const common = {
      ...base,
      violated: f.check,
      alsoBroken: brokenInvariants(f.path.at(-1)!.state, DEFAULT_BOUNDS).filter((n) => n !== f.check),
      traceLength: f.path.length,
      ...(run.tracePath ? { tracePath: run.tracePath } : {}),
      durationMs,
    };
    const replay = `${f.check} after ${f.path.length - 1} steps of the real graph; replay: ${run.replay ?? `fencecheck conform --mutant ${entry.id}`}`;
    log(`[impl ${entry.id}] ${replay}`);
    return f.check === entry.expectedInvariant ? { ...common, verdict: 'killed', reason: replay } : { ...common, verdict: 'wrong-invariant', reason: `${f.check} fired: ${f.message}; ${replay}` };
  } catch (err) {
    const why = notRun(err);
    if (why !== null) return { ...base, verdict: 'not-run', reason: why };
    return { ...base, verdict: 'invalid', reason: (err as Error).stack ?? String(err), durationMs: Date.now() - started };
  }
}

/** Fencing's runner: the conformance tour, the unpatched implementation first. */
export const fencingImplRunner: SystemImplRunner = {
  system: 'fencing',
  unavailable: valkeyUnavailableReason,
  async run(mutants, options) {
    const selected = mutants.filter((m) => m.system === 'fencing' && (!options.only || options.only.includes(m.id)));
    if (selected.length === 0) return [];
    const log = options.log ?? (() => {});
    const allNotRun = (reason: string): MutantResult[] => selected.map((m) => ({ id: m.id, layer: 'impl', verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason }));
    let world: TourWorld;
    try {
      // The model's graph before any server runs (see runConform): a signal meanwhile ends at once.
      modelTour(DEFAULT_BOUNDS);
      world = await openTourWorld();
    } catch (err) {
      const why = notRun(err);
      if (why !== null) return allNotRun(why);
      throw err;
    }
    try {
      // A kill means something only if the unpatched scripts and gate pass the full tour.
      log('[impl] the unpatched implementation: full conformance tour');
      let reason: string | null = null;
      // Progress in tours (the unpatched one, then one per mutant); the note says how far the current tour is.
      const tours = selected.length + 1;
      let toursDone = 0;
      const tourProgress = (what: string) => (attempts: number, total: number) => options.onProgress?.(toursDone, tours, 'tours', `${what}: ${Math.floor((100 * attempts) / total)} % of its attempts`);
      try {
        const base = await runConform({ bounds: DEFAULT_BOUNDS, world, onProgress: tourProgress('unpatched') });
        toursDone += 1;
        if (base.result.failure) reason = `the unpatched implementation fails its own conformance tour: ${base.result.failure.check}: ${base.result.failure.message} (${base.replay ?? 'fencecheck conform'})`;
        else if (!base.result.equalToModel) reason = 'the unpatched implementation\'s real graph differs from the model\'s (fencecheck conform)';
        else log(`[impl] unpatched: ${base.result.states} states, ${base.result.attempts} attempts, the model's graph (${(base.result.durationMs / 1000).toFixed(1)} s)`);
      } catch (err) {
        const why = notRun(err);
        if (why !== null) return allNotRun(why);
        throw err;
      }
      if (reason !== null) {
        log(`[impl] ${reason}`);
        return selected.map((m) => ({ id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason }));
      }
      const results: MutantResult[] = [];
      for (const m of selected) {
        log(`[impl ${m.id}] the real graph of ${m.layers.impl?.patch}, ${m.expectedInvariant} alone`);
        const r = await runOne(m, world, log, tourProgress(m.id));
        toursDone += 1;
        options.onProgress?.(toursDone, tours, 'tours', `${m.id} ${r.verdict}`);
        log(`[impl ${m.id}] ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}`);
        results.push(r);
      }
      return results;
    } finally {
      await world.close();
    }
  },
};

export type SystemImplRunners = Readonly<Record<string, () => Promise<{ implRunner: SystemImplRunner }>>>;

/**
 * The impl layer over every system: each system's entries to its runner (fencing's tour, or the one
 * `systems` names), each runner loaded only when it is asked; the results in the entries' order.
 * The layer is unavailable only when every runner is (the reasons joined); a runner unavailable
 * alone makes its own entries not-run.
 */
export function implLayerRunner(systems: SystemImplRunners = SYSTEM_IMPL_RUNNERS, fencing: SystemImplRunner = fencingImplRunner): LayerRunner {
  const loaded = new Map<string, Promise<SystemImplRunner | string>>();
  // A runner, or why it cannot be loaded.
  const load = (system: string): Promise<SystemImplRunner | string> => {
    let p = loaded.get(system);
    if (!p) {
      const get = system === 'fencing' ? async () => ({ implRunner: fencing }) : systems[system];
      p = get ? get().then((m) => m.implRunner, (err: unknown) => `cannot load the ${system} impl runner: ${(err as Error).message}`) : Promise.resolve(`no impl runner for system ${system}`);
      loaded.set(system, p);
    }
    return p;
  };
  const whyNot = async (system: string): Promise<string | null> => {
    const r = await load(system);
    return typeof r === 'string' ? r : r.unavailable();
  };
  return {
    layer: 'impl',
    async unavailable() {
      const reasons = await Promise.all(['fencing', ...Object.keys(systems)].map(async (s) => ({ s, why: await whyNot(s) })));
      return reasons.every((r) => r.why !== null) ? reasons.map((r) => `${r.s}: ${r.why}`).join('; ') : null;
    },
    async run(mutants: readonly MutantEntry[], options: LayerRunOptions) {
      const byId = new Map<string, MutantResult>();
      for (const system of [...new Set(mutants.map((m) => m.system))]) {
        const entries = mutants.filter((m) => m.system === system);
        const r = await load(system);
        const why = typeof r === 'string' ? null : await r.unavailable();
        const mark = (verdict: 'invalid' | 'not-run', reason: string) => entries.forEach((m) => byId.set(m.id, { id: m.id, layer: 'impl', verdict, expectedInvariant: m.expectedInvariant, reason }));
        if (typeof r === 'string') mark('invalid', r);
        else if (why !== null) {
          options.log?.(`[impl] ${system} not run: ${why}`);
          mark('not-run', why);
        } else for (const res of await r.run(entries, options)) byId.set(res.id, res);
      }
      // A runner that leaves an entry out reported nothing for it: invalid, never a silent pass.
      return mutants.map((m) => byId.get(m.id) ?? { id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason: `the ${m.system} impl runner reported no result for ${m.id}` });
    },
  };
}

export const runner: LayerRunner = implLayerRunner();
