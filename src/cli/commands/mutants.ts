import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { LAYERS, type Layer } from '../../core/manifest.js';
import { selectSystemNames } from '../../registry/select.js';
import { formatMutantTable, formatMutationScore } from '../../mutants/report-table.js';
import { shardOption, type Shard } from '../../seam/tour/shard.js';
import { DEFAULT_WORKERS } from '../../mutants/workers.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck mutants [--layer tla|model|impl]... [--system NAME]... [--only M1,M4] [--seed N] [--runs N] [--json]
       fencecheck mutants --patch FILE [--expect INVARIANT] [--system NAME] [--const NAME=VALUE]... [--seed N] [--runs N] [--json]

Applies every mutant in mutants/manifest.json to the chosen layers (default: all) and requires each to
be killed by its expected invariant through the layer's ordinary checkers.

Options:
  --layer L     a layer to run (repeatable): tla (TLC), model (XState), impl (the real code)
  --system S    only the mutants of this system (repeatable)
  --only IDS    comma-separated mutant ids
  --seed N      fast-check seed for property layers
  --runs N      fast-check runs per mutant for property layers
  --patch FILE  run your own implementation patch (a module default-exporting its system's patch type)
                on its system (the system whose patch it is, or --system), the unpatched code first,
                reported like a manifest mutant. A system with a tour judges it as conform --patch
                does (the whole tour: killed by the check named, equivalent, survived; docs/conform.md);
                a system without one by its ordinary impl checks together (property runs and
                invariant tests: killed by the check named, or survived)
  --expect INV  with --patch: the impl layer's run of a manifest mutant, this invariant alone kills it
                (another is wrong-invariant)
  --const N=V   with --patch on a system with a tour, no --expect: a TLA+ constant of the tour's bounds
  --shard I/N   impl layer: each system's entries dealt round-robin to N shards, this one's run
                (the unpatched tour then runs shard I of its states; the shards' reports merge)
  --workers N   impl layer: each system's entries on a worker process of its own with its own
                Valkey, N at once (default: the core count + 1, ${DEFAULT_WORKERS} here)
  --conform-report FILE  impl layer: write the unpatched tour's report, the conform stage's, to FILE
  --json        print a StageReport (fencecheck.stage/1, stage "mutants") with every result in "mutants"

Exit codes: 0 every mutant killed · 1 a mutant survived, hit another invariant, or was invalid/timed out ·
2 a layer or a mutant could not run (the reason is printed) · 3 bad manifest (an unknown
expectedInvariant, a missing config or patch file; a --patch FILE that is missing, cannot be loaded or run, or
is no patch of its system) · 64 usage (an unknown layer or mutant id)`;

export const command: Command = {
  name: 'mutants',
  summary: 'apply every mutant to each layer and require it killed',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      layer: { type: 'string', multiple: true },
      system: { type: 'string', multiple: true },
      only: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      patch: { type: 'string' },
      expect: { type: 'string' },
      const: { type: 'string', multiple: true },
      shard: { type: 'string' },
      workers: { type: 'string' },
      'conform-report': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.expect !== undefined && values.patch === undefined) throw new UsageError('--expect applies to --patch FILE (a manifest mutant names its own expectedInvariant)');
    if (values.const !== undefined && (values.patch === undefined || values.expect !== undefined))
      throw new UsageError('--const applies to --patch FILE without --expect (the tour it is judged on; the impl layer runs at its own bounds)');
    if (values.patch !== undefined) {
      if (values.only !== undefined || values.layer?.some((l) => l !== 'impl')) throw new UsageError('--patch runs the impl layer alone: give no --only and no --layer other than impl');
      if (values.shard !== undefined || values.workers !== undefined || values['conform-report'] !== undefined)
        throw new UsageError("--patch runs one patch: --shard, --workers and --conform-report apply to the manifest's mutants");
      const { mutantsPatch } = await import('./mutants-patch.js');
      const seed = intOption(values, 'seed', SEED_RANGE);
      const numRuns = intOption(values, 'runs', { min: 1, max: 1_000_000 });
      return mutantsPatch({
        file: values.patch,
        ...(values.system ? { systems: values.system } : {}),
        ...(values.expect !== undefined ? { expect: values.expect } : {}),
        constants: constantsOption(values.const),
        ...(seed !== undefined ? { seed } : {}),
        ...(numRuns !== undefined ? { numRuns } : {}),
        json: values.json,
      });
    }
    const sharding = implOnlyOptions(values, values.layer);
    const layers = (values.layer ?? [...LAYERS]) as Layer[];
    for (const l of layers) if (!LAYERS.includes(l)) throw new UsageError(`unknown layer '${l}' (one of ${LAYERS.join(', ')})`);
    const systems = values.system ? selectSystemNames(values.system, { models: false }) : undefined;
    const only = values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const seed = intOption(values, 'seed', SEED_RANGE);
    const numRuns = intOption(values, 'runs', { min: 1, max: 1_000_000 });

    const { mutantsStage } = await import('../../stages/mutants.js');
    return runAndPrint('mutants', { json: values.json, human: (r) => process.stdout.write(`${formatMutantTable(r.mutants ?? [])}\n\n${formatMutationScore(r.mutants ?? [])}\n`) }, () =>
      mutantsStage({
        layers,
        ...(systems ? { systems } : {}),
        ...(only ? { only } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(numRuns !== undefined ? { numRuns } : {}),
        shard: sharding.shard,
        workers: sharding.workers,
        ...(sharding.report !== undefined ? { conformReport: sharding.report } : {}),
      }),
    );
  },
};

/** --shard, --workers and --conform-report: options of the impl layer alone. */
function implOnlyOptions(values: { shard?: string; workers?: string; 'conform-report'?: string }, layers: readonly string[] | undefined): { shard: Shard; workers: number; report?: string } {
  const given = (['shard', 'workers', 'conform-report'] as const).filter((k) => values[k] !== undefined);
  if (given.length > 0 && (layers?.length !== 1 || layers[0] !== 'impl')) throw new UsageError(`--${given[0]} applies to --layer impl alone`);
  const shard: Shard = shardOption(values.shard);
  const workers = intOption(values, 'workers', { min: 1, max: 64, default: DEFAULT_WORKERS });
  return { shard, workers, ...(values['conform-report'] !== undefined ? { report: values['conform-report'] } : {}) };
}
