/**
 * `fencecheck conform --patch FILE`: a user's own implementation patch through its system's tour
 * in invariant mode (the impl layer's: the real graph followed wherever the patch leads, every
 * invariant — or `--invariant NAME` alone — checked in every real state). The unpatched tour runs
 * first (full conformance); its graph digest tells an equivalent patch. The verdict is one of
 * killed (with the finding: invariant, steps, the one-line replay), equivalent or survived; a kill
 * is exit 1 (a check failed on the patched code), the other two exit 0 (docs/decisions.md).
 */
import { ExitCode } from '../../core/exit-codes.js';
import { ProgressConsole } from '../../core/progress.js';
import { boundsLabel } from '../../seam/system.js';
import { TourSetupError, TourUnavailableError, type SystemTourOptions, type SystemTourRun } from '../../seam/tour/entry.js';
import { selectModels } from '../../registry/select.js';
import { UsageError } from '../../core/args.js';
import { patchTarget, PatchTargetError } from './patch-target.js';

export type PatchVerdict = 'killed' | 'equivalent' | 'survived';

export interface ConformPatchInput {
  readonly file: string;
  readonly systems?: readonly string[];
  readonly invariant?: string;
  readonly constants: Readonly<Record<string, string>>;
  readonly concurrency?: number;
  readonly provider?: string;
  readonly json: boolean;
}

const fail = (line: string, code: ExitCode): ExitCode => {
  process.stderr.write(`fencecheck conform: ${line}\n`);
  return code;
};

export async function conformPatch(input: ConformPatchInput): Promise<ExitCode> {
  let target;
  try {
    target = await patchTarget(input.file, input.systems, true);
  } catch (err) {
    if (err instanceof PatchTargetError) return fail(err.message, ExitCode.BadInput);
    throw err;
  }
  const tour = target.tour!;
  if (input.invariant !== undefined && !tour.invariants.includes(input.invariant))
    throw new UsageError(`--invariant: unknown invariant '${input.invariant}' of ${target.system} (${tour.invariants.join(', ')})`);
  const [model] = await selectModels([target.system], input.constants);
  const out = (line: string) => (input.json ? process.stderr : process.stdout).write(`${line}\n`);
  out(
    `conform: ${target.system}: patch ${target.record.path} (sha256 ${target.record.sha256.slice(0, 12)}…): ${tour.what}, ${boundsLabel(model!.bounds)}, ${input.invariant ? `${input.invariant} alone` : 'every invariant'}`,
  );
  const startedAt = new Date();
  const common = {
    bounds: model!.bounds,
    ...(input.concurrency ? { concurrency: input.concurrency } : {}),
    ...(input.provider !== undefined ? { provider: input.provider } : {}),
  };
  const tourRun = async (what: string, opts: SystemTourOptions): Promise<SystemTourRun> => {
    const progress = new ProgressConsole();
    const meter = progress.meter(`conform ${target.system} ${what}`, 1, 'attempts');
    try {
      return await tour.run({ ...opts, onProgress: (attempts, total, states) => meter.update(attempts, `${states} states reached`, total) });
    } finally {
      progress.close();
    }
  };
  let base: SystemTourRun;
  let patched: SystemTourRun;
  try {
    // The unpatched code first: a kill means something only when it passes the very same tour.
    base = await tourRun('unpatched', { ...common, saveTrace: false });
    const b = base.result;
    if (b.failure || b.equalToModel !== true) {
      out(`unpatched: FAILED ${b.failure ? `${b.failure.check}: ${b.failure.message}` : "the real graph differs from the model's"}`);
      out(`the patch is not judged: the unpatched code fails its tour (fencecheck conform --system ${target.system})`);
      return ExitCode.Failed;
    }
    out(`unpatched: ${b.states} states, ${b.attempts} attempts, the model's graph (${(b.durationMs / 1000).toFixed(1)} s)`);
    try {
      patched = await tourRun('patched', { ...common, patch: target.record, ...(input.invariant !== undefined ? { invariant: input.invariant } : {}), ...(b.digest ? { baseline: b.digest } : {}) });
    } catch (err) {
      if (err instanceof TourSetupError || err instanceof TourUnavailableError) throw err;
      // The unpatched code ran the same tour: what throws now is the patch (a transform that throws, Lua that does not load).
      return fail(`${target.record.path}: the patched code cannot run: ${String((err as Error).message ?? err).split('\n')[0]}`, ExitCode.BadInput);
    }
  } catch (err) {
    if (err instanceof TourSetupError) return fail(err.message, ExitCode.BadInput);
    if (err instanceof TourUnavailableError) return fail(`${target.system}: not run: ${err.message}`, ExitCode.NotRun);
    throw err;
  }
  const r = patched.result;
  const verdict: PatchVerdict = r.failure ? 'killed' : r.equalToBaseline ? 'equivalent' : 'survived';
  const took = `${(r.durationMs / 1000).toFixed(1)} s`;
  if (r.failure) {
    const f = r.failure;
    out(`patched: ${r.states} real states reached, ${r.attempts} attempts (${took})`);
    out(`killed: ${f.check} broken after ${f.path.length - 1} steps of the real graph${f.attempt ? ` (at ${f.attempt})` : ''}: ${f.message}`);
    const { pathLines } = await import('../../seam/tour/report.js');
    out(`path from Init (${f.path.length - 1} steps):`);
    for (const l of pathLines(r, patched.model)) out(l);
    if (patched.tracePath) out(`trace: ${patched.tracePath}`);
    if (patched.replay) out(`replay: ${patched.replay}`);
  } else if (verdict === 'equivalent') out(`equivalent: the patched real graph is the unpatched one (${r.states} states, ${r.attempts} attempts, the same decision in every reply; ${took})`);
  else
    out(`survived: the patched real graph differs from the unpatched one (${r.states} states, ${r.attempts} attempts; ${took}) but ${input.invariant ?? 'every invariant'} holds in every state of it`);
  if (input.json) {
    const { tourStageReport } = await import('../../seam/tour/stage.js');
    const report = tourStageReport(r, { stage: 'conform', startedAt, ...(patched.tracePath ? { tracePath: patched.tracePath } : {}), ...(patched.replay ? { replay: patched.replay } : {}) });
    const patch = { ...target.record, verdict, ...(r.failure ? { violated: r.failure.check, steps: r.failure.path.length - 1 } : {}) };
    process.stdout.write(`${JSON.stringify({ ...report, details: { ...report.details, patch } }, null, 2)}\n`);
  }
  return verdict === 'killed' ? ExitCode.Failed : ExitCode.Ok;
}
