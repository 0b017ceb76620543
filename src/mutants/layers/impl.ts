/**
 * The implementation layer's mutant runner: for each fencing mutant, load its patch module
 * (mutants/impl/Mx.ts: mutated Lua or a gate without one rule) and run the ordinary fencing property
 * suite against it, checking the mutant's expected invariant alone (with TypeOK) on the real keyspace.
 * A search budget: a suite that passes is followed by the same suite with a fresh derived seed, up to
 * SEARCH_BUDGET suites, stopping at the first failure (more search, never a retried assertion).
 * Two mutants run at a time (two cores); each has its own Valkey processes.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LayerRunner, LayerRunOptions } from '../layer-runner.js';
import type { MutantEntry } from '../manifest.js';
import type { MutantResult } from '../verdict.js';
import { projectRoot } from '../../project-root.js';
import { INVARIANT_NAMES, type InvariantName } from '../../fencing/invariants.js';
import type { ImplPatch } from '../../fencing/patch.js';
import { valkeyUnavailableReason, ValkeyUnavailableError } from '../../valkey/index.js';
import { invariantAlone } from '../../../properties/fencing/checks.js';
import { DEFAULT_DOOR_RUNS, DEFAULT_MAX_COMMANDS, DEFAULT_RUNS, randomSeed, runFencingSuite, type SuiteResult } from '../../../properties/fencing/suite.js';

/** Runs of the unpatched suite before any mutant (its full run is `fencecheck props`). */
export const BASE_RUNS = 100;

/** At most this many whole suites per mutant, each with a fresh seed, stopping at the first failure. */
export const SEARCH_BUDGET = 3;

/** The seed of the k-th suite of a mutant's search: k = 0 is the given seed; the others are derived so a run replays. */
export function searchSeed(seed: number, k: number): number {
  return k === 0 ? seed : (seed + Math.imul(k, 0x2545f491)) | 0;
}

/** The ImplPatch a manifest entry names (mutants/impl/Mx.ts default export). */
export async function loadPatch(entry: MutantEntry): Promise<ImplPatch> {
  const file = entry.layers.impl?.patch;
  if (!file) throw new Error(`${entry.id} names no impl patch`);
  const mod = (await import(pathToFileURL(resolve(projectRoot, file)).href)) as { default?: ImplPatch };
  if (!mod.default || (mod.default.lua === undefined && mod.default.dropGateRules === undefined)) throw new Error(`${file} default-exports no ImplPatch`);
  return mod.default;
}

function isInvariant(name: string): name is InvariantName {
  return (INVARIANT_NAMES as readonly string[]).includes(name);
}

async function runOne(entry: MutantEntry, options: LayerRunOptions, seed: number): Promise<MutantResult> {
  const started = Date.now();
  const base = { id: entry.id, layer: 'impl' as const, expectedInvariant: entry.expectedInvariant };
  const log = options.log ?? (() => {});
  if (!isInvariant(entry.expectedInvariant)) return { ...base, verdict: 'invalid', reason: `unknown invariant ${entry.expectedInvariant}` };
  let patch: ImplPatch;
  try {
    patch = await loadPatch(entry);
  } catch (err) {
    return { ...base, verdict: 'invalid', reason: `patch: ${(err as Error).message}`, durationMs: Date.now() - started };
  }
  try {
    // The search budget: the ordinary suite again with a fresh seed, until the first failure or
    // SEARCH_BUDGET suites. Nothing is retried: each suite is a new search, and any failure counts.
    const searched: string[] = [];
    let suite: SuiteResult | undefined;
    for (let k = 0; k < SEARCH_BUDGET && (suite === undefined || suite.passed); k++) {
      suite = await runFencingSuite({
        topology: 'both',
        runs: options.numRuns ?? DEFAULT_RUNS,
        doorRuns: Math.min(options.numRuns ?? DEFAULT_DOOR_RUNS, DEFAULT_DOOR_RUNS),
        maxCommands: DEFAULT_MAX_COMMANDS,
        seed: searchSeed(seed, k),
        patch,
        checks: invariantAlone(entry.expectedInvariant),
        traceLabel: entry.id,
        log: (l) => log(`[impl ${entry.id}] ${l}`),
      });
      searched.push(...suite.phases.map((p) => `${p.result.runs} ${p.topology} runs (seed ${p.result.seed})`));
    }
    const durationMs = Date.now() - started;
    if (!suite || suite.passed) {
      return { ...base, verdict: 'survived', reason: `nothing broke in ${searched.join(', ')}`, seed, durationMs };
    }
    const r = suite.failed!.result;
    if (!r.failure) return { ...base, verdict: 'invalid', reason: r.error ?? 'a run failed without a check', seed: r.seed, durationMs };
    const f = r.failure;
    const common = {
      ...base,
      violated: f.check,
      alsoBroken: f.brokenAtEnd.filter((n) => n !== f.check),
      traceLength: f.traceLength,
      ...(f.tracePath ? { tracePath: f.tracePath } : {}),
      seed: f.seed,
      path: f.path,
      durationMs,
    };
    const replay = `replay: fencecheck props --mutant ${entry.id} --invariant ${entry.expectedInvariant} --topology ${suite.failed!.topology} --seed ${f.seed} --path ${f.path}; shrunk (${f.intents.length}): ${f.intents.join(' · ')}`;
    log(`[impl ${entry.id}] ${f.check} at step ${f.step + 1}; ${replay}`);
    return f.check === entry.expectedInvariant
      ? { ...common, verdict: 'killed', reason: replay }
      : { ...common, verdict: 'wrong-invariant', reason: `${f.check} fired: ${f.message}; ${replay}` };
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) return { ...base, verdict: 'not-run', reason: err.message };
    return { ...base, verdict: 'invalid', reason: (err as Error).stack ?? String(err), durationMs: Date.now() - started };
  }
}

export const runner: LayerRunner = {
  layer: 'impl',
  unavailable: valkeyUnavailableReason,
  async run(mutants, options) {
    const selected = mutants.filter((m) => m.system === 'fencing' && (!options.only || options.only.includes(m.id)));
    const seed = options.seed ?? randomSeed();
    if (selected.length === 0) return [];
    // A kill means something only if the unpatched scripts and gate pass the same suite (all checks).
    const base = await runFencingSuite({ topology: 'standalone', runs: BASE_RUNS, doorRuns: 0, maxCommands: DEFAULT_MAX_COMMANDS, seed });
    if (!base.passed) {
      const f = base.failed?.result.failure;
      const reason = f
        ? `the unpatched implementation fails its own suite: ${f.check} (replay: fencecheck props --topology standalone --seed ${f.seed} --path ${f.path})`
        : `the unpatched implementation's suite threw: ${base.failed?.result.error ?? 'unknown error'}`;
      options.log?.(`[impl] ${reason}`);
      return selected.map((m) => ({ id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason }));
    }
    const results = new Map<string, MutantResult>();
    const queue = [...selected];
    const width = Math.max(1, Math.min(2, availableParallelism()));
    const worker = async () => {
      for (let m = queue.shift(); m; m = queue.shift()) {
        options.log?.(`[impl ${m.id}] running the property suite against ${m.layers.impl?.patch} (seed ${seed})`);
        const r = await runOne(m, options, seed);
        options.log?.(`[impl ${m.id}] ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}`);
        results.set(m.id, r);
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
    return selected.map((m) => results.get(m.id)!);
  },
};
