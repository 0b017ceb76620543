/**
 * Why a base run did not pass, for any spec: a violation is a failed check (exit 1); a timeout,
 * a SANY error, a crash or a config error means TLC could not check it (exit 2).
 */
import { ExitCode } from '../../core/exit-codes.js';
import type { TlcRun } from '../../tlc/run.js';

export interface BaseProblem {
  readonly exit: typeof ExitCode.Failed | typeof ExitCode.NotRun;
  readonly reason: string;
}

export function baseProblemOf(run: TlcRun, what = 'the base model'): BaseProblem | undefined {
  if (run.kind === 'timeout') return { exit: ExitCode.NotRun, reason: `timeout: TLC did not finish in ${Math.round(run.timeoutMs / 1000)} s` };
  const r = run.result;
  switch (r.outcome) {
    case 'ok':
      return undefined;
    case 'invariant-violation':
    case 'deadlock':
    case 'property-violation':
      return { exit: ExitCode.Failed, reason: `${r.outcome}${r.violated ? `: ${r.violated}` : ''} in ${what}` };
    case 'parse-error': {
      const d = r.sany.map((x) => `${x.file}:${x.line}:${x.column}: ${x.message}`).join('; ');
      return { exit: ExitCode.NotRun, reason: `SANY error: ${d || 'the spec does not parse'}` };
    }
    default:
      return { exit: ExitCode.NotRun, reason: `TLC ${r.outcome}: ${r.errors[0]?.split('\n').slice(0, 3).join(' ') ?? 'no message'}` };
  }
}
