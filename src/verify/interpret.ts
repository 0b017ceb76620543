/**
 * Turns what a stage's process did (exit code, stdout, stderr) into a StageOutcome. The stage's own
 * StageReport is trusted for what it found; the exit code is checked against it; anything else
 * (a crash, a signal, no report, a usage error) is an `error`, never a pass.
 */
import { ExitCode } from '../core/exit-codes.js';
import type { MutantResult } from '../core/verdict.js';
import { stageReport, type StageReport, type StageStatus } from '../core/stage-report.js';
import type { OutcomeStatus, StageOutcome } from '../report/verify-doc.js';
import type { ChildResult } from './child.js';

const EXPECTED_EXIT: Readonly<Record<StageStatus, number>> = { passed: ExitCode.Ok, failed: ExitCode.Failed, 'not-run': ExitCode.NotRun };

export interface InterpretInput {
  readonly stage: string;
  readonly command: readonly string[];
  readonly child: ChildResult;
  readonly allowedNotRun: boolean;
  readonly timeoutMs: number;
  readonly logPath?: string;
}

export function interpretStage(input: InterpretInput): StageOutcome {
  const { child } = input;
  const report = parseStageOutput(input.stage, child);
  const base = {
    stage: input.stage,
    command: input.command,
    allowedNotRun: input.allowedNotRun,
    exitCode: child.exitCode,
    signal: child.signal,
    startedAt: child.startedAt,
    durationMs: child.durationMs,
    leftoverProcesses: child.leftoverProcesses,
    report,
    ...(input.logPath !== undefined ? { logPath: input.logPath } : {}),
    ...(child.cpu ? { cpu: child.cpu } : {}),
  };
  const err = (reason: string): StageOutcome => ({ ...base, status: 'error', reason, summary: reason });
  const tail = lastLine(child.stderr);

  if (child.spawnError !== undefined) return err(`could not start: ${child.spawnError}`);
  if (child.timedOut) return err(`timed out after ${Math.round(input.timeoutMs / 1000)} s (process group killed)`);
  if (child.signal !== null) return err(`killed by ${child.signal}${tail ? `: ${tail}` : ''}`);

  if (report) {
    const expected = EXPECTED_EXIT[report.status];
    if (report.status === 'passed' && child.exitCode !== expected) return err(`report says passed but the command exited ${child.exitCode}${tail ? `: ${tail}` : ''}`);
    const status: OutcomeStatus = report.status;
    const mismatch = child.exitCode !== expected ? ` (exit code ${child.exitCode})` : '';
    const reason = report.reason ?? (status === 'not-run' ? `not run (the stage gave no reason)${tail ? `: ${tail}` : ''}` : status === 'failed' ? report.summary : undefined);
    return {
      ...base,
      status,
      summary: report.summary,
      ...(report.counts ? { counts: report.counts } : {}),
      ...(reason !== undefined || mismatch ? { reason: `${reason ?? ''}${mismatch}`.trim() } : {}),
    };
  }

  switch (child.exitCode) {
    case ExitCode.NotRun: {
      const reason = stripPrefix(tail) || 'not run (no reason printed)';
      return { ...base, status: 'not-run', reason, summary: `not run: ${reason}` };
    }
    case ExitCode.Failed:
      return { ...base, status: 'failed', reason: tail || 'failed (no report printed)', summary: tail || 'failed' };
    case ExitCode.Usage:
      return err(`usage error (verify passed an option the command does not take?): ${tail}`);
    case ExitCode.BadInput:
      return err(`bad input: ${tail}`);
    default:
      return err(`exited ${child.exitCode} without a stage report on stdout${tail ? `: ${tail}` : ''}`);
  }
}

/**
 * The StageReport on a stage's stdout. `fencecheck mutants --json` prints an array of MutantResult:
 * that is wrapped into a report whose status follows the results.
 */
export function parseStageOutput(stage: string, child: Pick<ChildResult, 'stdout' | 'stderr' | 'exitCode' | 'startedAt' | 'durationMs'>): StageReport | null {
  const text = child.stdout.trim();
  if (text === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // A stage that logs before its JSON: take the last line that parses as a report.
    const lines = text.split('\n').reverse();
    raw = undefined;
    for (const l of lines) {
      try {
        raw = JSON.parse(l);
        break;
      } catch {
        /* keep looking */
      }
    }
    if (raw === undefined) return null;
  }
  if (isStageReport(raw)) return raw;
  if (Array.isArray(raw) && raw.every(isMutantResult)) return wrapMutantResults(stage, raw, child);
  return null;
}

function isStageReport(v: unknown): v is StageReport {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<StageReport>;
  return r.schema === 'fencecheck.stage/1' && (r.status === 'passed' || r.status === 'failed' || r.status === 'not-run') && typeof r.summary === 'string';
}

function isMutantResult(v: unknown): v is MutantResult {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<MutantResult>;
  return typeof r.id === 'string' && typeof r.layer === 'string' && typeof r.verdict === 'string';
}

function wrapMutantResults(stage: string, results: MutantResult[], child: Pick<ChildResult, 'stderr' | 'exitCode' | 'startedAt' | 'durationMs'>): StageReport {
  const ran = results.filter((r) => r.verdict !== 'not-run');
  const killed = results.filter((r) => r.verdict === 'killed').length;
  const notKilled = ran.filter((r) => r.verdict !== 'killed');
  const notRunReason = results.find((r) => r.verdict === 'not-run')?.reason;
  // One mutant not run (Valkey lost mid-run) makes the stage not run, whatever the exit code said.
  const notRunIds = results.filter((r) => r.verdict === 'not-run').map((r) => r.id);
  const status: StageStatus =
    notKilled.length > 0 || child.exitCode === ExitCode.Failed ? 'failed' : notRunIds.length > 0 || ran.length === 0 || child.exitCode === ExitCode.NotRun ? 'not-run' : 'passed';
  const summary =
    status === 'not-run'
      ? ran.length > 0
        ? `${killed}/${results.length} mutants killed; not run: ${notRunIds.join(', ')}: ${notRunReason ?? stripPrefix(lastLine(child.stderr))}`
        : `not run: ${notRunReason ?? stripPrefix(lastLine(child.stderr))}`
      : `${killed}/${results.length} mutants killed${notKilled.length > 0 ? `; not killed: ${notKilled.map((r) => `${r.id} ${r.verdict}`).join(', ')}` : ''}`;
  const reason = status === 'not-run' ? (notRunReason ?? stripPrefix(lastLine(child.stderr))) : status === 'failed' ? summary : undefined;
  const traces = results.map((r) => r.tracePath).filter((p): p is string => typeof p === 'string');
  return stageReport({
    stage,
    status,
    ...(reason !== undefined ? { reason } : {}),
    startedAt: child.startedAt,
    durationMs: child.durationMs,
    summary,
    counts: { mutants: results.length, killed, notKilled: notKilled.length, notRun: results.length - ran.length },
    mutants: results,
    ...(traces.length > 0 ? { traces } : {}),
  });
}

function lastLine(s: string): string {
  const lines = s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

/** `fencecheck props: not run: no valkey-server` → `no valkey-server`. */
function stripPrefix(line: string): string {
  return line
    .replace(/^fencecheck [^:]+:\s*/, '')
    .replace(/^(\[[^\]]+\]\s*)?not run:\s*/, '')
    .trim();
}
