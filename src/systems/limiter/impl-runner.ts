/**
 * The ordered limiter's implementation layer: each mutant (mutants/limiter/impl/Lx.ts, a
 * LimiterPatch) is deployed in place of the shipped limiter and the ordinary limiter property
 * (properties/limiter) runs against it on a standalone Valkey with lost-reply faults. The property
 * reports which check broke; it never learns which mutant is active. The unpatched limiter passes
 * the same property first (src/seam/impl-runner.ts).
 */
import { importDefault } from '../../core/import-default.js';
import type { MutantEntry } from '../../core/manifest.js';
import { projectRoot } from '../../core/project-root.js';
import type { MutantResult } from '../../core/verdict.js';
import { runImplEntries, type ImplOutcome } from '../../seam/impl-runner.js';
import type { LayerRunOptions } from '../../seam/layer-runner.js';
import { asInfrastructureFault, describeFault } from '../../valkey/fault.js';
import { startTopology, ValkeyUnavailableError, type Topology } from '../../valkey/index.js';
import { replayHint, runLimiterProperty, type LimiterPropertyResult } from '../../../properties/limiter/property.js';
import type { LimiterPatch } from './patch.js';

/** fast-check runs per mutant when --runs is not given. Every mutant so far dies within ~20. */
export const DEFAULT_LIMITER_MUTANT_RUNS = 300;

function fault(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

function outcomeOf(r: LimiterPropertyResult, patch?: string): ImplOutcome {
  if (r.fault) return { kind: 'not-run', detail: `could not run: ${describeFault(r.fault)}` };
  if (r.passed) return { kind: 'held', detail: `${r.numRuns} generated cases passed (seed ${r.seed})`, extra: { seed: r.seed } };
  // '=': a negative seed must not read as an option (src/core/args.ts).
  const replay = patch && r.path ? `fencecheck limiter --topology standalone --no-invariants --patch ${patch} --seed=${r.seed} --path=${r.path}` : undefined;
  const extra = { seed: r.seed, ...(r.path ? { path: r.path } : {}), ...(replay ? { replay } : {}) };
  if (r.violated === 'error') return { kind: 'invalid', detail: `the property run failed: ${r.message}`, extra };
  return { kind: 'violated', checks: [r.violated!], detail: `${r.message ?? r.violated}; replay ${replayHint(r)}`, extra };
}

export function runLimiterEntries(entries: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> {
  const seed = options.seed !== undefined ? { seed: options.seed } : {};
  const runs = options.numRuns ?? DEFAULT_LIMITER_MUTANT_RUNS;
  return runImplEntries<Topology, LimiterPatch>(entries, options, {
    unit: 'runs',
    open: () => startTopology({ kind: 'standalone' }),
    close: (t) => t.stop(),
    base: async (topology) => outcomeOf(await runLimiterProperty({ topology, numRuns: Math.min(runs, 200), ...seed })),
    loadPatch: async (m) => {
      const file = m.layers.impl?.patch;
      if (!file) throw new Error('no limiter patch module in the manifest');
      return (await importDefault(file, projectRoot)) as LimiterPatch;
    },
    mutant: async (topology, m, patch) => outcomeOf(await runLimiterProperty({ topology, numRuns: runs, patch, ...seed }), m.layers.impl?.patch),
    fault,
  });
}
