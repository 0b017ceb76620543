import { resolve } from 'node:path';
import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { ExitCode, signalExitCode } from '../../core/exit-codes.js';
import { ManifestError } from '../../core/manifest.js';
import { reportFiles } from '../../report/write.js';
import { renderTable } from '../../core/table.js';
import type { VerifyReport } from '../../report/verify-doc.js';
import { killAllChildrenNow, stopAllChildren } from '../../verify/child.js';
import { formatDuration, LineProgress, LiveProgress, type ProgressSink } from '../../verify/progress.js';
import { reapOrphans } from '../../valkey/registry.js';
import { DEFAULT_JOBS, OutDirError, ReportWriteError, runVerify, VerifyInterruptedError, type VerifyRunOptions } from '../../verify/run.js';
import { isStageName, STAGE_NAMES, STAGES, TOPOLOGIES, type Topology } from '../../verify/stages.js';
import type { StageOption } from '../../core/stage.js';
import { shardOption, type Shard } from '../../seam/tour/shard.js';

/** The stages a forwarded option reaches, as the help names them (from the catalogue: a system's stages come from its package). */
const takes = (option: StageOption): string =>
  STAGES.filter((s) => s.takes.includes(option))
    .map((s) => s.name)
    .join(', ');

const HELP = `Usage: fencecheck verify [--stages a,b] [--skip a,b] [--runs N] [--seed N] [--topology T]
                         [--const NAME=VALUE]... [--allow-not-run STAGE]... [--out DIR]
                         [--jobs N] [--stage-timeout S] [--shard I/N] [--json]

Runs every stage as its own process (node bin/fencecheck.mjs stage NAME --json), heavy ones at most
--jobs at a time, and writes <out>/verify.json (schema fencecheck.verify/2), <out>/junit.xml,
<out>/verify.md and <out>/verify.html, with the stage logs in <out>/stages/ and the traces in
<out>/traces/ — all or nothing: a run that cannot write them keeps the previous run's whole. See
docs/verify.md.

Stages (in start order):
${STAGES.map((s) => `  ${s.name.padEnd(16)} ${s.what}`).join('\n')}

Options:
  --stages a,b          run only these stages (default: all)
  --skip a,b            leave these stages out (shown as "not selected")
  --runs N              property runs for ${takes('runs')}
  --seed N              fast-check seed for ${takes('seed')}
  --topology T          standalone, cluster or both, for ${takes('topology')}
  --const N=V           a TLA+ constant for explore and conform (e.g. --const Pods=4; TLC, parity and the
                        mutant layers keep the spec's base config)
  --allow-not-run STAGE accept that STAGE, or mutants it reported not run, could not run here
                        (repeatable, or comma-separated); never a survived/invalid/timed-out mutant;
                        tlc also accepts the stages that run TLC (tracecheck)
  --out DIR             where reports go (default reports/)
  --jobs N              heavy stages at once (default: the core count + 1, ${DEFAULT_JOBS} here)
  --stage-timeout S     kill a stage's process group after S seconds (default 2700)
  --shard I/N           run part I of N: the shardable stages' (${STAGES.filter((s) => s.shardable)
    .map((s) => s.name)
    .join(', ')})
                        part I/N and this part's share of the others; 'fencecheck merge' combines the
                        N parts' verify.json into one verdict and one set of reports
  --json                print the verify document on stdout; progress goes to stderr

Exit codes: 0 every selected stage held · 1 a property failed, a mutant survived, parity broke,
evidence is stale, a stage crashed, or a stage (or a mutant its stage reported not run) did not run
and --allow-not-run does not name the stage ·
2 no stage ran at all, or --out cannot be written (checked before any stage starts), or the reports
could not be written (the previous run's are kept whole) · 3 bad mutant manifest · 64 usage ·
130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP: every stage stopped, no report written`;

/** How long an interrupted verify lets its stages stop before SIGKILLing their groups. */
const STOP_GRACE_MS = 1_000;
/** How long an interrupted run is given to tidy its output folder once its stages are gone. */
const SETTLE_MS = 500;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** For tests: how stages are started (the real CLI starts `node bin/fencecheck.mjs <argv>`). */
export interface VerifyCliHooks {
  readonly command?: VerifyRunOptions['command'];
}

function list(values: readonly string[] | string | undefined): string[] {
  const all = Array.isArray(values) ? values : values === undefined ? [] : [values];
  return all
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

function stageList(values: readonly string[] | string | undefined, option: string): string[] {
  const names = list(values);
  for (const n of names) if (!isStageName(n)) throw new UsageError(`${option}: unknown stage '${n}' (stages: ${STAGE_NAMES.join(', ')})`);
  return names;
}

export const command: Command = {
  name: 'verify',
  summary: 'run every stage, write JSON/JUnit/Markdown/HTML reports, gate on the result',
  help: HELP,
  run: (argv) => runVerifyCli(argv),
};

/** The verify command; `hooks` only for tests (test/verify/fixtures/verify-driver.mjs). */
export async function runVerifyCli(argv: readonly string[], hooks: VerifyCliHooks = {}): Promise<ExitCode> {
  const { values } = parseCommandArgs(argv, {
    stages: { type: 'string' },
    skip: { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    topology: { type: 'string' },
    const: { type: 'string', multiple: true },
    'allow-not-run': { type: 'string', multiple: true },
    out: { type: 'string', default: 'reports' },
    jobs: { type: 'string' },
    'stage-timeout': { type: 'string', default: '2700' },
    shard: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const only = values.stages !== undefined ? stageList(values.stages, '--stages') : [...STAGE_NAMES];
  const skip = stageList(values.skip, '--skip');
  const stages = only.filter((s) => !skip.includes(s));
  if (stages.length === 0) throw new UsageError('no stage left to run (check --stages and --skip)');
  const allowNotRun = stageList(values['allow-not-run'], '--allow-not-run');
  // The one numeric-option parser: decimal integers in range, a clear line otherwise.
  const seed = intOption(values, 'seed', SEED_RANGE);
  const runs = intOption(values, 'runs', { min: 1, max: 1_000_000 });
  const constants = Object.entries(constantsOption(values.const)).map(([k, v]) => `${k}=${v}`);
  const jobs = intOption(values, 'jobs', { min: 1, max: 64, default: DEFAULT_JOBS });
  const stageTimeoutMs = intOption(values, 'stage-timeout', { min: 1, max: 86_400, default: 2700 }) * 1000;
  const topology = values.topology;
  if (topology !== undefined && !(TOPOLOGIES as readonly string[]).includes(topology)) throw new UsageError(`--topology takes one of ${TOPOLOGIES.join(', ')}, got '${topology}'`);
  const outDir = resolve(process.cwd(), values.out ?? 'reports');
  const shard: Shard | undefined = values.shard === undefined ? undefined : shardOption(values.shard);

  const live = !values.json && process.stderr.isTTY === true;
  const progress: ProgressSink = live ? new LiveProgress(process.stderr) : new LineProgress((line) => (values.json ? process.stderr : process.stdout).write(`${line}\n`));

  // On SIGINT/SIGTERM/SIGHUP: start no further stage, stop every running stage's process group
  // (SIGTERM, SIGKILL after STOP_GRACE_MS), write no report (the previous run's were set aside when
  // the run started and are deleted: src/verify/out-dir.ts), exit 128 + the signal's number. A
  // second signal SIGKILLs at once.
  const abort = new AbortController();
  let stopped: Promise<void> | undefined;
  let running: Promise<unknown> | undefined;
  const onSignal = (sig: (typeof SIGNALS)[number]) => {
    const code = signalExitCode(sig);
    if (stopped) {
      killAllChildrenNow();
      process.exit(code);
    }
    abort.abort(sig);
    process.stderr.write(`\nfencecheck verify: ${sig}: stopping every stage's process group\n`);
    // The run then tidies its output folder (out-dir.ts abandon()); it is not waited for long.
    const settled = () => Promise.race([running?.catch(() => undefined), new Promise((done) => setTimeout(done, SETTLE_MS))]);
    stopped = stopAllChildren(STOP_GRACE_MS)
      // A stage SIGKILLed with its group (past the grace, or a busy one) could not drop the records
      // and folders of its servers: its owner is now gone, so the reaper does, and ends any it missed.
      .then(() => void reapOrphans())
      .then(settled)
      .then(() => {
        process.stderr.write(`fencecheck verify: interrupted by ${sig}: no verdict, no report written (exit ${code})\n`);
        process.exit(code);
      });
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  let report: VerifyReport;
  try {
    running = runVerify({
      ...(hooks.command ? { command: hooks.command } : {}),
      signal: abort.signal,
      stages,
      stageOptions: {
        ...(runs !== undefined ? { runs } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(topology !== undefined ? { topology: topology as Topology } : {}),
        ...(constants.length > 0 ? { constants } : {}),
      },
      allowNotRun,
      jobs,
      stageTimeoutMs,
      outDir,
      progress,
      ...(shard ? { shard } : {}),
    });
    report = (await running) as VerifyReport;
  } catch (err) {
    if (err instanceof ManifestError) {
      process.stderr.write(`fencecheck verify: ${err.message}\n`);
      return ExitCode.BadInput;
    }
    if (err instanceof OutDirError || err instanceof ReportWriteError) {
      process.stderr.write(`fencecheck verify: ${err.message}\n`);
      return ExitCode.NotRun;
    }
    // The signal handler prints the outcome and exits once every stage's group is empty.
    if (err instanceof VerifyInterruptedError && stopped) return new Promise<never>(() => {});
    throw err;
  } finally {
    if (!abort.signal.aborted) for (const sig of SIGNALS) process.off(sig, onSignal);
  }

  const files = reportFiles(outDir);
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${summaryText(report)}\nreports: ${files.json}, ${files.junit}, ${files.markdown}, ${files.html}\n`);
  return report.verdict.exitCode;
}

function summaryText(r: VerifyReport): string {
  const served = r.options.served ?? {};
  const rows = r.stages.map((o) => [
    o.stage,
    o.status === 'not-run' && o.allowedNotRun ? 'not-run (allowed)' : o.status,
    formatDuration(o.durationMs),
    // The CPU the stage and the children it waited for used; a served stage's is its server's.
    o.cpu ? `${((o.cpu.userMs + o.cpu.systemMs) / 1000).toFixed(1)}s` : served[o.stage] ? `(${served[o.stage]})` : '',
    o.status === 'passed' ? o.summary : (o.reason ?? o.summary),
  ]);
  const lines = ['', renderTable(['stage', 'status', 'time', 'cpu', 'what ran / why not'], rows, { alignRight: [2, 3] }), ''];
  lines.push(`verify: ${r.verdict.status.toUpperCase()} (exit ${r.verdict.exitCode}) in ${formatDuration(r.durationMs)}`);
  for (const reason of r.verdict.reasons) lines.push(`  - ${reason}`);
  for (const w2 of r.verdict.waived) lines.push(`  ~ ${w2}`);
  return lines.join('\n');
}
