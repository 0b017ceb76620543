import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { Trace } from '../core/trace-format.js';
import type { SpecCheck } from './spec-check.js';
import type { TlcOutcome } from './tool-output.js';

/**
 * The name a --spec run's reports go by (reports/tlc/<name>.json, <name>.trace.json): the spec's
 * name and 8 hex digits of its absolute path, so two specs named MC.tla never overwrite each other.
 */
export function specRunName(spec: string): string {
  return `${basename(spec, '.tla')}-${createHash('sha256').update(resolve(spec)).digest('hex').slice(0, 8)}`;
}

/** How `fencecheck tlc --spec` ends for each outcome: exit 0 pass, 1 a property failed, 2 could not check. */
export function specVerdict(outcome: TlcOutcome | 'timeout'): { status: 'passed' | 'failed' | 'not-run'; exit: 0 | 1 | 2 } {
  switch (outcome) {
    case 'ok':
      return { status: 'passed', exit: 0 };
    case 'invariant-violation':
    case 'property-violation':
    case 'deadlock':
    case 'assumption-false':
      return { status: 'failed', exit: 1 };
    default:
      return { status: 'not-run', exit: 2 };
  }
}

/**
 * The text lines of one --spec run (what `log` prints), and the one-line reason when it did not pass.
 * `showTrace` gives the counterexample's lines (the trace layer's step table, src/trace/, which this
 * layer may not import: the command passes it).
 */
export function describeSpecRun(c: SpecCheck, spec: string, config: string, showTrace: (t: Trace) => readonly string[] = () => []): { lines: string[]; reason?: string } {
  const lines: string[] = [];
  if (c.run.kind === 'timeout') return { lines: [`${spec} with ${config}: timeout`], reason: `timeout: TLC did not finish in ${Math.round(c.run.timeoutMs / 1000)} s` };
  const r = c.run.result;
  if (r.version) lines.push(r.version);
  lines.push(`${spec} with ${config}`);
  lines.push(
    `outcome: ${r.outcome}${r.violated ? ` (${r.violationKind ?? 'violated'} ${r.violated})` : ''}; ${r.generated ?? '?'} states generated, ${r.distinct ?? '?'} distinct, depth ${r.depth ?? '?'}, TLC time ${r.durationMs ?? '?'} ms`,
  );
  if (r.exit)
    lines.push(
      `TLC exit status ${r.exit.code} (${r.exit.meaning})${r.exit.agrees ? ', as its output says' : r.exit.decided ? ' decides the outcome (its messages read otherwise)' : ' — DISAGREES with its output'}`,
    );
  for (const u of r.unreadable ?? []) lines.push(`cannot read the value of ${u.variable} in state ${u.step}: ${u.message}`);
  if (c.trace) lines.push('', ...showTrace(c.trace));
  if (c.traceProblem) lines.push(`trace: ${c.traceProblem}`);
  const sany = r.sany.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`);
  const firstError = r.errors[0]?.split('\n').slice(0, 3).join(' ');
  let reason: string | undefined;
  switch (r.outcome) {
    case 'ok':
      break;
    case 'parse-error':
      reason = `SANY error: ${sany.join('; ') || 'the spec does not parse'}`;
      break;
    case 'config-error':
      reason = `config error: ${firstError ?? 'TLC could not use the config'}`;
      break;
    case 'invariant-violation':
    case 'property-violation':
      reason = `${r.outcome}: ${r.violated ?? '?'}`;
      break;
    default:
      reason = `${r.outcome}${firstError ? `: ${firstError}` : ''}`;
  }
  if (r.exit && !r.exit.agrees && !r.exit.decided) reason = `${reason ? `${reason}; ` : ''}TLC exited with ${r.exit.code} (${r.exit.meaning}), which disagrees with its output`;
  return { lines, ...(reason !== undefined && { reason }) };
}
