import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for wrong command-line usage; main() turns it into exit code 64. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The one argument parser every command uses: strict, no positionals unless asked for. */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
