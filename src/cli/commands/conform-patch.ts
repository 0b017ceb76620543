/**
 * `fencecheck conform --patch FILE`: a user's own implementation patch judged on its system's tour
 * (src/seam/tour/patch-judge.ts: the unpatched tour first, then the patched code's full tour —
 * conformance, every invariant, the system's checks —; the verdict is patchVerdict's). This module
 * prints: killed (the check, the path, the one-line replay) exit 1; equivalent or survived exit 0;
 * with `--safety-only`, departs (from the model, every invariant holding) exit 4 (docs/conform.md).
 */
import { ExitCode } from '../../core/exit-codes.js';
import { ProgressConsole } from '../../core/progress.js';
import { boundsLabel } from '../../seam/system.js';
import { TourSetupError, TourUnavailableError, type SystemTourRun } from '../../seam/tour/entry.js';
import { judgePatch, PatchRunError, type PatchTourName } from '../../seam/tour/patch-judge.js';
import { tourConstants } from '../../seam/tour/patch-mutant.js';
import type { PatchVerdict } from '../../seam/tour/patch-verdict.js';
import { selectModels } from '../../registry/select.js';
import { UsageError } from '../../core/args.js';
import { patchTarget, PatchTargetError } from './patch-target.js';

export interface ConformPatchInput {
  readonly file: string;
  readonly systems?: readonly string[];
  readonly invariant?: string;
  readonly safetyOnly?: boolean;
  readonly constants: Readonly<Record<string, string>>;
  /** verify's bound (`--gate`): the tour's gate constants. */
  readonly gate?: boolean;
  readonly concurrency?: number;
  readonly provider?: string;
  readonly json: boolean;
}

const fail = (line: string, code: ExitCode): ExitCode => {
  process.stderr.write(`fencecheck conform: ${line}\n`);
  return code;
};

/** The exit code of a verdict: a check failed 1, a departure the user asked to see 4, else 0. */
export function patchExitCode(v: PatchVerdict['kind']): ExitCode {
  return v === 'killed' || v === 'unjudged' ? ExitCode.Failed : v === 'departs' ? ExitCode.Departs : ExitCode.Ok;
}

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
  const [model] = await selectModels([target.system], tourConstants(tour, input.constants, input.gate === true));
  const out = (line: string) => (input.json ? process.stderr : process.stdout).write(`${line}\n`);
  const judged = input.invariant ? `${input.invariant} alone` : input.safetyOnly ? 'every invariant; a departure from the model reported, not killed' : 'the whole tour';
  out(`conform: ${target.system}: patch ${target.record.path} (sha256 ${target.record.sha256.slice(0, 12)}…): ${tour.what}, ${boundsLabel(model!.bounds)}, ${judged}`);
  const startedAt = new Date();
  const progress = new ProgressConsole();
  const meters = new Map<PatchTourName, ReturnType<ProgressConsole['meter']>>();
  const meter = (name: PatchTourName) => {
    let m = meters.get(name);
    if (!m) meters.set(name, (m = progress.meter(`conform ${target.system} ${name}`, 1, 'attempts')));
    return m;
  };
  let judgement;
  try {
    judgement = await judgePatch({
      tour,
      patch: target.record,
      bounds: model!.bounds,
      ...(input.invariant !== undefined ? { invariant: input.invariant } : {}),
      ...(input.safetyOnly ? { safetyOnly: true } : {}),
      ...(input.concurrency ? { concurrency: input.concurrency } : {}),
      ...(input.provider !== undefined ? { provider: input.provider } : {}),
      progress: (name) => (attempts, total, states) => meter(name).update(attempts, `${states} states reached`, total),
      onUnpatched: (base) => {
        const b = base.result;
        if (!b.failure && b.equalToModel === true) out(`unpatched: ${b.states} states, ${b.attempts} attempts, the model's graph (${(b.durationMs / 1000).toFixed(1)} s)`);
      },
    });
  } catch (err) {
    if (err instanceof PatchRunError) return fail(`${target.record.path}: ${err.message}`, ExitCode.BadInput);
    if (err instanceof TourSetupError) return fail(err.message, ExitCode.BadInput);
    if (err instanceof TourUnavailableError) return fail(`${target.system}: not run: ${err.message}`, ExitCode.NotRun);
    throw err;
  } finally {
    progress.close();
  }
  const v = judgement.verdict;
  if (v.kind === 'unjudged') {
    out(`unpatched: FAILED ${v.why}`);
    out(`the patch is not judged: the unpatched code fails its tour (fencecheck conform --system ${target.system})`);
    return ExitCode.Failed;
  }
  const run = judgement.run!;
  const r = v.result;
  const took = `${(r.durationMs / 1000).toFixed(1)} s`;
  const { pathLines } = await import('../../seam/tour/report.js');
  const finding = (f: SystemTourRun['result']['failure'] & object, head: string) => {
    out(head);
    if (f.predicted !== undefined) out(`  the model predicted ${f.predicted}; the real system did ${f.real ?? '?'}`);
    out(`path from Init (${f.path.length - 1} steps):`);
    for (const l of pathLines({ ...r, failure: f }, run.model)) out(l);
    if (run.tracePath) out(`trace: ${run.tracePath}`);
    if (run.replay) out(`replay: ${run.replay}`);
  };
  if (v.kind === 'killed') {
    const f = v.failure;
    out(`patched: ${r.states} real states reached, ${r.attempts} attempts (${took})`);
    finding(f, `killed: ${v.check} broken after ${f.path.length - 1} steps${f.attempt ? ` (at ${f.attempt})` : ''}: ${f.message}`);
  } else if (v.kind === 'departs') {
    const f = v.departure;
    finding(f, `departs from the model at ${f.attempt ?? 'a state'} after ${f.path.length - 1} steps; every invariant held in the patched code's real graph: ${f.message}`);
  } else if (v.kind === 'equivalent')
    out(`equivalent: the patched code showed exactly what the unpatched code showed (${r.states} states, ${r.attempts} attempts: every reply and everything read back; ${took})`);
  else if (r.checks.kind === 'invariant')
    out(`survived: ${input.invariant} holds in every state of the patched real graph (${r.states} states, ${r.attempts} attempts; ${took}); the rest of the tour was not judged`);
  else out(`survived: every check held (${r.states} states, ${r.attempts} attempts; ${took}) but the patched code showed something the unpatched code did not (a reply, or something read back)`);
  if (input.json) {
    const { tourStageReport } = await import('../../seam/tour/stage.js');
    const report = tourStageReport(r, { stage: 'conform', startedAt, ...(run.tracePath ? { tracePath: run.tracePath } : {}), ...(run.replay ? { replay: run.replay } : {}) });
    const f = v.kind === 'killed' ? v.failure : v.kind === 'departs' ? v.departure : undefined;
    const patch = { ...target.record, verdict: v.kind, ...(f ? { violated: f.check, steps: f.path.length - 1 } : {}) };
    const status = v.kind === 'killed' ? 'failed' : report.status;
    process.stdout.write(`${JSON.stringify({ ...report, status, details: { ...report.details, patch } }, null, 2)}\n`);
  }
  return patchExitCode(v.kind);
}
