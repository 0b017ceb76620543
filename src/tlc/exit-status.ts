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

/** What an outcome-less run's exit status says it was (a crash whose status TLC itself classified). */
function outcomeOfExit(code: number): TlcOutcome | undefined {
  if (code === TLC_EXIT.ERROR_SPEC_PARSE) return 'parse-error';
  if (code === TLC_EXIT.ERROR_CONFIG_PARSE) return 'config-error';
  if (code >= TLC_EXIT.FAILURE_SPEC_EVAL && code <= TLC_EXIT.FAILURE_LIVENESS_EVAL) return 'eval-error';
  return undefined;
}

/**
 * The result with TLC's exit status attached and cross-checked. A run whose messages say success
 * but whose status does not becomes a `crash` (never a pass); a crash whose status TLC classified
 * (150, 151, 75–77) takes that outcome; any other disagreement is kept and recorded in `exit` and
 * `errors`.
 */
export function reconcileExit(result: TlcResult, code: number | null, opts: { continued?: boolean } = {}): TlcResult {
  if (code === null) return result;
  const meaning = exitMeaning(code);
  // With -continue TLC prints each violation and carries on, and exits 0 (ModelChecker.doNextCheckInvariants).
  const continued = opts.continued === true && (result.outcome === 'invariant-violation' || result.outcome === 'property-violation');
  const expected = [...expectedExitCodes(result.outcome), ...(continued ? [TLC_EXIT.SUCCESS] : [])];
  if (result.outcome === 'crash') {
    const byExit = outcomeOfExit(code);
    return { ...result, ...(byExit && { outcome: byExit }), exit: { code, meaning, agrees: byExit !== undefined || code !== 0 } };
  }
  if (expected.includes(code)) return { ...result, exit: { code, meaning, agrees: true } };
  const note = `TLC exited with ${code} (${meaning}), but its output reports ${result.outcome} (expected exit ${expected.join(' or ')})`;
  return {
    ...result,
    ...(result.outcome === 'ok' && { outcome: 'crash' as const }),
    exit: { code, meaning, agrees: false },
    errors: [...result.errors, note],
  };
}
