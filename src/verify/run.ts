/**
 * The verify orchestrator: runs the selected stages as child processes (heavy ones at most `jobs` at
 * a time, light ones alongside), interprets each, and assembles the fencecheck.verify/2 document.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadManifest, type MutantManifest } from '../core/manifest.js';
import { projectRoot } from '../core/project-root.js';
import { WAITING_SLOTS } from '../core/waiting-slots.js';
import { mutationMatrix } from '../report/matrix.js';
import { tlcSummary } from '../report/tlc-summary.js';
import { VERIFY_SCHEMA, type StageOutcome, type VerifyReport } from '../report/verify-doc.js';
import { runChild } from './child.js';
import { RunOutput, type WriteFile } from './out-dir.js';
import { writeVerifyReports } from '../report/write.js';
import { TRACE_DIR_ENV } from '../core/trace-dir.js';
import { interpretStage } from './interpret.js';
import type { ProgressSink } from './progress.js';
import { FALLBACK_OF_LAYER, STAGE_OF_LAYER, STAGES, type StageOptions } from './stages.js';
import { stageEntryArgv, type Stage } from '../core/stage.js';
import { verifyVerdict } from './verdict.js';
import { partMatrix, planVerify, shardRefusal, stagePart, type VerifyPlan } from './plan.js';
import { UsageError } from '../core/args.js';
import { statusExitCode } from '../core/exit-codes.js';
import { existsSync } from 'node:fs';
import { WHOLE, type Shard } from '../seam/tour/shard.js';
import type { StageReport } from '../core/stage-report.js';

export interface VerifyRunOptions {
  readonly stages: readonly string[];
  readonly stageOptions: StageOptions;
  readonly allowNotRun: readonly string[];
  readonly jobs: number;
  readonly stageTimeoutMs: number;
  /**
   * Absolute output directory, written all or nothing (src/verify/out-dir.ts): the reports, the
   * stage logs (<out>/stages/) and the stages' traces (<out>/traces/).
   */
  readonly outDir: string;
  /** How the logs and reports are written (default writeFileSync; a test passes one that fails). */
  readonly writeFile?: WriteFile;
  readonly progress: ProgressSink;
  /** The stage catalogue (tests pass their own). */
  readonly catalogue?: readonly Stage[];
  /** How a stage is started: default `node bin/fencecheck.mjs stage NAME … --json` (`argv`) in the project root. */
  readonly command?: (spec: Stage, argv: readonly string[]) => readonly [string, ...string[]];
  readonly cwd?: string;
  readonly manifest?: MutantManifest;
  /**
   * Aborted on SIGINT/SIGTERM/SIGHUP: no further stage starts, running ones are stopped (their
   * process groups get SIGTERM, then SIGKILL), and runVerify rejects with VerifyInterruptedError
   * instead of returning a verdict (and writes no report: out-dir.ts abandon()).
   */
  readonly signal?: AbortSignal;
  /** Run part i/n: the shardable stages' part i/n and this shard's share of the others (src/verify/plan.ts). */
  readonly shard?: Shard;
}

export { OutDirError, REPORT_FILES, ReportWriteError } from './out-dir.js';

/** Heavy stages at once by default: on 2 cores a third slot took verify from 85 s to 72 s idle. */
export const DEFAULT_JOBS = WAITING_SLOTS;

/** The run was interrupted: there is no verdict. */
export class VerifyInterruptedError extends Error {}

const defaultCommand = (_spec: Stage, argv: readonly string[]): readonly [string, ...string[]] => [process.execPath, join(projectRoot, 'bin/fencecheck.mjs'), ...argv];

export async function runVerify(o: VerifyRunOptions): Promise<VerifyReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const catalogue = o.catalogue ?? STAGES;
  const manifest = o.manifest ?? loadManifest();
  const plan = planVerify(
    catalogue.filter((s) => o.stages.includes(s.name)),
    o.stageOptions,
    o.shard ?? WHOLE,
    manifest,
  );
  const refused = shardRefusal(plan, o.stageOptions, catalogue);
  if (refused !== undefined) throw new UsageError(refused);
  const out = RunOutput.open(o.outDir, o.writeFile);
  try {
    const report = await runStages(o, plan, catalogue, manifest, out, startedAt, t0);
    // Reports are written and swapped in whole, or the previous run's are put back (ReportWriteError).
    out.publish((dir, writeFile) => writeVerifyReports(report, dir, projectRoot, { writeFile, linksFrom: o.outDir }));
    return report;
  } catch (err) {
    if (err instanceof VerifyInterruptedError) out.abandon();
    else out.restore();
    throw err;
  }
}

async function runStages(o: VerifyRunOptions, plan: VerifyPlan, catalogue: readonly Stage[], manifest: MutantManifest, out: RunOutput, startedAt: Date, t0: number): Promise<VerifyReport> {
  const shard = o.shard ?? WHOLE;
  const all = plan.stages;
  o.progress.planned(all.map((s) => s.name));
  // A served stage is not started: the stage that serves it writes its report (plan.ts).
  const selected = all.filter((s) => !plan.served.has(s.name));
  const serving = new Map([...plan.served.values()].map((s) => [s.by, s]));
  const servedFile = (stage: string) => join(out.logDir, `${stage.replace(/[^a-z0-9-]/gi, '_')}.stdout.json`);

  const runOne = async (spec: Stage): Promise<StageOutcome | undefined> => {
    if (o.signal?.aborted) return undefined;
    const serves = serving.get(spec.name);
    // One entry for every stage: the stage object's run, its typed options and nothing else.
    const argv = stageEntryArgv(spec, o.stageOptions, stagePart(plan, spec.name, shard), serves ? servedFile(serves.stage) : undefined);
    o.progress.started(spec.name);
    if (serves) o.progress.started(serves.stage);
    const child = await runChild({
      command: [...(o.command ?? defaultCommand)(spec, argv)] as [string, ...string[]],
      cwd: o.cwd ?? projectRoot,
      timeoutMs: o.stageTimeoutMs,
      onLine: (line) => o.progress.line(spec.name, line),
      // The stages save their traces with this run's reports.
      env: { [TRACE_DIR_ENV]: out.traceDir },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    const file = spec.name.replace(/[^a-z0-9-]/gi, '_');
    out.writeLog(`${file}.log`, child.stderr);
    if (child.stdout.trim() !== '') out.writeLog(`${file}.stdout.json`, child.stdout);
    const outcome = interpretStage({
      stage: spec.name,
      command: argv,
      child,
      allowedNotRun: o.allowNotRun.includes(spec.name) || (spec.sameToolAs !== undefined && o.allowNotRun.includes(spec.sameToolAs)),
      timeoutMs: o.stageTimeoutMs,
      logPath: join('stages', `${file}.log`),
    });
    o.progress.finished(outcome);
    if (serves) {
      const served = servedOutcome(serves.stage, spec.name, argv, servedFile(serves.stage), o.allowNotRun.includes(serves.stage), o.stageTimeoutMs);
      out.writeLog(`${serves.stage.replace(/[^a-z0-9-]/gi, '_')}.log`, `${serves.stage}: served by ${spec.name} (its unpatched run is this stage's run; see ${file}.log)\n`);
      results.set(serves.stage, served);
      o.progress.finished(served);
    }
    return outcome;
  };

  const results = new Map<string, StageOutcome>();
  const heavy = selected.filter((s) => s.heavy);
  const light = selected.filter((s) => !s.heavy);
  // A stage that reads the recorded traces waits for every selected stage that records them.
  const recorders = new Set(selected.filter((s) => s.recordsTraces).map((s) => s.name));
  const finished = new Set<string>();
  let wake: () => void = () => {};
  let changed = new Promise<void>((r) => (wake = r));
  const done = (name: string) => {
    finished.add(name);
    wake();
    changed = new Promise<void>((r) => (wake = r));
  };
  const ready = (s: Stage) => !s.afterRecorders || [...recorders].every((r) => finished.has(r));
  const record = (name: string, outcome: StageOutcome | undefined) => outcome && results.set(name, outcome);
  const runWhenReady = async (s: Stage) => {
    while (!ready(s) && !o.signal?.aborted) await changed;
    record(s.name, await runOne(s));
    done(s.name);
  };
  const nextHeavy = async (): Promise<Stage | undefined> => {
    for (;;) {
      if (heavy.length === 0 || o.signal?.aborted) return undefined;
      const i = heavy.findIndex(ready);
      if (i >= 0) return heavy.splice(i, 1)[0];
      await changed;
    }
  };
  const pool = async () => {
    for (let next = await nextHeavy(); next; next = await nextHeavy()) {
      record(next.name, await runOne(next));
      done(next.name);
    }
  };
  await Promise.all([...light.map(runWhenReady), ...Array.from({ length: Math.max(1, o.jobs) }, pool)]);
  o.progress.close();
  // An interrupted run has no verdict: its stages were cut short or never started.
  if (o.signal?.aborted) throw new VerifyInterruptedError(`interrupted${typeof o.signal.reason === 'string' ? ` by ${o.signal.reason}` : ''}`);

  // Report stages in catalogue order, whatever order they finished in.
  const outcomes = all.map((s) => results.get(s.name)!);
  // In a part, the other parts' mutants are not this part's to report (plan.ts).
  const matrix = partMatrix(mutationMatrix(manifest, outcomes, STAGE_OF_LAYER, FALLBACK_OF_LAYER), manifest, plan, shard, STAGE_OF_LAYER);
  const traces = new Set<string>();
  for (const out of outcomes) {
    for (const t of out.report?.traces ?? []) traces.add(t);
    for (const m of out.report?.mutants ?? []) if (m.tracePath) traces.add(m.tracePath);
  }
  return {
    schema: VERIFY_SCHEMA,
    tool: { name: 'fencecheck', version: packageVersion() },
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
    host: { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length },
    git: gitState(),
    options: {
      stages: all.map((s) => s.name),
      notSelected: catalogue.filter((s) => !all.some((x) => x.name === s.name)).map((s) => s.name),
      ...(shard.count > 1
        ? {
            shard: { index: shard.index, count: shard.count },
            sharded: [...plan.sharded],
            otherShards: catalogue.filter((s) => o.stages.includes(s.name) && !all.some((x) => x.name === s.name)).map((s) => s.name),
          }
        : {}),
      ...(plan.served.size > 0 ? { served: Object.fromEntries([...plan.served.values()].map((s) => [s.stage, s.by])) } : {}),
      ...o.stageOptions,
      allowNotRun: [...o.allowNotRun],
      jobs: o.jobs,
      stageTimeoutMs: o.stageTimeoutMs,
      out: relative(projectRoot, resolve(o.outDir)) || '.',
    },
    verdict: verifyVerdict(outcomes, matrix),
    stages: outcomes,
    tlc: tlcSummary(outcomes),
    mutationMatrix: matrix,
    traces: [...traces].sort(),
  };
}

/** The served stage's outcome from the report its server wrote; none written is not run (the server's log says why). */
function servedOutcome(stage: string, by: string, command: readonly string[], file: string, allowedNotRun: boolean, timeoutMs: number): StageOutcome {
  let stdout = '';
  let report: StageReport | null = null;
  if (existsSync(file)) {
    stdout = readFileSync(file, 'utf8');
    try {
      report = JSON.parse(stdout) as StageReport;
    } catch {
      report = null;
    }
  }
  const why = `fencecheck ${stage}: not run: ${by} wrote no ${stage} report (its unpatched run did not complete; see its log)`;
  return interpretStage({
    stage,
    command,
    child: {
      exitCode: report ? statusExitCode(report.status) : 2,
      signal: null,
      stdout: report ? stdout : '',
      stderr: report ? '' : why,
      startedAt: report?.startedAt ?? new Date().toISOString(),
      durationMs: report?.durationMs ?? 0,
      timedOut: false,
      leftoverProcesses: 0,
    },
    allowedNotRun,
    timeoutMs,
    logPath: join('stages', `${stage.replace(/[^a-z0-9-]/gi, '_')}.log`),
  });
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function gitState(): VerifyReport['git'] {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return { commit, dirty };
  } catch {
    return null;
  }
}
