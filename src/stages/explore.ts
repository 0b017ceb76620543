/**
 * The explore stage: every reachable state of each system's XState twin, every invariant on each;
 * a broken one gets its shortest counterexample, saved as the system's trace. `fencecheck explore`
 * parses its options, runs this and prints the report.
 */
import { constantsOption } from '../core/args.js';
import { detailsSection } from '../core/details-blocks.js';
import { ManifestError, mutantsFor } from '../core/manifest.js';
import { StageInputError, type StageIO } from '../core/stage.js';
import { stageReport, type StageReport } from '../core/stage-report.js';
import { exploreSystem, SystemExplorationLimitError, type SystemExploration } from '../seam/explore.js';
import { ModelPatchError, mutatedSystem } from '../seam/model-patch.js';
import { boundsLabel } from '../seam/system.js';
import { formatTracePath, pathToTrace, saveTrace } from '../seam/trace.js';
import { selectModels } from '../registry/select.js';
import { loadSystemManifest, type AnySystem } from '../registry/systems.js';

export interface ExploreInput {
  /** `--system` values (default: every system with a model). */
  readonly systems?: readonly string[];
  /** TLA+ constants (`NAME=VALUE`) of the one system chosen. */
  readonly constants?: readonly string[];
  /** A model mutant's machine instead of the system's own. */
  readonly mutant?: string;
  /** Transitions per system before giving up (not run). */
  readonly limit?: number;
}

export async function exploreStage(input: ExploreInput, io: StageIO): Promise<StageReport> {
  let systems = await selectModels(input.systems, constantsOption(input.constants));
  const startedAt = new Date();
  const out = (line: string) => io.log(line);
  if (input.mutant !== undefined) {
    try {
      const entry = mutantsFor(loadSystemManifest(), 'model').find((m) => m.id === input.mutant);
      if (!entry) throw new ModelPatchError(`no model-layer mutant ${input.mutant} in the manifest`);
      const sys = systems.find((s) => s.name === entry.system);
      if (!sys) throw new ModelPatchError(`${input.mutant} is a ${entry.system} mutant: explore it with --system ${entry.system} (or without --system)`);
      systems = [await mutatedSystem(sys, entry)];
    } catch (err) {
      if (!(err instanceof ModelPatchError || err instanceof ManifestError)) throw err;
      throw new StageInputError(err.message);
    }
  }

  const runs: { sys: AnySystem; run: SystemExploration<unknown, unknown> }[] = [];
  for (const sys of systems) {
    try {
      runs.push({ sys, run: exploreSystem(sys, input.limit !== undefined ? { limit: input.limit } : {}) });
    } catch (err) {
      if (!(err instanceof SystemExplorationLimitError)) throw err;
      const reason = `${err.message} (${boundsLabel(sys.bounds)})`;
      return stageReport({ stage: 'explore', status: 'not-run', reason, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary: `explore not run: ${reason}` });
    }
  }

  const counts: Record<string, number> = {};
  const lines: string[] = [];
  const broken: string[] = [];
  const traces: string[] = [];
  for (const { sys, run } of runs) {
    const label = `${sys.name} (${boundsLabel(sys.bounds)})`;
    out(`explore: ${label}`);
    out(`  ${run.distinct} distinct states, ${run.generated} states generated (${run.transitions} transitions), ${(run.durationMs / 1000).toFixed(2)} s`);
    const width = Math.max(...run.verdicts.map((v) => v.name.length));
    for (const v of run.verdicts) out(`  ${v.name.padEnd(width)}  ${v.holds ? 'holds' : `BROKEN in ${v.violatingStates} states`}`);
    for (const v of run.verdicts.filter((x) => !x.holds)) {
      const path = run.counterexample(v.name)!;
      const trace = pathToTrace(sys, path, { violated: v.name, ...(input.mutant ? { mutant: input.mutant } : {}) });
      const file = saveTrace(trace, `model-explore-${sys.name.replace(/\//g, '-')}-${v.name}.json`);
      traces.push(file);
      out(`\n${sys.name} ${v.name}: shortest counterexample, ${path.length - 1} steps (${file})\n${formatTracePath(trace)}`);
      broken.push(`${sys.name} ${v.name}`);
    }
    const prefix = runs.length > 1 ? `${sys.name}.` : '';
    Object.assign(counts, {
      [`${prefix}distinct`]: run.distinct,
      [`${prefix}generated`]: run.generated,
      [`${prefix}transitions`]: run.transitions,
      [`${prefix}explorationMs`]: Math.round(run.durationMs),
    });
    lines.push(`${runs.length > 1 ? `${sys.name}: ` : ''}${run.distinct} distinct states, ${run.generated} generated (${boundsLabel(sys.bounds)})`);
  }
  counts.brokenInvariants = broken.length;
  const details = { systems: runs.map(({ sys, run }) => ({ system: sys.name, bounds: sys.bounds, ...(input.mutant ? { mutant: input.mutant } : {}), verdicts: run.verdicts })) };
  const summary = `${lines.join('; ')}: ${broken.length === 0 ? 'every invariant holds' : `broken: ${broken.join(', ')}`}`;
  return stageReport({
    stage: 'explore',
    status: broken.length === 0 ? 'passed' : 'failed',
    ...(broken.length > 0 ? { reason: `broken: ${broken.join(', ')}` } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    counts,
    ...(traces.length > 0 && { traces }),
    // The verify reports show the counts and details as the stage's section.
    details: { ...details, sections: [detailsSection({ id: 'stage-explore', title: 'Stage: explore', counts, details })] },
  });
}
