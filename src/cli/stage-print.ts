/**
 * parse → run → print: a command whose work is a stage (src/core/stage.ts) hands the parsed options
 * to the stage's run and prints what it returns — the report with `--json`, its lines otherwise.
 * Nothing here judges: the verdict is the report's status.
 */
import { ExitCode, statusExitCode } from '../core/exit-codes.js';
import { StageInputError, type StageIO } from '../core/stage.js';
import type { StageReport } from '../core/stage-report.js';

export interface PrintOptions {
  /** `--json`: the report on stdout, the stage's lines on stderr. */
  readonly json: boolean;
  /** What a terminal gets after the stage's lines (without `--json`). */
  readonly human?: (report: StageReport) => void;
}

/** The stage's lines: stdout for a person, stderr when stdout carries the JSON report. */
export function commandIO(json: boolean): StageIO {
  return { log: (line) => (json ? process.stderr : process.stdout).write(`${line}\n`), warn: (line) => process.stderr.write(`${line}\n`) };
}

export async function runAndPrint(command: string, o: PrintOptions, run: (io: StageIO) => Promise<StageReport>): Promise<ExitCode> {
  let report: StageReport;
  try {
    report = await run(commandIO(o.json));
  } catch (err) {
    if (!(err instanceof StageInputError)) throw err;
    process.stderr.write(`fencecheck ${command}: ${err.message}\n`);
    return ExitCode.BadInput;
  }
  if (o.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else o.human?.(report);
  return statusExitCode(report.status);
}

/** The default human ending: a stage that did not pass says so on stderr in one line. */
export function statusLine(command: string): (report: StageReport) => void {
  return (r) => {
    if (r.status !== 'passed') process.stderr.write(`fencecheck ${command}: ${r.status === 'not-run' ? 'not run' : 'failed'}: ${r.reason ?? r.summary}\n`);
  };
}
