import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import type { LimiterPatch } from './index.js';
import { isProviderChoice, type ProviderChoice } from '../../valkey/start.js';
import { replayHint } from '../../../properties/limiter/property.js';
import { addRowStats, emptyRowStats } from '../../../properties/limiter/harness.js';
import { CASE_TIME_BOUND_MS } from '../../../properties/limiter/arbitraries.js';
import { limiterReplay, limiterSection, limiterText, type LimiterTopology, type TopologyRun } from './report.js';
import type { TracePatch } from '../../core/trace-format.js';
import { loadPatchModule, PatchFileError, patchFileRecord } from '../../seam/patch-file.js';
import type { ChecksRun } from '../../seam/patch-checks.js';
import { patchVerdict, type PatchVerdict } from '../../seam/tour/patch-verdict.js';
import { isLimiterPatch, LIMITER_PATCH_TYPE, limiterChecksRun, runLimiterOn } from './patch-checks.js';
import { ProgressConsole } from '../../core/progress.js';

/**
 * Cases per topology. Measured (`fencecheck limiter --runs 250 --seed 11 --json`): every row of the
 * transition table in at least 82 cases of the 500 (deny-first 116, deny-second 88, allow-both 228,
 * single-allow 214, single-deny 82, error 94, unknown 134); L1–L6 die within ~20. 1000 a topology
 * only repeated the same rows (docs/decisions.md, "Property runs").
 */
export const DEFAULT_LIMITER_RUNS = 250;

const HELP = `Usage: fencecheck limiter [--runs N] [--seed N] [--path P] [--topology standalone|cluster|both]
                         [--provider P] [--patch FILE] [--no-invariants] [--json]

Checks the ordered two-bucket limiter (src/systems/limiter/lua/ordered_limiter.lua) on real Valkey:
  1. the property: fast-check generates bucket specs, initial hashes and call sequences with time
     advances, host clock jumps and lost replies; every decision and every resulting
     hash is compared with the reference model (models/limiter);
  2. the seed's required invariant tests (properties/limiter/invariants.ts).
Then prints the transition table with, per row, how many generated cases exercised it.

Options:
  --runs N        generated cases per topology (default ${DEFAULT_LIMITER_RUNS})
  --seed N        fast-check seed (default: random; always printed)
  --path P        fast-check path: replay one counterexample (needs --seed and one --topology)
  --topology T    standalone, cluster (3 shards) or both (default both)
  --provider P    auto|native|testcontainers|external (default: FENCECHECK_VALKEY_PROVIDER or auto)
  --patch FILE    judge a limiter patch (a module default-exporting a LimiterPatch { transformSource?,
                  wrapCall? }): the shipped limiter runs the same checks first, then the patched one;
                  killed by the first check that fails (its name; exit 1), survived when every one
                  holds (exit 0). With --seed and --path it replays one counterexample on the patch:
                  fencecheck limiter --patch mutants/limiter/impl/L2.ts --seed=S --path=P
  --no-invariants run the property only
  --json          print a fencecheck.stage/1 report

Exit codes: 0 all held (a patch: survived) · 1 a property or invariant failed on a healthy system
(seed and path printed; a patch: killed, or the unpatched limiter failed) · 2 could not run (Valkey could not be started, or a fault: connection lost, server gone,
timeout, NOPERM — never a counterexample) · 3 bad --patch module · 64 usage`;

/** The closing line of a judged patch: killed by the named check, or survived (never equivalent: nothing observed is digested). */
function verdictLine(v: PatchVerdict<ChecksRun>): string {
  switch (v.kind) {
    case 'killed':
      return `killed by ${v.check}: ${v.failure.message}${v.result.replay ? `\nreplay: ${v.result.replay}` : ''}`;
    case 'unjudged':
      return `not judged: the unpatched limiter fails its own checks (${v.why})`;
    default:
      return `survived: every check held on the patched limiter (${v.result.summary}); the limiter's checks observe no digest, so a patch is never called equivalent`;
  }
}

export const command: Command = {
  name: 'limiter',
  summary: 'ordered two-bucket limiter: model-based properties + required invariants on real Valkey',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values } = parseCommandArgs(argv, {
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      topology: { type: 'string', default: 'both' },
      provider: { type: 'string' },
      patch: { type: 'string' },
      'no-invariants': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const numRuns = intOption(values, 'runs', { min: 1, max: 1_000_000, default: DEFAULT_LIMITER_RUNS });
    const seed = intOption(values, 'seed', SEED_RANGE);
    const topo = values.topology;
    if (topo !== 'standalone' && topo !== 'cluster' && topo !== 'both') throw new UsageError(`--topology is standalone, cluster or both, got '${topo}'`);
    if (values.path !== undefined && (seed === undefined || topo === 'both')) throw new UsageError('--path replays one counterexample: give --seed and one --topology');
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    const provider = values.provider as ProviderChoice | undefined;

    // One loader for every --patch (src/seam/patch-file.ts): the file hashed, its default export checked.
    let patch: LimiterPatch | undefined;
    let patchFile: TracePatch | undefined;
    if (values.patch !== undefined) {
      try {
        patchFile = patchFileRecord(values.patch);
        patch = await loadPatchModule(patchFile.path, isLimiterPatch, LIMITER_PATCH_TYPE);
      } catch (err) {
        if (!(err instanceof PatchFileError)) throw err;
        process.stderr.write(`fencecheck limiter: bad --patch ${values.patch}: ${err.message}\n`);
        return ExitCode.BadInput;
      }
    }

    const progress = new ProgressConsole();
    const log = (line: string) => progress.log(line);
    const names: readonly LimiterTopology[] = topo === 'both' ? ['standalone', 'cluster'] : [topo];
    const common = { numRuns, ...(seed !== undefined ? { seed } : {}), ...(provider ? { provider } : {}), invariants: !values['no-invariants'] };
    // A patch is judged (src/seam/patch-checks.ts): the unpatched limiter passes the same checks first;
    // with --path it only replays one counterexample.
    const judging = patch !== undefined && values.path === undefined;
    let base: ChecksRun | undefined;
    if (judging) {
      const unpatched: TopologyRun[] = [];
      for (const name of names) unpatched.push(await runLimiterOn(name, { ...common, log: (l) => log(`unpatched ${l}`) }));
      base = limiterChecksRun(unpatched);
      log(`unpatched: ${base.notRun ?? (base.failure ? `FAILED ${base.failure.check}: ${base.failure.message}` : `every check held (${base.summary})`)}`);
      if (base.notRun !== null || base.failure !== null) {
        progress.close();
        process.stderr.write(`fencecheck limiter: ${base.notRun !== null ? `could not run: ${base.notRun}` : 'the unpatched limiter fails its own checks: the patch is not judged'}\n`);
        return base.notRun !== null ? ExitCode.NotRun : ExitCode.Failed;
      }
    }
    const runs: TopologyRun[] = [];
    for (const name of names) {
      const meter = progress.meter(`limiter [${name}]`, numRuns, 'cases');
      const run = await runLimiterOn(name, { ...common, ...(values.path !== undefined ? { path: values.path } : {}), ...(patch ? { patch } : {}), onCase: (n) => meter.update(n), log });
      meter.done();
      runs.push(run);
      if (run.status === 'not-run') log(`[${name}] ${run.fault ? 'could not run' : 'not run'}: ${run.reason}`);
      // Printed only now: a failure followed by a fault on the same topology is not a verdict.
      else if (run.property && !run.property.passed)
        log(
          `[${name}] FAILED ${run.property.violated}: ${run.property.message}\n[${name}] replay: fencecheck limiter --topology ${name} ${replayHint(run.property)}${values.patch ? ` --patch ${values.patch}` : ''}`,
        );
    }
    // The verdict on a judged patch: the one function every --patch uses, over typed results.
    const verdict = judging && base ? patchVerdict({ base, patched: limiterChecksRun(runs, values.patch) }) : undefined;

    const failed = runs.some((r) => r.property?.passed === false || r.invariants?.some((i) => i.status === 'failed'));
    const notRun = runs.filter((r) => r.status === 'not-run');
    const status = failed ? 'failed' : notRun.length > 0 ? 'not-run' : 'passed';
    const total = emptyRowStats();
    for (const r of runs) if (r.property) addRowStats(total, r.property.stats);
    const invAll = runs.flatMap((r) => r.invariants ?? []);
    const summary =
      `${total.cases} generated cases on ${
        runs
          .filter((r) => r.status === 'ran')
          .map((r) => r.topology)
          .join('+') || 'no topology'
      }` +
      `; property ${!runs.some((r) => r.property) ? 'not run' : runs.every((r) => r.property?.passed !== false) ? 'held' : 'FAILED'}` +
      (total.cases > 0 ? `; longest case ${total.maxCaseMs} ms real time (replay bound ${CASE_TIME_BOUND_MS} ms${total.slowCases > 0 ? `, ${total.slowCases} case(s) over it` : ''})` : '') +
      `; invariants ${invAll.filter((i) => i.status === 'passed').length} passed, ${invAll.filter((i) => i.status === 'failed').length} failed, ${invAll.filter((i) => i.status === 'not-run').length} not run` +
      (notRun.length > 0 ? `; not run on ${notRun.map((r) => r.topology).join(', ')}` : '');

    const replay = limiterReplay(runs, values.patch);
    if (values.json) {
      const counts: Record<string, number> = { cases: total.cases };
      for (const [row, n] of Object.entries(total.casesPerRow)) counts[`cases.${row}`] = n;
      for (const [row, n] of Object.entries(total.calls)) counts[`calls.${row}`] = n;
      counts['cases.over_time_bound'] = total.slowCases;
      counts['invariants.passed'] = invAll.filter((i) => i.status === 'passed').length;
      counts['invariants.failed'] = invAll.filter((i) => i.status === 'failed').length;
      progress.close();
      const report = stageReport({
        stage: 'limiter',
        status,
        ...(status === 'not-run' ? { reason: notRun.map((r) => `${r.topology}: ${r.reason}`).join('; ') } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
        counts,
        details: {
          runs,
          ...(replay ? { replay } : {}),
          ...(verdict && patchFile ? { patch: { ...patchFile, verdict: verdict.kind, ...(verdict.kind === 'killed' ? { violated: verdict.check } : {}) } } : {}),
          sections: [limiterSection(runs)],
        },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      progress.close();
      process.stdout.write(`${limiterText(runs, summary, values.patch)}\n`);
      if (verdict) process.stdout.write(`${verdictLine(verdict)}\n`);
    }
    return failed ? ExitCode.Failed : status === 'not-run' ? ExitCode.NotRun : ExitCode.Ok;
  },
};
