import type { Command } from '../command.js';
import { parseCommandArgs, UsageError } from '../args.js';
import { ExitCode } from '../exit-codes.js';
import { LAYERS, loadManifest, mutantsFor, ManifestError, type Layer } from '../../mutants/manifest.js';
import { layerRunners } from '../../mutants/layers/index.js';
import { allKilled, formatMutantTable } from '../../mutants/report-table.js';
import type { MutantResult } from '../../mutants/verdict.js';

const HELP = `Usage: fencecheck mutants [--layer tla|model|impl|limiter]... [--only M1,M4] [--seed N] [--runs N] [--json]

Applies every mutant in mutants/manifest.json to the chosen layers (default: all) and requires each to
be killed by its expected invariant through the layer's ordinary checkers.

Options:
  --layer L     a layer to run (repeatable): tla (TLC), model (XState), impl (Lua + gate on Valkey), limiter
  --only IDS    comma-separated mutant ids
  --seed N      fast-check seed for property layers
  --runs N      fast-check runs per mutant for property layers
  --json        print the results as JSON instead of a table

Exit codes: 0 every mutant killed · 1 a mutant survived, hit another invariant, or was invalid/timed out ·
2 a layer could not run (the reason is printed) · 3 bad manifest · 64 usage`;

export const command: Command = {
  name: 'mutants',
  summary: 'apply every mutant to each layer and require it killed',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      layer: { type: 'string', multiple: true },
      only: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const layers = (values.layer ?? [...LAYERS]) as Layer[];
    for (const l of layers) if (!LAYERS.includes(l)) throw new UsageError(`unknown layer '${l}' (one of ${LAYERS.join(', ')})`);
    const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
    const seed = values.seed !== undefined ? Number(values.seed) : undefined;
    const numRuns = values.runs !== undefined ? Number(values.runs) : undefined;
    if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError('--seed takes an integer');
    if (numRuns !== undefined && !(Number.isInteger(numRuns) && numRuns > 0)) throw new UsageError('--runs takes a positive integer');

    let manifest;
    try {
      manifest = loadManifest();
    } catch (err) {
      if (err instanceof ManifestError) {
        process.stderr.write(`fencecheck mutants: ${err.message}\n`);
        return ExitCode.BadInput;
      }
      throw err;
    }
    const results: MutantResult[] = [];
    let notRun = false;
    const log = (line: string) => process.stderr.write(`${line}\n`);
    for (const layer of layers) {
      const { runner } = await layerRunners[layer]();
      const selected = mutantsFor(manifest, layer).filter((m) => !only || only.includes(m.id));
      const why = await runner.unavailable();
      if (why !== null) {
        notRun = true;
        for (const m of selected) results.push({ id: m.id, layer, verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason: why });
        log(`[${layer}] not run: ${why}`);
        continue;
      }
      results.push(...(await runner.run(selected, { only, seed, numRuns, log })));
    }
    process.stdout.write(values.json ? `${JSON.stringify(results, null, 2)}\n` : `${formatMutantTable(results)}\n`);
    const ran = results.filter((r) => r.verdict !== 'not-run');
    if (ran.length > 0 && !allKilled(ran)) return ExitCode.Failed;
    return notRun ? ExitCode.NotRun : ExitCode.Ok;
  },
};
