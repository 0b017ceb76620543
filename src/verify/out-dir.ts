/**
 * A verify run's output folder (`--out`), written all or nothing. When the run starts, the previous
 * run's reports, stage logs and traces are set aside in a hidden folder inside `--out` (so no stale
 * pass stands in `--out` while this run works, nor after it is interrupted), the stage logs are
 * written to a hidden staging folder beside them, and the stages save their traces in
 * `<out>/traces/`. At the end the reports are written into the staging folder and renamed into
 * place; only then is the previous run's set deleted. A write that fails (a full disk) puts the
 * previous run's set back, whole, and says so in one line.
 *
 * The hidden folders are inside `--out`, not beside it: rename(2) needs one filesystem, and `--out`
 * may be a mount point (or its parent unwritable).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { isRunning } from '../valkey/registry.js';

/** The report files of a run. */
export const REPORT_FILES = ['verify.json', 'junit.xml', 'verify.md', 'verify.html'] as const;
/** Everything of a run in `--out`: its reports, its stage logs, its traces. */
export const RUN_ENTRIES = [...REPORT_FILES, 'stages', 'traces'] as const;

/** How a file is written (a test passes one that fails as a full disk does). */
export type WriteFile = (path: string, data: string) => void;

/** The output folder cannot be created or written: nothing was started. */
export class OutDirError extends Error {}

/** The reports could not be written: the previous run's are kept whole. */
export class ReportWriteError extends Error {}

const HIDDEN = /^\.verify-(staging|previous)-(\d+)-[0-9a-f]+$/;

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

export class RunOutput {
  /** Where the stages' logs go while the run lasts. */
  readonly logDir: string;
  /** Where the stages save their counterexample traces (FENCECHECK_TRACE_DIR). */
  readonly traceDir: string;
  private logFailure: unknown;
  private settled = false;
  /** `traceDir` is this run's (created once the previous run's was set aside). */
  private tracesOurs = false;

  private constructor(
    readonly outDir: string,
    private readonly staging: string,
    private readonly previous: string,
    private readonly writeFile: WriteFile,
  ) {
    this.logDir = join(staging, 'stages');
    this.traceDir = join(outDir, 'traces');
  }

  /** Creates `outDir`, its staging folder, and sets the previous run aside. Throws OutDirError with one line. */
  static open(outDir: string, writeFile: WriteFile = writeFileSync): RunOutput {
    const step = (what: string, f: () => void) => {
      try {
        f();
      } catch (err) {
        throw new OutDirError(`--out ${outDir}: cannot ${what}: ${firstLine(err)}`);
      }
    };
    step('create the folder', () => mkdirSync(outDir, { recursive: true }));
    // What a verify killed without a chance to clean up (SIGKILL) left: its process is gone.
    step('remove what an earlier killed run left', () => {
      for (const name of readdirSync(outDir)) {
        const m = HIDDEN.exec(name);
        if (m && Number(m[2]) !== process.pid && !isRunning(Number(m[2]))) rmSync(join(outDir, name), { recursive: true, force: true });
      }
    });
    const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const out = new RunOutput(outDir, join(outDir, `.verify-staging-${tag}`), join(outDir, `.verify-previous-${tag}`), writeFile);
    step('create its staging folder', () => mkdirSync(out.logDir, { recursive: true }));
    step('write into it', () => {
      const probe = join(out.staging, '.write-test');
      writeFile(probe, '');
      rmSync(probe);
    });
    try {
      mkdirSync(out.previous);
      for (const e of RUN_ENTRIES) if (existsSync(join(outDir, e))) renameSync(join(outDir, e), join(out.previous, e));
      mkdirSync(out.traceDir);
      out.tracesOurs = true;
    } catch (err) {
      out.restore();
      throw new OutDirError(`--out ${outDir}: cannot set the previous reports aside: ${firstLine(err)}`);
    }
    return out;
  }

  /** A stage's log; a failed write is remembered and fails publish() (the run itself goes on). */
  writeLog(fileName: string, text: string): void {
    try {
      this.writeFile(join(this.logDir, fileName), text);
    } catch (err) {
      this.logFailure ??= err;
    }
  }

  /**
   * Writes the reports (`write` into the folder it is given) and swaps the run's set into `--out`.
   * Throws ReportWriteError, after putting the previous run's set back, when anything fails.
   */
  publish(write: (dir: string, writeFile: WriteFile) => void): void {
    if (this.logFailure !== undefined) this.fail(this.logFailure);
    try {
      write(this.staging, this.writeFile);
    } catch (err) {
      this.fail(err);
    }
    const moved: string[] = [];
    try {
      for (const e of [...REPORT_FILES, 'stages']) {
        if (!existsSync(join(this.staging, e))) continue;
        renameSync(join(this.staging, e), join(this.outDir, e));
        moved.push(e);
      }
    } catch (err) {
      for (const e of moved) renameSync(join(this.outDir, e), join(this.staging, e));
      this.fail(err);
    }
    this.settled = true;
    this.remove(this.previous);
    this.remove(this.staging);
  }

  /**
   * The run was interrupted: no verdict, so no report, and the previous run's are deleted (a stale
   * pass must not stand in for this run); the stage logs written so far and the traces are kept.
   */
  abandon(): void {
    if (this.settled) return;
    this.settled = true;
    try {
      if (existsSync(this.logDir)) renameSync(this.logDir, join(this.outDir, 'stages'));
    } catch {
      // Best effort: the logs of an interrupted run are for reading, not for a verdict.
    }
    this.remove(this.previous);
    this.remove(this.staging);
  }

  /** Puts the previous run's set back as it was and removes this run's. */
  restore(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.tracesOurs) this.remove(this.traceDir);
    if (existsSync(this.previous)) for (const e of readdirSync(this.previous)) renameSync(join(this.previous, e), join(this.outDir, e));
    this.remove(this.previous);
    this.remove(this.staging);
  }

  private fail(err: unknown): never {
    this.restore();
    throw new ReportWriteError(`could not write the reports to ${this.outDir}: ${firstLine(err)} (the previous reports are kept)`);
  }

  private remove(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
  }
}
