/**
 * `fencecheck mutants --patch FILE [--expect INVARIANT]`: a user's own patch, reported like a
 * manifest mutant, through the impl layer. Without `--expect`, on a system with a tour, the layer
 * judges it as `conform --patch` judges it (src/seam/tour/patch-mutant.ts: the whole tour, the
 * verdict patchVerdict's). With `--expect` (or on a system without a tour) it runs through its
 * system's impl runner like a manifest mutant: the unpatched code first, only that invariant kills it (another is
 * wrong-invariant). Exit codes as `mutants`: 0 killed, 1 not killed, 2 not run, 3 a file that is no
 * patch of the system or whose code cannot run.
 */
import { UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ProgressConsole, type ProgressMeter } from '../../core/progress.js';
import { stageReport } from '../../core/stage-report.js';
import type { MutantResult } from '../../core/verdict.js';
import { formatMutantTable } from '../../mutants/report-table.js';
import { layerRunners } from '../../mutants/layers/index.js';
import { PatchFileError, userPatchEntry } from '../../seam/patch-file.js';
import { judgePatchByChecks, type PatchChecks } from '../../seam/patch-checks.js';
import { EVERY_INVARIANT } from '../../seam/tour/entry.js';
import type { TracePatch } from '../../core/trace-format.js';
import type { MutantEntry } from '../../core/manifest.js';
import { selectModels } from '../../registry/select.js';
import { expectedNames } from '../../registry/systems.js';
import { patchTarget, PatchTargetError } from './patch-target.js';

export interface MutantsPatchInput {
  readonly file: string;
  readonly systems?: readonly string[];
  readonly expect?: string;
  /** The tour's bounds (--const), without --expect. */
  readonly constants?: Readonly<Record<string, string>>;
  readonly seed?: number;
  readonly numRuns?: number;
  readonly json: boolean;
}

const refuse = (line: string): ExitCode => {
  process.stderr.write(`fencecheck mutants: ${line}\n`);
  return ExitCode.BadInput;
};

export async function mutantsPatch(input: MutantsPatchInput): Promise<ExitCode> {
  const startedAt = new Date();
  let target;
  try {
    target = await patchTarget(input.file, input.systems, false);
  } catch (err) {
    if (err instanceof PatchTargetError) return refuse(err.message);
    throw err;
  }
  const known = (await expectedNames([target.system]))[target.system] ?? [];
  if (input.expect !== undefined && !known.includes(input.expect)) throw new UsageError(`--expect: unknown invariant '${input.expect}' of ${target.system} (${known.join(', ')})`);
  if (input.expect === undefined && !target.tour && !target.checks)
    throw new UsageError(`--expect INVARIANT is needed for a ${target.system} patch (its impl runner judges one named check: ${known.join(', ')})`);
  const entry = userPatchEntry(target.record, target.system, input.expect ?? EVERY_INVARIANT);
  if (input.expect === undefined && !target.tour && target.checks) {
    if (input.constants !== undefined && Object.keys(input.constants).length > 0) throw new UsageError('--const applies to --patch FILE without --expect on a system with a tour');
    const r = await judgedByChecks(target.checks, target.record, entry, input);
    if (typeof r === 'string') return refuse(`${input.file}: ${r}`);
    return report(input, target, entry, r, startedAt);
  }
  const constants = input.constants ?? {};
  if (input.expect !== undefined && Object.keys(constants).length > 0) throw new UsageError('--const applies to --patch FILE without --expect on a system with a tour');
  // The tour's constants checked before anything runs (an unknown one is usage).
  if (Object.keys(constants).length > 0) await selectModels([target.system], constants);
  const progress = new ProgressConsole();
  // A runner's line carries an invalid run's stack after its first line: the user's patch gets the first.
  const log = (line: string) => progress.log(line.split('\n')[0]!);
  log(`[impl] ${entry.id}: ${target.system}, sha256 ${target.record.sha256.slice(0, 12)}…, ${input.expect ? `expected ${input.expect}` : 'any invariant kills it'}`);
  const { runner } = await layerRunners.impl();
  let results: MutantResult[];
  const why = await runner.unavailable();
  if (why !== null) results = [{ id: entry.id, layer: 'impl', verdict: 'not-run', expectedInvariant: entry.expectedInvariant, reason: why }];
  else {
    let meter: ProgressMeter | undefined;
    const onProgress = (done: number, total: number, unit: string, note?: string) => (meter ??= progress.meter('mutants:impl', total, unit)).update(done, note);
    // Without --expect on a system with a tour the layer judges it as `conform --patch` does (src/seam/tour/patch-mutant.ts).
    results = await runner.run([entry], {
      log,
      onProgress,
      ...(Object.keys(constants).length > 0 ? { constants } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.numRuns !== undefined ? { numRuns: input.numRuns } : {}),
    });
    meter?.done();
  }
  progress.close();
  const r = results[0];
  if (!r) throw new Error(`the impl layer returned no result for ${entry.id}`);
  // A file the system's runner cannot take as its patch, or whose code cannot run, is bad input, not
  // a verdict; an unpatched run that fails is the layer's own finding.
  if (r.verdict === 'invalid' && (r.invalidBy === 'patch' || r.invalidBy === 'run')) {
    const why = (r.reason ?? 'invalid')
      .replace(/^patch:\s*/, '')
      .split('\n')[0]!
      .replace(/^[A-Za-z]*Error: /, '');
    return refuse(`${input.file}: ${r.invalidBy === 'patch' ? '' : 'the patched code cannot run: '}${why}`);
  }
  return report(input, target, entry, r, startedAt);
}

/** The patch judged by its system's ordinary impl checks together (no tour), as a mutant's result; a string: why the patch is bad input. */
async function judgedByChecks(checks: PatchChecks, record: TracePatch, entry: MutantEntry, input: MutantsPatchInput): Promise<MutantResult | string> {
  const head = { id: entry.id, layer: 'impl' as const, expectedInvariant: 'any' };
  const progress = new ProgressConsole();
  const log = (line: string) => progress.log(line);
  const opts = { log, ...(input.seed !== undefined ? { seed: input.seed } : {}), ...(input.numRuns !== undefined ? { numRuns: input.numRuns } : {}) };
  const t0 = performance.now();
  let j;
  try {
    j = await judgePatchByChecks((patch) => checks.run({ ...opts, ...(patch ? { patch } : {}) }), record);
  } catch (err) {
    if (err instanceof PatchFileError) return err.message;
    throw err;
  } finally {
    progress.close();
  }
  const durationMs = Math.round(performance.now() - t0);
  if (j.kind === 'not-run') return { ...head, verdict: 'not-run', reason: j.why, durationMs };
  const v = j.verdict;
  if (v.kind === 'unjudged') return { ...head, verdict: 'invalid', invalidBy: 'unpatched', reason: `the unpatched code fails its checks: ${v.why}`, durationMs };
  if (v.kind === 'killed') return { ...head, verdict: 'killed', violated: v.check, reason: `${v.check}: ${v.failure.message}`, ...(v.result.replay ? { replay: v.result.replay } : {}), durationMs };
  return { ...head, verdict: 'survived', reason: `every check held (${v.result.summary})`, durationMs };
}

function report(input: MutantsPatchInput, target: { readonly system: string; readonly record: TracePatch }, entry: MutantEntry, r: MutantResult, startedAt: Date): ExitCode {
  const code = r.verdict === 'killed' ? ExitCode.Ok : r.verdict === 'not-run' ? ExitCode.NotRun : ExitCode.Failed;
  if (input.json) {
    const status = code === ExitCode.Ok ? 'passed' : code === ExitCode.NotRun ? 'not-run' : 'failed';
    const summary = `${entry.id}: ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}`;
    const report = stageReport({
      stage: 'mutants',
      status,
      ...(status !== 'passed' ? { reason: r.reason ?? summary } : {}),
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      summary,
      counts: { mutants: 1, killed: r.verdict === 'killed' ? 1 : 0, notKilled: r.verdict !== 'killed' && r.verdict !== 'not-run' ? 1 : 0, notRun: r.verdict === 'not-run' ? 1 : 0 },
      mutants: [r],
      details: { patch: { ...target.record, system: target.system, expected: input.expect ?? null } },
      ...(r.tracePath ? { traces: [r.tracePath] } : {}),
    });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatMutantTable([r])}\n`);
    if (r.replay) process.stdout.write(`replay: ${r.replay}\n`);
  }
  return code;
}
