/**
 * Process exit codes of every fencecheck command. Documented in README.md ("Exit codes").
 * 2 always means "could not run" and is never a pass.
 */
export const ExitCode = {
  /** Everything that ran held. */
  Ok: 0,
  /** A check failed: an invariant broke, a mutant survived, parity broke, evidence is stale. */
  Failed: 1,
  /** Could not run: missing Java, tla2tools.jar or valkey-server; TLC crashed or could not parse the spec. */
  NotRun: 2,
  /** Bad input: an invalid config, manifest, trace file or TLC output that cannot be parsed. */
  BadInput: 3,
  /** `--safety-only`: the patched code departs from the model, and every invariant held (an intended change, said so). */
  Departs: 4,
  /** Wrong command-line usage. */
  Usage: 64,
  /** Stopped by SIGHUP / SIGINT / SIGTERM (128 + the signal's number, as a shell reports it). */
  HungUp: 129,
  Interrupted: 130,
  Terminated: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code of a command stopped by one of the signals it handles. */
export function signalExitCode(sig: 'SIGHUP' | 'SIGINT' | 'SIGTERM'): ExitCode {
  return sig === 'SIGHUP' ? ExitCode.HungUp : sig === 'SIGINT' ? ExitCode.Interrupted : ExitCode.Terminated;
}

/** The exit code of a stage's status: passed 0, failed 1, not run 2. */
export function statusExitCode(status: 'passed' | 'failed' | 'not-run'): ExitCode {
  return status === 'passed' ? ExitCode.Ok : status === 'failed' ? ExitCode.Failed : ExitCode.NotRun;
}
