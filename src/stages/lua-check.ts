/**
 * The lua-check stage: every key the project's own Lua scripts (every package's `luaScripts`) touch
 * is declared in KEYS, by Valkey 8's key specs. `fencecheck lua-check` checks any script and prints
 * text, SARIF or this report.
 */
import { resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';
import { stageReport, type StageReport } from '../core/stage-report.js';
import type { FailOn } from '../luacheck/findings.js';
import { shown, summaryLine } from '../luacheck/format.js';
import { committedSnapshot } from '../luacheck/keyspecs.js';
import { checkPaths, type RunResult } from '../luacheck/run.js';
import { LUA_SCRIPT_DIRS } from '../registry/systems.js';

export interface LuaCheckRun {
  /** Whose key specs: the server version. */
  readonly keySpecs: string;
  /** Read from a live node rather than the committed snapshot. */
  readonly live: boolean;
  readonly failOn: FailOn;
  readonly startedAt: Date;
  readonly durationMs: number;
}

export function luaCheckSummary(result: RunResult, keySpecs: string, live: boolean): string {
  return `${summaryLine(result)} (key specs: ${keySpecs}${live ? ', live' : ''})`;
}

/** A check's verdict: failed on a finding at or above `failOn`, or a file that could not be read. */
export function luaCheckReport(result: RunResult, run: LuaCheckRun): StageReport {
  const passed = result.unparseable === 0 && result.failing === 0;
  return stageReport({
    stage: 'lua-check',
    status: passed ? 'passed' : 'failed',
    ...(!passed && {
      reason:
        result.unparseable > 0
          ? `${result.unparseable} file${result.unparseable === 1 ? '' : 's'} could not be checked`
          : `${result.failing} finding${result.failing === 1 ? '' : 's'} (--fail-on ${run.failOn})`,
    }),
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs,
    summary: luaCheckSummary(result, run.keySpecs, run.live),
    counts: {
      files: result.files.length,
      errors: result.errors,
      warnings: result.warnings,
      unreachable: result.unreachable,
      unparseable: result.unparseable,
      suppressed: result.suppressed,
      failing: result.failing,
    },
    details: {
      keySpecs: run.keySpecs,
      failOn: run.failOn,
      files: result.files.map((f) => ({
        ...f,
        file: shown(f.file),
        findings: f.findings.map((x) => ({ ...x, file: shown(x.file), ...(x.via && { via: x.via.map((v) => ({ ...v, file: shown(v.file) })) }) })),
        ...(f.error && { error: { ...f.error, file: shown(f.error.file) } }),
      })),
    },
  });
}

/** verify's lua-check: the project's own scripts with the committed key specs, failing on a warning. */
export async function luaCheckStage(): Promise<StageReport> {
  const startedAt = new Date();
  const snapshot = committedSnapshot();
  const result = checkPaths(
    LUA_SCRIPT_DIRS.map((d) => resolve(projectRoot, d)),
    { snapshot, failOn: 'warning' },
  );
  return luaCheckReport(result, { keySpecs: snapshot.server, live: false, failOn: 'warning', startedAt, durationMs: Date.now() - startedAt.getTime() });
}
