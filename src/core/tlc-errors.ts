/**
 * The TLC runner's failures, each mapped to one exit code by the CLI:
 * - TlcUnavailableError: no Java / no tla2tools.jar → not run (2).
 * - TlcOutputError: TLC's output (or a dump) could not be parsed → bad input (3).
 */
export class TlcUnavailableError extends Error {
  override readonly name = 'TlcUnavailableError';
}

export class TlcOutputError extends Error {
  override readonly name = 'TlcOutputError';
}
