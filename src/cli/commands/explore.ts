import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import { detailsSection } from '../../core/details-blocks.js';
import { boundsFromArgs, boundsLabel } from '../../systems/fencing/model/bounds.js';
import { ExplorationLimitError, explore, shortestCounterexample, type Exploration } from '../../systems/fencing/model/explore.js';
import { formatPath, pathToTrace, saveTrace } from '../../systems/fencing/model/trace.js';
import { loadManifest, ManifestError, mutantsFor } from '../../core/manifest.js';
import { loadModelPatch, ModelPatchError } from '../../mutants/layers/model.js';
import type { FencingOverrides } from '../../../models/fencing/index.js';

const HELP = `Usage: fencecheck explore [--pods N] [--max-gen G] [--mutant ID] [--limit N] [--json]

Explores every reachable state of the XState twin (models/fencing) with its own breadth-first walk
over the machine (every successor from machine.transition), checks every
invariant of src/systems/fencing/invariants.ts on each, and reports distinct states, states generated
(TLC's sense: the initial state plus one successor per enabled action instance), transitions, one
verdict per invariant, and the time. A broken invariant gets its shortest counterexample, printed
and saved as a fencecheck.trace/1 file under reports/traces/ (or $FENCECHECK_TRACE_DIR).

Options:
  --pods N      number of pods (default 3)
  --max-gen G   MaxGen (default 4)
  --mutant ID   explore a model mutant's machine instead (mutants/fencing/model/ID.ts from the manifest)
  --limit N     give up after N traversal steps (default 20000000): reported as not run
  --json        print a StageReport (fencecheck.stage/1)

Exit codes: 0 every invariant holds · 1 an invariant is broken · 2 not run (limit reached) ·
3 an unknown mutant or a patch that cannot be applied · 64 usage`;

export const command: Command = {
  name: 'explore',
  summary: 'explore every reachable state of the XState twin and check every invariant',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      pods: { type: 'string' },
      'max-gen': { type: 'string' },
      limit: { type: 'string' },
      mutant: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const bounds = boundsFromArgs(values);
    const limit = intOption(values, 'limit', { min: 1 });
    const startedAt = new Date();
    const out = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
    let overrides: FencingOverrides | undefined;
    if (values.mutant !== undefined) {
      try {
        const entry = mutantsFor(loadManifest(), 'model', 'fencing').find((m) => m.id === values.mutant);
        if (!entry) throw new ModelPatchError(`no model-layer mutant ${values.mutant} in the manifest`);
        overrides = await loadModelPatch(entry);
      } catch (err) {
        if (!(err instanceof ModelPatchError || err instanceof ManifestError)) throw err;
        process.stderr.write(`fencecheck explore: ${err.message}\n`);
        return ExitCode.BadInput;
      }
    }
    const label = `${boundsLabel(bounds)}${values.mutant ? `, mutant ${values.mutant}` : ''}`;

    let run: Exploration;
    try {
      run = explore({ bounds, overrides, ...(limit !== undefined ? { limit } : {}) });
    } catch (err) {
      if (!(err instanceof ExplorationLimitError)) throw err;
      const reason = `${err.message} (${label})`;
      if (values.json) {
        const report = stageReport({ stage: 'explore', status: 'not-run', reason, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary: `explore not run: ${reason}` });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else process.stderr.write(`fencecheck explore: not run: ${reason}\n`);
      return ExitCode.NotRun;
    }

    out(`explore: XState twin, ${label}`);
    out(`  ${run.distinct} distinct states, ${run.generated} states generated (${run.transitions} transitions), ${(run.durationMs / 1000).toFixed(2)} s`);
    const width = Math.max(...run.verdicts.map((v) => v.name.length));
    for (const v of run.verdicts) out(`  ${v.name.padEnd(width)}  ${v.holds ? 'holds' : `BROKEN in ${v.violatingStates} states`}`);

    const traces: string[] = [];
    for (const v of run.verdicts.filter((x) => !x.holds)) {
      const path = shortestCounterexample(bounds, overrides, v.name, limit);
      if (path === null) continue;
      const trace = pathToTrace(path, { bounds, violated: v.name, ...(values.mutant ? { mutant: values.mutant } : {}) });
      const file = saveTrace(trace, `model-explore-${values.mutant ? `${values.mutant}-` : ''}${v.name}.json`);
      traces.push(file);
      out(`\n${v.name}: shortest counterexample, ${path.length - 1} steps (${file})\n${formatPath(trace)}`);
    }
    const broken = run.verdicts.filter((v) => !v.holds).map((v) => v.name);
    const summary = `${run.distinct} distinct states, ${run.generated} generated (${label}): ${broken.length === 0 ? 'every invariant holds' : `broken: ${broken.join(', ')}`}`;
    if (values.json) {
      const counts = { distinct: run.distinct, generated: run.generated, transitions: run.transitions, explorationMs: Math.round(run.durationMs), brokenInvariants: broken.length };
      const details = { bounds, ...(values.mutant ? { mutant: values.mutant } : {}), verdicts: run.verdicts };
      const report = stageReport({
        stage: 'explore',
        status: broken.length === 0 ? 'passed' : 'failed',
        ...(broken.length > 0 ? { reason: `broken: ${broken.join(', ')}` } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
        counts,
        traces,
        // The verify reports show the counts and details as the stage's section.
        details: { ...details, sections: [detailsSection({ id: 'stage-explore', title: 'Stage: explore', counts, details })] },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    }
    return broken.length === 0 ? ExitCode.Ok : ExitCode.Failed;
  },
};
