import type { TlcOutcome, TlcResult } from './tool-output.js';

/**
 * TLC's process exit status (tlc2/output/EC.java, class ExitStatus), checked against the outcome
 * read from its messages: the two come from different code paths in TLC, so a disagreement means
 * the output was cut short or misread, and is never reported as a pass.
 */
export const TLC_EXIT = {
  SUCCESS: 0,
  VIOLATION_ASSUMPTION: 10,
  VIOLATION_DEADLOCK: 11,
  VIOLATION_SAFETY: 12,
  VIOLATION_LIVENESS: 13,
  VIOLATION_ASSERT: 14,
  FAILURE_SPEC_EVAL: 75,
  FAILURE_SAFETY_EVAL: 76,
  FAILURE_LIVENESS_EVAL: 77,
  ERROR_SPEC_PARSE: 150,
  ERROR_CONFIG_PARSE: 151,
  ERROR_STATESPACE_TOO_LARGE: 152,
  ERROR_SYSTEM: 153,
  /** Any other error (EC.ExitStatus.ERROR), e.g. a .cfg syntax error wrapped in an exception. */
  ERROR: 255,
} as const;

const MEANING: Readonly<Record<number, string>> = {
  0: 'success',
  10: 'assumption violated',
  11: 'deadlock',
  12: 'safety violation',
  13: 'liveness violation',
  14: 'assert failed',
  75: 'spec evaluation failure',
  76: 'safety evaluation failure',
  77: 'liveness evaluation failure',
  150: 'spec parse error',
  151: 'config parse error',
  152: 'state space too large',
  153: 'system error',
  255: 'error',
};

export function exitMeaning(code: number): string {
  return MEANING[code] ?? (code > 0 && code < 10 ? 'JVM or launcher error' : 'unknown exit status');
}

/** The exit statuses TLC gives each outcome. */
export function expectedExitCodes(outcome: TlcOutcome): readonly number[] {
  switch (outcome) {
    case 'ok':
      return [TLC_EXIT.SUCCESS];
    case 'assumption-false':
      return [TLC_EXIT.VIOLATION_ASSUMPTION];
    case 'deadlock':
      return [TLC_EXIT.VIOLATION_DEADLOCK];
    case 'invariant-violation':
      return [TLC_EXIT.VIOLATION_SAFETY];
    case 'property-violation':
      return [TLC_EXIT.VIOLATION_LIVENESS];
    case 'parse-error':
      return [TLC_EXIT.ERROR_SPEC_PARSE];
    case 'config-error':
      return [TLC_EXIT.ERROR_CONFIG_PARSE, TLC_EXIT.ERROR];
    case 'eval-error':
      return [TLC_EXIT.VIOLATION_ASSERT, TLC_EXIT.FAILURE_SPEC_EVAL, TLC_EXIT.FAILURE_SAFETY_EVAL, TLC_EXIT.FAILURE_LIVENESS_EVAL, TLC_EXIT.ERROR];
    case 'crash':
      return [];
  }
}

/**
 * The one outcome an exit status names (tlc2.output.EC.ExitStatus), or undefined when it names none:
 * 0 (success: never taken on the status alone), 255 (any error), a JVM failure.
 */
export function outcomeOfExit(code: number): TlcOutcome | undefined {
  switch (code) {
    case TLC_EXIT.VIOLATION_ASSUMPTION:
      return 'assumption-false';
    case TLC_EXIT.VIOLATION_DEADLOCK:
      return 'deadlock';
    case TLC_EXIT.VIOLATION_SAFETY:
      return 'invariant-violation';
    case TLC_EXIT.VIOLATION_LIVENESS:
      return 'property-violation';
    case TLC_EXIT.VIOLATION_ASSERT:
    case TLC_EXIT.FAILURE_SPEC_EVAL:
    case TLC_EXIT.FAILURE_SAFETY_EVAL:
    case TLC_EXIT.FAILURE_LIVENESS_EVAL:
      return 'eval-error';
    case TLC_EXIT.ERROR_SPEC_PARSE:
      return 'parse-error';
    case TLC_EXIT.ERROR_CONFIG_PARSE:
      return 'config-error';
    case TLC_EXIT.ERROR_STATESPACE_TOO_LARGE:
    case TLC_EXIT.ERROR_SYSTEM:
      return 'crash';
    default:
      return undefined;
  }
}

/**
 * The result with TLC's exit status attached and cross-checked. Where the messages and the status
 * disagree, the status decides when it names one outcome (a violation, a parse, config or evaluation
 * error): the messages are read by pattern, and a message kind they misread (a warning carrying a
 * config code beside a liveness violation, read as a config error) must not turn TLC's own verdict
 * into "could not check". It never makes a pass: a status 0 beside messages that say otherwise, or a
 * status that names no outcome (255, a JVM failure) beside messages that say success, is recorded
 * and the run is not taken as checked (a pass becomes `crash`).
 */
export function reconcileExit(result: TlcResult, code: number | null, opts: { continued?: boolean } = {}): TlcResult {
  if (code === null) return result;
  const meaning = exitMeaning(code);
  // With -continue TLC prints each violation and carries on, and exits 0 (ModelChecker.doNextCheckInvariants).
  const continued = opts.continued === true && (result.outcome === 'invariant-violation' || result.outcome === 'property-violation');
  const expected = [...expectedExitCodes(result.outcome), ...(continued ? [TLC_EXIT.SUCCESS] : [])];
  if (expected.includes(code)) return { ...result, exit: { code, meaning, agrees: true } };
  const byExit = outcomeOfExit(code);
  if (byExit !== undefined) {
    // A crash TLC itself classified (150, 151, 75–77) just takes that outcome.
    if (result.outcome === 'crash') return { ...result, outcome: byExit, exit: { code, meaning, agrees: true } };
    const { violated, violationKind, ...rest } = result;
    // The property's name stays only where the messages name a violation of the same kind.
    const same = (byExit === 'invariant-violation' && violationKind === 'invariant') || (byExit === 'property-violation' && violationKind !== undefined && violationKind !== 'invariant');
    const keep = same ? { ...(violated !== undefined && { violated }), violationKind } : {};
    const note = `TLC's messages read as ${result.outcome}; its exit status ${code} (${meaning}) decides: ${byExit}`;
    return { ...rest, ...keep, outcome: byExit, exit: { code, meaning, agrees: false, decided: true }, errors: [...result.errors, note] };
  }
  if (result.outcome === 'crash') return { ...result, exit: { code, meaning, agrees: code !== 0 } };
  const note = `TLC exited with ${code} (${meaning}), but its output reports ${result.outcome} (expected exit ${expected.join(' or ')})`;
  return {
    ...result,
    ...(result.outcome === 'ok' && { outcome: 'crash' as const }),
    exit: { code, meaning, agrees: false },
    errors: [...result.errors, note],
  };
}
