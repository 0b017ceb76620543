import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ManifestError, mutantsFor } from '../../core/manifest.js';
import { stageReport } from '../../core/stage-report.js';
import { exploreSystem, SystemExplorationLimitError, type SystemExploration } from '../../seam/explore.js';
import { ModelPatchError, mutatedSystem } from '../../seam/model-patch.js';
import { boundsLabel } from '../../seam/system.js';
import { formatTracePath, pathToTrace, saveTrace } from '../../seam/trace.js';
import { loadSystemManifest, type AnySystem } from '../../registry/systems.js';
import { selectModels } from '../../registry/select.js';
import { detailsSection } from '../../core/details-blocks.js';

const HELP = `Usage: fencecheck explore [--system NAME]... [--const NAME=VALUE]... [--mutant ID] [--limit N] [--json]

Explores every reachable state of each system's XState twin (models/<system>/) breadth-first over the
machine's own transition function, checks every invariant of the spec on each, and reports distinct
states, states generated (TLC's sense: the initial states plus one successor per enabled action
instance), transitions, one verdict per invariant, and the time. A broken invariant gets its shortest
counterexample, printed step by step and saved as the system's trace (fencecheck.trace/2) under
reports/traces/ (\`fencecheck trace show|replay FILE\`).

Options:
  --system NAME     a system with a model (repeatable, or all; default all)
  --const N=V       a TLA+ constant of the one --system chosen, as TLC reads it (e.g. --const Pods=4
                    --const MaxGen=6 for fencing; default: the spec's base config)
  --mutant ID       explore a model mutant's machine instead (its model patch from the manifest)
  --limit N         give up after N transitions per system (default 20000000): reported as not run
  --json            print a StageReport (fencecheck.stage/1)

Exit codes: 0 every invariant holds · 1 an invariant is broken · 2 not run (limit reached) ·
3 an unknown mutant or a patch that cannot be applied · 64 usage`;

export const command: Command = {
  name: 'explore',
  summary: 'explore every reachable state of each XState twin and check every invariant',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      system: { type: 'string', multiple: true },
      const: { type: 'string', multiple: true },
      limit: { type: 'string' },
      mutant: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const limit = intOption(values, 'limit', { min: 1 });
    let systems = await selectModels(values.system, constantsOption(values.const));
    const startedAt = new Date();
    const out = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
    if (values.mutant !== undefined) {
      try {
        const entry = mutantsFor(loadSystemManifest(), 'model').find((m) => m.id === values.mutant);
        if (!entry) throw new ModelPatchError(`no model-layer mutant ${values.mutant} in the manifest`);
        const sys = systems.find((s) => s.name === entry.system);
        if (!sys) throw new ModelPatchError(`${values.mutant} is a ${entry.system} mutant: explore it with --system ${entry.system} (or without --system)`);
        systems = [await mutatedSystem(sys, entry)];
      } catch (err) {
        if (!(err instanceof ModelPatchError || err instanceof ManifestError)) throw err;
        process.stderr.write(`fencecheck explore: ${err.message}\n`);
        return ExitCode.BadInput;
      }
    }

    const runs: { sys: AnySystem; run: SystemExploration<unknown, unknown> }[] = [];
    for (const sys of systems) {
      try {
        runs.push({ sys, run: exploreSystem(sys, limit !== undefined ? { limit } : {}) });
      } catch (err) {
        if (!(err instanceof SystemExplorationLimitError)) throw err;
        const reason = `${err.message} (${boundsLabel(sys.bounds)})`;
        if (values.json) {
          const report = stageReport({
            stage: 'explore',
            status: 'not-run',
            reason,
            startedAt: startedAt.toISOString(),
            durationMs: Date.now() - startedAt.getTime(),
            summary: `explore not run: ${reason}`,
          });
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        } else process.stderr.write(`fencecheck explore: not run: ${reason}\n`);
        return ExitCode.NotRun;
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
        const trace = pathToTrace(sys, path, { violated: v.name, ...(values.mutant ? { mutant: values.mutant } : {}) });
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
    const details = { systems: runs.map(({ sys, run }) => ({ system: sys.name, bounds: sys.bounds, ...(values.mutant ? { mutant: values.mutant } : {}), verdicts: run.verdicts })) };
    const summary = `${lines.join('; ')}: ${broken.length === 0 ? 'every invariant holds' : `broken: ${broken.join(', ')}`}`;
    if (values.json) {
      const report = stageReport({
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
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    }
    return broken.length === 0 ? ExitCode.Ok : ExitCode.Failed;
  },
};
