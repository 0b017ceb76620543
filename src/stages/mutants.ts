/**
 * The mutant layer stages (`mutants:tla`, `mutants:model`, `mutants:impl`): every mutant of the
 * manifest applied to a layer through its ordinary checkers, each required killed by its expected
 * invariant; one report whose status follows the results. `fencecheck mutants` parses its options,
 * runs this and prints the report (its `--patch` judging is src/cli/commands/mutants-patch.ts).
 */
import { ExitCode } from '../core/exit-codes.js';
import { UsageError } from '../core/args.js';
import { checkRunnable, mutantsFor, ManifestError, type Layer, type MutantEntry, type MutantManifest } from '../core/manifest.js';
import { ProgressConsole, type ProgressMeter } from '../core/progress.js';
import { StageInputError } from '../core/stage.js';
import { stageReport, type StageReport } from '../core/stage-report.js';
import type { MutantResult } from '../core/verdict.js';
import { WHOLE, type Shard } from '../seam/tour/shard.js';
import { expectedNames, loadSystemManifest, TOUR_NAMES } from '../registry/systems.js';
import { BaseReports } from '../mutants/base-reports.js';
import { layerRunners } from '../mutants/layers/index.js';
import { allKilled, mutantScore } from '../mutants/report-table.js';
import { inMutantShard } from '../mutants/shard.js';
import { bySystem, DEFAULT_WORKERS, runImplOnWorkers } from '../mutants/workers.js';

export interface MutantsInput {
  readonly layers: readonly Layer[];
  /** Only the mutants of these systems. */
  readonly systems?: readonly string[];
  /** Only these mutant ids. */
  readonly only?: readonly string[];
  readonly seed?: number;
  readonly numRuns?: number;
  /** The impl layer's part: each system's entries dealt round-robin. */
  readonly shard?: Shard;
  /** The impl layer's worker processes at once. */
  readonly workers?: number;
  /** The impl layer writes its unpatched tours' report, the conform stage's, here. */
  readonly conformReport?: string;
}

export async function mutantsStage(input: MutantsInput): Promise<StageReport> {
  const layers = input.layers;
  const systems = input.systems;
  const only = input.only;
  const seed = input.seed;
  const numRuns = input.numRuns;
  const shard = input.shard ?? WHOLE;
  const workers = input.workers ?? DEFAULT_WORKERS;
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
        mutantsFor(manifest, layer).filter((m) => (!only || only.includes(m.id)) && (!systems || systems.includes(m.system)) && inMutantShard(m, manifest, layer, shard)),
      );
    const chosen = [...selection.entries()].flatMap(([layer, ms]) => ms.map((m) => ({ layer, m })));
    // A part of more shards than its systems have entries may hold none: nothing to run, nothing failed.
    const emptyPart =
      chosen.length === 0 && shard.count > 1 && layers.some((layer) => mutantsFor(manifest, layer).some((m) => (!only || only.includes(m.id)) && (!systems || systems.includes(m.system))));
    if (chosen.length === 0 && !emptyPart)
      throw new UsageError(`no mutant of ${only ? only.join(',') : 'the manifest'}${systems ? ` (system ${systems.join(', ')})` : ''} has the layer(s) ${layers.join(', ')}`);
    // Each system's expected names (loaded only for the systems of the chosen mutants).
    const known = await expectedNames(chosen.map((c) => c.m.system));
    for (const { layer, m } of chosen) checkRunnable(m, layer, known);
  } catch (err) {
    if (err instanceof ManifestError) throw new StageInputError(err.message);
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
    const opts = { only, seed, numRuns, log, onProgress, ...(shard.count > 1 ? { shard: shard } : {}), ...(input.conformReport ? { onBaseReport: base.add } : {}) };
    results.push(...(await (layer === 'impl' && workers > 1 && bySystem(selected).length > 1 ? runImplOnWorkers(selected, workers, opts) : runner.run(selected, opts))));
    meter?.done();
  }
  progress.close();
  if (input.conformReport) {
    // The conform stage's report covers every system with a tour whose impl entries ran here (a
    // worker: its own system), or says which gave no tour.
    const ran = new Set((selection.get('impl') ?? []).map((m) => m.system));
    base.complete(
      'conform',
      TOUR_NAMES.filter((t) => ran.has(t)),
    );
    base.write('conform', input.conformReport);
  }
  const ranResults = results.filter((r) => r.verdict !== 'not-run');
  const notRunResults = results.filter((r) => r.verdict === 'not-run');
  const code =
    ranResults.length > 0 && !allKilled(ranResults)
      ? ExitCode.Failed
      : notRun || notRunResults.length > 0 || (ranResults.length === 0 && !(results.length === 0 && shard.count > 1))
        ? ExitCode.NotRun
        : ExitCode.Ok;
  return mutantsReport(results, code, startedAt);
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
