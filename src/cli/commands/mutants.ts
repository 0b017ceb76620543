import { ProgressConsole, type ProgressMeter } from '../../core/progress.js';
import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { checkRunnable, LAYERS, mutantsFor, ManifestError, type Layer, type MutantEntry, type MutantManifest } from '../../core/manifest.js';
import { expectedNames, loadSystemManifest, TOUR_NAMES } from '../../registry/systems.js';
import { selectSystemNames } from '../../registry/select.js';
import { stageReport } from '../../core/stage-report.js';
import { layerRunners } from '../../mutants/layers/index.js';
import { allKilled, formatMutantTable, formatMutationScore, mutantScore } from '../../mutants/report-table.js';
import type { MutantResult } from '../../core/verdict.js';
import { shardOption, type Shard } from '../../seam/tour/shard.js';
import { inMutantShard } from '../../mutants/shard.js';
import { BaseReports } from '../../mutants/base-reports.js';
import { bySystem, DEFAULT_WORKERS, runImplOnWorkers } from '../../mutants/workers.js';

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

    const startedAt = new Date();
    let manifest: MutantManifest;
    const selection = new Map<Layer, MutantEntry[]>();
    try {
      manifest = loadSystemManifest();
      if (only) {
        const ids = manifest.mutants.map((m) => m.id);
        for (const id of only) if (!ids.includes(id)) throw new UsageError(`--only: unknown mutant '${id}' (the manifest has ${ids.join(', ')})`);
      }
      for (const layer of layers)
        selection.set(
          layer,
          mutantsFor(manifest, layer).filter((m) => (!only || only.includes(m.id)) && (!systems || systems.includes(m.system)) && inMutantShard(m, manifest, layer, sharding.shard)),
        );
      const chosen = [...selection.entries()].flatMap(([layer, ms]) => ms.map((m) => ({ layer, m })));
      // A part of more shards than its systems have entries may hold none: nothing to run, nothing failed.
      const emptyPart =
        chosen.length === 0 && sharding.shard.count > 1 && layers.some((layer) => mutantsFor(manifest, layer).some((m) => (!only || only.includes(m.id)) && (!systems || systems.includes(m.system))));
      if (chosen.length === 0 && !emptyPart)
        throw new UsageError(`no mutant of ${only ? only.join(',') : 'the manifest'}${systems ? ` (system ${systems.join(', ')})` : ''} has the layer(s) ${layers.join(', ')}`);
      // Each system's expected names (loaded only for the systems of the chosen mutants).
      const known = await expectedNames(chosen.map((c) => c.m.system));
      for (const { layer, m } of chosen) checkRunnable(m, layer, known);
    } catch (err) {
      if (err instanceof ManifestError) {
        process.stderr.write(`fencecheck mutants: ${err.message}\n`);
        return ExitCode.BadInput;
      }
      throw err;
    }
    const results: MutantResult[] = [];
    const base = new BaseReports();
    let notRun = false;
    const progress = new ProgressConsole();
    const log = (line: string) => progress.log(line);
    for (const layer of layers) {
      const selected = selection.get(layer) ?? [];
      if (selected.length === 0) continue;
      const { runner } = await layerRunners[layer]();
      const why = await runner.unavailable();
      if (why !== null) {
        notRun = true;
        for (const m of selected) results.push({ id: m.id, layer, verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason: why });
        log(`[${layer}] not run: ${why}`);
        continue;
      }
      let meter: ProgressMeter | undefined;
      const onProgress = (done: number, total: number, unit: string, note?: string) => (meter ??= progress.meter(`mutants:${layer}`, total, unit)).update(done, note);
      const opts = { only, seed, numRuns, log, onProgress, ...(sharding.shard.count > 1 ? { shard: sharding.shard } : {}), ...(sharding.report ? { onBaseReport: base.add } : {}) };
      results.push(...(await (layer === 'impl' && sharding.workers > 1 && bySystem(selected).length > 1 ? runImplOnWorkers(selected, sharding.workers, opts) : runner.run(selected, opts))));
      meter?.done();
    }
    progress.close();
    if (sharding.report) {
      // The conform stage's report covers every system with a tour whose impl entries ran here (a
      // worker: its own system), or says which gave no tour.
      const ran = new Set((selection.get('impl') ?? []).map((m) => m.system));
      base.complete(
        'conform',
        TOUR_NAMES.filter((t) => ran.has(t)),
      );
      base.write('conform', sharding.report);
    }
    const ran = results.filter((r) => r.verdict !== 'not-run');
    const notRunResults = results.filter((r) => r.verdict === 'not-run');
    const code =
      ran.length > 0 && !allKilled(ran)
        ? ExitCode.Failed
        : notRun || notRunResults.length > 0 || (ran.length === 0 && !(results.length === 0 && sharding.shard.count > 1))
          ? ExitCode.NotRun
          : ExitCode.Ok;
    if (values.json) process.stdout.write(`${JSON.stringify(mutantsReport(results, code, startedAt), null, 2)}\n`);
    else process.stdout.write(`${formatMutantTable(results)}\n\n${formatMutationScore(results)}\n`);
    return code;
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

/** The `--json` output: a StageReport of stage `mutants` whose status follows the exit code (0 passed, 1 failed, 2 not run). */
function mutantsReport(results: readonly MutantResult[], code: ExitCode, startedAt: Date) {
  const ran = results.filter((r) => r.verdict !== 'not-run');
  const killed = results.filter((r) => r.verdict === 'killed').length;
  const notKilled = ran.filter((r) => r.verdict !== 'killed');
  const notRunIds = results.filter((r) => r.verdict === 'not-run').map((r) => r.id);
  const notRunReason = results.find((r) => r.verdict === 'not-run')?.reason ?? 'no mutant ran';
  const status = code === ExitCode.Failed ? 'failed' : code === ExitCode.NotRun ? 'not-run' : 'passed';
  const summary =
    status === 'not-run'
      ? ran.length > 0
        ? `${killed}/${results.length} mutants killed; not run: ${notRunIds.join(', ')}: ${notRunReason}`
        : `not run: ${notRunReason}`
      : `${killed}/${results.length} mutants killed${notKilled.length > 0 ? `; not killed: ${notKilled.map((r) => `${r.id} ${r.verdict}`).join(', ')}` : ''}`;
  const traces = results.map((r) => r.tracePath).filter((p): p is string => typeof p === 'string');
  const score = mutantScore(results);
  return stageReport({
    stage: 'mutants',
    status,
    ...(status === 'not-run' ? { reason: notRunReason } : status === 'failed' ? { reason: summary } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    counts: { mutants: results.length, killed, notKilled: notKilled.length, notRun: notRunIds.length, ...scoreCounts(score) },
    mutants: results,
    details: { mutationScore: score },
    ...(traces.length > 0 ? { traces } : {}),
  });
}

/** The overall score as counts (`scorePercent` only when there is one: a missing score is not 0). */
function scoreCounts(s: ReturnType<typeof mutantScore>): Record<string, number> {
  const f = s.overall;
  return { ...(f.percent !== null ? { scorePercent: f.percent } : {}), scoreKilled: f.killed, scoreCounted: f.total - f.equivalent, equivalent: f.equivalent };
}
