import { importDefault } from '../../core/import-default.js';
import type { LayerRunner, LayerRunOptions } from '../../seam/layer-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import type { LimiterPatch } from '../../systems/limiter/patch.js';
import { startTopology, valkeyUnavailableReason, type Topology } from '../../valkey/index.js';
import { replayHint, runLimiterProperty } from '../../../properties/limiter/property.js';
import { asInfrastructureFault, describeFault } from '../../valkey/fault.js';

/** fast-check runs per mutant when --runs is not given. Every mutant so far dies within ~20. */
export const DEFAULT_LIMITER_MUTANT_RUNS = 300;

/**
 * The limiter layer: each mutant (mutants/limiter/impl/Lx.ts, a LimiterPatch) is deployed in place of the
 * shipped limiter and the ordinary limiter property (properties/limiter) runs against it on a
 * standalone Valkey with lost-reply faults. The property reports which check broke; it never
 * learns which mutant is active. The unpatched limiter must pass the same property first.
 */
export const runner: LayerRunner = {
  layer: 'limiter',
  unavailable: valkeyUnavailableReason,
  async run(mutants, options) {
    const log = options.log ?? (() => {});
    const topology = await startTopology({ kind: 'standalone' });
    try {
      const base = await runLimiterProperty({ topology, numRuns: Math.min(options.numRuns ?? DEFAULT_LIMITER_MUTANT_RUNS, 200), ...seedOf(options) });
      // Faults are not verdicts: a fault is not-run for every mutant, never killed or survived.
      if (base.fault) {
        const reason = `could not run the unpatched limiter's property: ${describeFault(base.fault)}`;
        log(`[limiter] ${reason}`);
        return mutants.map((m) => ({ id: m.id, layer: 'limiter', verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason }));
      }
      if (!base.passed) {
        const reason = `the unpatched limiter fails its own property (${base.violated}; replay ${replayHint(base)}): ${base.message}`;
        log(`[limiter] ${reason}`);
        return mutants.map((m) => ({ id: m.id, layer: 'limiter', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason }));
      }
      const results: MutantResult[] = [];
      for (const m of mutants) {
        // After a fault the servers are not to be trusted: the remaining mutants are not-run with it.
        const faulted = results.find((r) => r.verdict === 'not-run');
        if (faulted) {
          results.push({ id: m.id, layer: 'limiter', verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason: faulted.reason ?? 'an earlier fault' });
          continue;
        }
        results.push(await runOne(topology, m, options));
        log(`[limiter] ${m.id}: ${results.at(-1)!.verdict}`);
      }
      return results;
    } finally {
      await topology.stop();
    }
  },
};

function seedOf(options: LayerRunOptions): { seed?: number } {
  return options.seed !== undefined ? { seed: options.seed } : {};
}

async function runOne(topology: Topology, m: MutantEntry, options: LayerRunOptions): Promise<MutantResult> {
  const head = { id: m.id, layer: 'limiter' as const, expectedInvariant: m.expectedInvariant };
  const file = m.layers.limiter?.patch;
  if (!file) return { ...head, verdict: 'invalid', reason: 'no limiter patch module in the manifest' };
  const started = Date.now();
  let patch: LimiterPatch;
  try {
    patch = (await importDefault(file, projectRoot)) as LimiterPatch;
  } catch (err) {
    return { ...head, verdict: 'invalid', reason: `cannot load ${file}: ${(err as Error).message}` };
  }
  try {
    const r = await runLimiterProperty({ topology, numRuns: options.numRuns ?? DEFAULT_LIMITER_MUTANT_RUNS, patch, ...seedOf(options) });
    const durationMs = Date.now() - started;
    if (r.fault) return { ...head, verdict: 'not-run', durationMs, reason: `could not run: ${describeFault(r.fault)}` };
    if (r.passed) return { ...head, verdict: 'survived', seed: r.seed, durationMs, reason: `${r.numRuns} generated cases passed (seed ${r.seed})` };
    // The one command that reproduces the counterexample: the patched limiter, this seed and path.
    const replay = { seed: r.seed, ...(r.path ? { path: r.path } : {}), durationMs, replay: `fencecheck limiter --topology standalone --no-invariants --patch ${file} ${replayHint(r)}` };
    if (r.violated === 'error') return { ...head, verdict: 'invalid', ...replay, reason: `the property run failed: ${r.message}` };
    const verdict = r.violated === m.expectedInvariant ? 'killed' : 'wrong-invariant';
    return { ...head, verdict, violated: r.violated!, ...replay, ...(verdict === 'killed' ? {} : { reason: r.message ?? '' }) };
  } catch (err) {
    const fault = asInfrastructureFault(err);
    if (fault) return { ...head, verdict: 'not-run', durationMs: Date.now() - started, reason: `could not run: ${fault.message}` };
    // A patch that no longer applies to the script (replaceOnce) or a script that fails the static check.
    return { ...head, verdict: 'invalid', durationMs: Date.now() - started, reason: (err as Error).message };
  }
}
