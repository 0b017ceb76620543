/**
 * The verify orchestrator: runs the selected stages as child processes (heavy ones at most `jobs` at
 * a time, light ones alongside), interprets each, and assembles the fencecheck.verify/1 document.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadManifest, type MutantManifest } from '../core/manifest.js';
import { projectRoot } from '../core/project-root.js';
import { conformSummary } from '../report/conform-summary.js';
import { g2Summary } from '../report/g2-summary.js';
import { mutationMatrix } from '../report/matrix.js';
import { tlcSummary } from '../report/tlc-summary.js';
import { VERIFY_SCHEMA, type StageOutcome, type VerifyReport } from '../report/verify-doc.js';
import { runChild } from './child.js';
import { interpretStage } from './interpret.js';
import type { ProgressSink } from './progress.js';
import { FALLBACK_OF_LAYER, STAGE_OF_LAYER, STAGES, stageArgv, type StageOptions, type StageSpec } from './stages.js';
import { OBSERVED_DIR_ENV } from '../seam/tracecheck/store.js';
import { verifyVerdict } from './verdict.js';

export interface VerifyRunOptions {
  readonly stages: readonly string[];
  readonly stageOptions: StageOptions;
  readonly allowNotRun: readonly string[];
  readonly jobs: number;
  readonly stageTimeoutMs: number;
  /** Absolute output directory; stage logs go to <out>/stages/. */
  readonly outDir: string;
  readonly progress: ProgressSink;
  /** The stage catalogue (tests pass their own). */
  readonly catalogue?: readonly StageSpec[];
  /** How a stage is started: default `node bin/fencecheck.mjs <argv>` in the project root. */
  readonly command?: (spec: StageSpec, argv: readonly string[]) => readonly [string, ...string[]];
  readonly cwd?: string;
  readonly manifest?: MutantManifest;
  /**
   * Aborted on SIGINT/SIGTERM/SIGHUP: no further stage starts, running ones are stopped (their
   * process groups get SIGTERM, then SIGKILL), and runVerify rejects with VerifyInterruptedError
   * instead of returning a verdict.
   */
  readonly signal?: AbortSignal;
}

/** The report files of a run, removed from `--out` before a run starts (a stale pass must not survive). */
export const REPORT_FILES = ['verify.json', 'junit.xml', 'verify.md', 'verify.html'] as const;

/** The output folder cannot be created or written: nothing was started. */
export class OutDirError extends Error {}

/** The run was interrupted: there is no verdict. */
export class VerifyInterruptedError extends Error {}

/**
 * Makes `outDir` (and its stages/ folder) ready for a run: creates it, removes the previous run's
 * reports and stage logs, and checks that it can be written. Throws OutDirError with one line.
 */
export function prepareOutDir(outDir: string): void {
  const step = (what: string, f: () => void) => {
    try {
      f();
    } catch (err) {
      throw new OutDirError(`--out ${outDir}: cannot ${what}: ${(err as Error).message.split('\n')[0]}`);
    }
  };
  step('create the folder', () => mkdirSync(outDir, { recursive: true }));
  // Logs and reports of an earlier run must not pass for this run's.
  for (const f of REPORT_FILES) step(`remove the previous ${f}`, () => rmSync(join(outDir, f), { force: true }));
  const logDir = join(outDir, 'stages');
  step('remove the previous stage logs', () => rmSync(logDir, { recursive: true, force: true }));
  step('create stages/', () => mkdirSync(logDir, { recursive: true }));
  const probe = join(logDir, `.write-test-${process.pid}`);
  step('write into it', () => {
    writeFileSync(probe, '');
    rmSync(probe);
  });
}

const defaultCommand = (_spec: StageSpec, argv: readonly string[]): readonly [string, ...string[]] => [process.execPath, join(projectRoot, 'bin/fencecheck.mjs'), ...argv];

export async function runVerify(o: VerifyRunOptions): Promise<VerifyReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const catalogue = o.catalogue ?? STAGES;
  const selected = catalogue.filter((s) => o.stages.includes(s.name));
  const manifest = o.manifest ?? loadManifest();
  const logDir = join(o.outDir, 'stages');
  prepareOutDir(o.outDir);
  // This run's observed traces only: the recording stages write here, the tracecheck stage reads here.
  const observed = join(o.outDir, 'observed');
  rmSync(observed, { recursive: true, force: true });
  mkdirSync(observed, { recursive: true });
  o.progress.planned(selected.map((s) => s.name));

  const runOne = async (spec: StageSpec): Promise<StageOutcome | undefined> => {
    if (o.signal?.aborted) return undefined;
    const argv = stageArgv(spec, o.stageOptions);
    o.progress.started(spec.name);
    const child = await runChild({
      command: [...(o.command ?? defaultCommand)(spec, argv)] as [string, ...string[]],
      cwd: o.cwd ?? projectRoot,
      timeoutMs: o.stageTimeoutMs,
      onLine: (line) => o.progress.line(spec.name, line),
      env: { [OBSERVED_DIR_ENV]: observed },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    const file = spec.name.replace(/[^a-z0-9-]/gi, '_');
    writeFileSync(join(logDir, `${file}.log`), child.stderr);
    if (child.stdout.trim() !== '') writeFileSync(join(logDir, `${file}.stdout.json`), child.stdout);
    const outcome = interpretStage({
      stage: spec.name,
      command: argv,
      child,
      allowedNotRun: o.allowNotRun.includes(spec.name),
      timeoutMs: o.stageTimeoutMs,
      logPath: relative(o.outDir, join(logDir, `${file}.log`)),
    });
    o.progress.finished(outcome);
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
  const ready = (s: StageSpec) => !s.afterRecorders || [...recorders].every((r) => finished.has(r));
  const record = (name: string, outcome: StageOutcome | undefined) => outcome && results.set(name, outcome);
  const runWhenReady = async (s: StageSpec) => {
    while (!ready(s) && !o.signal?.aborted) await changed;
    record(s.name, await runOne(s));
    done(s.name);
  };
  const nextHeavy = async (): Promise<StageSpec | undefined> => {
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
  await Promise.all([
    ...light.map(runWhenReady),
    ...Array.from({ length: Math.max(1, o.jobs) }, pool),
  ]);
  o.progress.close();
  // An interrupted run has no verdict: its stages were cut short or never started.
  if (o.signal?.aborted) throw new VerifyInterruptedError(`interrupted${typeof o.signal.reason === 'string' ? ` by ${o.signal.reason}` : ''}`);

  // Report stages in catalogue order, whatever order they finished in.
  const outcomes = selected.map((s) => results.get(s.name)!);
  const matrix = mutationMatrix(manifest, outcomes, STAGE_OF_LAYER, FALLBACK_OF_LAYER);
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
      stages: selected.map((s) => s.name),
      notSelected: catalogue.filter((s) => !o.stages.includes(s.name)).map((s) => s.name),
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
    conform: conformSummary(outcomes),
    g2: g2Summary(outcomes),
    traces: [...traces].sort(),
  };
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
