/**
 * The model layer: each mutant's model patch (mutants/fencing/model/**) is applied to its system's XState
 * machine with machine.provide(), the mutated machine is explored exhaustively on the base bounds,
 * and its expected invariant is checked alone with TypeOK — the same rule as the TLC configs.
 * Fencing runs on its own compiled explorer (src/systems/fencing/model/); the systems on the seam (src/systems/:
 * pause, replication) through the seam's exploration (layers/model-seam.ts). Nothing here reads
 * which mutant is active beyond loading its patch file.
 */
import { INVARIANTS, INVARIANT_NAMES, brokenInvariants, type InvariantName } from '../../systems/fencing/invariants.js';
import { DEFAULT_BOUNDS, type FencingBounds, type FencingState } from '../../systems/fencing/state.js';
import { EFFECT_NAMES, SPEC_GUARD_NAMES, type FencingOverrides } from '../../../models/fencing/index.js';
import { ExplorationLimitError, explore, shortestPathTo, type Exploration } from '../../systems/fencing/model/explore.js';
import { formatPath, pathToTrace, saveTrace } from '../../systems/fencing/model/trace.js';
import type { LayerRunOptions, LayerRunner } from '../../seam/layer-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import { importModelPatch, ModelPatchError } from '../../seam/model-patch.js';
import type { MutantResult } from '../../core/verdict.js';
import { runSeamModelMutants, type SeamSystems } from './model-seam.js';

export { ModelPatchError };

/** Loads a fencing entry's mutants/fencing/model/Mx.ts and checks it overrides only names the machine has, its target among them. */
export async function loadModelPatch(entry: MutantEntry): Promise<FencingOverrides> {
  return (await importModelPatch(entry, { guards: SPEC_GUARD_NAMES, actions: EFFECT_NAMES }, 'a FencingOverrides object')) as FencingOverrides;
}

function sameStates(a: Exploration, b: Exploration): boolean {
  if (a.distinct !== b.distinct) return false;
  for (const k of a.states.keys()) if (!b.states.has(k)) return false;
  return true;
}

function isInvariant(name: string): name is InvariantName {
  return (INVARIANT_NAMES as readonly string[]).includes(name);
}

/** One mutant at the model layer, against the base exploration of the same bounds. */
export async function runModelMutant(entry: MutantEntry, base: Exploration, options: LayerRunOptions, bounds: FencingBounds = DEFAULT_BOUNDS): Promise<MutantResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const result = (fields: Omit<MutantResult, 'id' | 'layer' | 'expectedInvariant'>): MutantResult => ({
    id: entry.id,
    layer: 'model',
    expectedInvariant: entry.expectedInvariant,
    durationMs: Math.round(performance.now() - started),
    ...fields,
  });
  if (!isInvariant(entry.expectedInvariant)) return result({ verdict: 'invalid', reason: `unknown invariant ${entry.expectedInvariant}` });
  const expected = entry.expectedInvariant;
  let overrides: FencingOverrides;
  try {
    overrides = await loadModelPatch(entry);
  } catch (err) {
    if (err instanceof ModelPatchError) return result({ verdict: 'invalid', reason: err.message });
    throw err;
  }
  try {
    // Checked alone with TypeOK, in that order (as tla/fencing/mutants/Mx.cfg lists them).
    const checked: InvariantName[] = expected === 'TypeOK' ? ['TypeOK'] : ['TypeOK', expected];
    const counterexample = (bad: (s: FencingState) => boolean, violatedOf: (s: FencingState) => InvariantName) => {
      const path = shortestPathTo(bounds, overrides, bad);
      if (path === null) return null;
      const last = path[path.length - 1]!.state;
      const violated = violatedOf(last);
      const trace = pathToTrace(path, { bounds, mutant: entry.id, violated });
      const tracePath = saveTrace(trace, `model-${entry.id}.json`, options.traceDir);
      log(`[model] ${entry.id}: ${violated} violated after ${path.length - 1} actions (${tracePath})\n${formatPath(trace, '    ')}`);
      // traceLength counts the trace's steps, Init included, as the TLC layer does.
      return { violated, alsoBroken: brokenInvariants(last, bounds).filter((n) => n !== violated), traceLength: trace.steps.length, tracePath };
    };
    const brokenIn = (names: readonly InvariantName[]) => (s: FencingState) => names.some((n) => !INVARIANTS[n](s, bounds));
    const firstBroken = (names: readonly InvariantName[]) => (s: FencingState) => names.find((n) => !INVARIANTS[n](s, bounds))!;
    // Breadth-first to the first state breaking a checked invariant: the shortest counterexample.
    const found = counterexample(brokenIn(checked), firstBroken(checked));
    if (found !== null) {
      const killed = found.violated === expected;
      return result({ verdict: killed ? 'killed' : 'wrong-invariant', ...found, ...(killed ? {} : { reason: `${found.violated} broke first` }) });
    }
    // Not killed: equivalent (same reachable set as the base), or a survivor that may break another invariant.
    const run = explore({ bounds, overrides });
    if (sameStates(run, base)) {
      log(`[model] ${entry.id}: equivalent (same ${run.distinct} reachable states as the base)`);
      return result({ verdict: 'equivalent', reason: `same reachable state set as the base (${run.distinct} states)` });
    }
    const others = run.verdicts.filter((v) => !v.holds).map((v) => v.name);
    if (others.length > 0) {
      const other = counterexample(brokenIn(others), firstBroken(others));
      return result({ verdict: 'wrong-invariant', ...(other ?? {}), reason: `${expected} holds on all ${run.distinct} states; ${others.join(',')} broke` });
    }
    log(`[model] ${entry.id}: survived (${run.distinct} states vs ${base.distinct} in the base, every invariant holds)`);
    return result({ verdict: 'survived', reason: `${run.distinct} reachable states (base ${base.distinct}), every invariant holds` });
  } catch (err) {
    if (err instanceof ExplorationLimitError) return result({ verdict: 'timeout', reason: err.message });
    return result({ verdict: 'invalid', reason: `run failed: ${(err as Error).message}` });
  }
}

/** The fencing entries on the compiled explorer, against one base exploration. */
async function runFencingMutants(mutants: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> {
  const base = explore({ bounds: DEFAULT_BOUNDS });
  const broken = base.verdicts.filter((v) => !v.holds).map((v) => v.name);
  if (broken.length > 0) {
    // A base that breaks an invariant would make every kill meaningless.
    return mutants.map((m) => ({ id: m.id, layer: 'model' as const, verdict: 'invalid' as const, expectedInvariant: m.expectedInvariant, reason: `the base machine already breaks ${broken.join(',')}` }));
  }
  options.log?.(`[model] fencing base: ${base.distinct} distinct states, ${base.generated} generated, every invariant holds (${Math.round(base.durationMs)} ms)`);
  const results: MutantResult[] = [];
  for (const m of mutants) results.push(await runModelMutant(m, base, options));
  return results;
}

/** Every system's entries, each system's run once, the results in the entries' order. */
export async function runModelLayer(mutants: readonly MutantEntry[], options: LayerRunOptions, seam?: SeamSystems): Promise<MutantResult[]> {
  const fencing = mutants.filter((m) => m.system === 'fencing');
  const others = mutants.filter((m) => m.system !== 'fencing');
  const done = [...(fencing.length > 0 ? await runFencingMutants(fencing, options) : []), ...(others.length > 0 ? await runSeamModelMutants(others, options, seam) : [])];
  const byId = new Map(done.map((r) => [r.id, r]));
  return mutants.map((m) => byId.get(m.id)!);
}

export const runner: LayerRunner = {
  layer: 'model',
  async unavailable() {
    return null; // pure TypeScript: runs wherever the CLI runs
  },
  run: (mutants, options) => runModelLayer(mutants, options),
};
