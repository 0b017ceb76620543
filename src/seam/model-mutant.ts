/**
 * The model layer of every system on the seam: the entry's model
 * patch (mutants/<system>/model/<id>.ts) provided to the system's machine, the mutated twin explored
 * breadth-first with the expected invariant checked alone with TypeOK (as the mutant's TLC config),
 * the first violating state its shortest counterexample, saved as the system's trace
 * (`<traceDir>/model-<id>.json`, src/seam/trace.ts) and logged step by step. Not killed: `equivalent`
 * when the mutated twin reaches exactly the base's states, `wrong-invariant` when another invariant
 * breaks there, `survived` otherwise.
 */
import type { LayerRunOptions } from './layer-runner.js';
import type { MutantEntry } from '../core/manifest.js';
import { ModelPatchError, mutatedSystem } from './model-patch.js';
import type { MutantResult } from '../core/verdict.js';
import { exploreSystem, SystemExplorationLimitError, type SystemExploration } from './explore.js';
import type { AnySystem } from './package.js';
import { formatTracePath, pathToTrace, saveTrace } from './trace.js';

/** Where the systems come from, by name (the registry's SYSTEMS; a test passes its own). */
export type SeamSystems = Readonly<Record<string, () => Promise<AnySystem>>>;

type Fields = Omit<MutantResult, 'id' | 'layer' | 'expectedInvariant' | 'durationMs'>;

/** One entry against its system's base exploration. */
export async function runSeamModelMutant(entry: MutantEntry, sys: AnySystem, base: SystemExploration<unknown, unknown>, options: LayerRunOptions = {}): Promise<MutantResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const result = (fields: Fields): MutantResult => ({ id: entry.id, layer: 'model', expectedInvariant: entry.expectedInvariant, durationMs: Math.round(performance.now() - started), ...fields });
  const expected = entry.expectedInvariant;
  if (!sys.invariants[expected]) return result({ verdict: 'invalid', reason: `${sys.name} has no invariant ${expected}` });
  // A mutant judged off the base config is explored at its constants, against the base there.
  let at = sys;
  let baseRun = base;
  if (entry.constants) {
    if (!sys.withConstants) return result({ verdict: 'invalid', reason: `${entry.id} names constants, ${sys.name} takes none` });
    try {
      at = sys.withConstants(entry.constants);
    } catch (err) {
      if (err instanceof RangeError) return result({ verdict: 'invalid', reason: `${entry.id}'s constants: ${err.message}` });
      throw err;
    }
    baseRun = exploreSystem(at);
  }
  let mutated: AnySystem;
  try {
    mutated = await mutatedSystem(at, entry);
  } catch (err) {
    if (err instanceof ModelPatchError) return result({ verdict: 'invalid', reason: err.message });
    throw err;
  }
  const inv = mutated.invariants;
  const all = Object.keys(inv);
  // The first of `names` a state breaks, in that order (TypeOK first, as the mutant's config lists it).
  const firstBroken = (names: readonly string[]) => (s: unknown) => names.find((n) => !inv[n]!(s));
  const counterexample = (names: readonly string[]) => {
    const broken = firstBroken(names);
    const x = exploreSystem(mutated, { invariants: [], until: (s) => broken(s) !== undefined });
    if (x.found < 0) return null;
    const path = x.pathTo(x.found);
    const last = path[path.length - 1]!.state;
    const violated = broken(last)!;
    const trace = pathToTrace(mutated, path, { mutant: entry.id, violated });
    const tracePath = saveTrace(trace, `model-${entry.id}.json`, options.traceDir);
    log(`[model] ${entry.id}: ${violated} violated after ${path.length - 1} actions (${tracePath})\n${formatTracePath(trace, '    ')}`);
    return { violated, alsoBroken: all.filter((n) => n !== violated && !inv[n]!(last)), traceLength: path.length, tracePath };
  };
  try {
    const checked = expected === 'TypeOK' || !inv.TypeOK ? [expected] : ['TypeOK', expected];
    const found = counterexample(checked);
    if (found !== null) {
      const killed = found.violated === expected;
      return result({ verdict: killed ? 'killed' : 'wrong-invariant', ...found, ...(killed ? {} : { reason: `${found.violated} broke first` }) });
    }
    const run = exploreSystem(mutated);
    if (sameKeys(run.keys, baseRun.keys)) {
      log(`[model] ${entry.id}: equivalent (same ${run.distinct} reachable states as the base)`);
      return result({ verdict: 'equivalent', reason: `same reachable state set as the base (${run.distinct} states)` });
    }
    const others = run.verdicts.filter((v) => !v.holds).map((v) => v.name);
    if (others.length > 0) {
      const other = counterexample(others);
      return result({ verdict: 'wrong-invariant', ...(other ?? {}), reason: `${expected} holds on all ${run.distinct} states; ${others.join(',')} broke` });
    }
    log(`[model] ${entry.id}: survived (${run.distinct} states vs ${baseRun.distinct} in the base, every invariant holds)`);
    return result({ verdict: 'survived', reason: `${run.distinct} reachable states (base ${baseRun.distinct}), every invariant holds` });
  } catch (err) {
    if (err instanceof SystemExplorationLimitError) return result({ verdict: 'timeout', reason: err.message });
    return result({ verdict: 'invalid', reason: `run failed: ${(err as Error).message}` });
  }
}

/** Every seam entry, grouped by system (one base exploration each), the results in the entries' order. */
export async function runSeamModelMutants(mutants: readonly MutantEntry[], options: LayerRunOptions, systems: SeamSystems): Promise<MutantResult[]> {
  const byId = new Map<string, MutantResult>();
  for (const name of [...new Set(mutants.map((m) => m.system))]) {
    const entries = mutants.filter((m) => m.system === name);
    const invalid = (reason: string) => entries.forEach((m) => byId.set(m.id, { id: m.id, layer: 'model', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason }));
    const load = systems[name];
    if (!load) {
      invalid(`no model layer for system ${name} (systems on the seam: ${Object.keys(systems).join(', ')})`);
      continue;
    }
    const sys = await load();
    const base = exploreSystem(sys);
    const broken = base.verdicts.filter((v) => !v.holds).map((v) => v.name);
    // A base that breaks an invariant would make every kill meaningless.
    if (broken.length > 0) {
      invalid(`the base ${name} machine already breaks ${broken.join(',')}`);
      continue;
    }
    options.log?.(`[model] ${name} base: ${base.distinct} distinct states, ${base.generated} generated, every invariant holds (${Math.round(base.durationMs)} ms)`);
    for (const m of entries) byId.set(m.id, await runSeamModelMutant(m, sys, base, options));
  }
  return mutants.map((m) => byId.get(m.id)!);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(b);
  return a.every((k) => set.has(k));
}
