import type { ExitCode } from './exit-codes.js';

/** One `fencecheck` subcommand. Each lives in its own module under src/cli/commands/. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text: usage, options, exit codes. */
  readonly help: string;
  run(argv: readonly string[]): Promise<ExitCode>;
}
