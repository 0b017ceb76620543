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
  /** Wrong command-line usage. */
  Usage: 64,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
