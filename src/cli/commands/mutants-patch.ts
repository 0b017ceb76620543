/**
 * `fencecheck mutants --patch FILE [--expect INVARIANT]`: a user's own patch through the impl layer
 * of its system — its impl runner, all of that layer's checkers (for fencing the tour; the unpatched
 * code first, as for every manifest mutant) — reported like a manifest mutant. With `--expect`, only
 * that invariant kills it (another is wrong-invariant); without, any invariant does (systems with a
 * tour: their runner can watch every invariant). Exit codes as `mutants`: 0 killed, 1 not killed,
 * 2 not run, 3 a file that is no patch of the system.
 */
import { UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ProgressConsole, type ProgressMeter } from '../../core/progress.js';
import { stageReport } from '../../core/stage-report.js';
import type { MutantResult } from '../../core/verdict.js';
import { formatMutantTable } from '../../mutants/report-table.js';
import { layerRunners } from '../../mutants/layers/index.js';
import { userPatchEntry } from '../../seam/patch-file.js';
import { EVERY_INVARIANT } from '../../seam/tour/entry.js';
import { expectedNames } from '../../registry/systems.js';
import { patchTarget, PatchTargetError } from './patch-target.js';

export interface MutantsPatchInput {
  readonly file: string;
  readonly systems?: readonly string[];
  readonly expect?: string;
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
  if (input.expect === undefined && !target.tour) throw new UsageError(`--expect INVARIANT is needed for a ${target.system} patch (its impl runner judges one named check: ${known.join(', ')})`);
  const entry = userPatchEntry(target.record, target.system, input.expect ?? EVERY_INVARIANT);
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
    results = await runner.run([entry], { log, onProgress, ...(input.seed !== undefined ? { seed: input.seed } : {}), ...(input.numRuns !== undefined ? { numRuns: input.numRuns } : {}) });
    meter?.done();
  }
  progress.close();
  // Without --expect, whichever invariant the layer's checkers report kills it.
  const r = results.map((x): MutantResult => (input.expect === undefined ? { ...x, expectedInvariant: 'any', ...(x.verdict === 'wrong-invariant' ? { verdict: 'killed' as const } : {}) } : x))[0];
  if (!r) throw new Error(`the impl layer returned no result for ${entry.id}`);
  // A file the system's runner cannot take as its patch, or whose code cannot run, is bad input, not
  // a verdict (the runner's `invalid`); an unpatched run that fails is the layer's own finding.
  if (r.verdict === 'invalid' && !r.reason?.startsWith('the unpatched')) {
    const why = (r.reason ?? 'invalid')
      .replace(/^patch:\s*/, '')
      .split('\n')[0]!
      .replace(/^[A-Za-z]*Error: /, '');
    return refuse(`${input.file}: ${r.reason?.startsWith('patch:') ? '' : 'the patched code cannot run: '}${why}`);
  }
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
