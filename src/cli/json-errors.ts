import { ExitCode } from '../core/exit-codes.js';
import { stageReport } from '../core/stage-report.js';

/**
 * `--json` on every path: a command asked for JSON that ends without having printed anything on
 * stdout (a usage error, bad input, a server it could not reach, a crash) prints a StageReport of
 * the error there, so a pipeline reading stdout always gets a document. Its reason is the one line
 * the command wrote to stderr; stderr keeps that line as before.
 */
export interface JsonErrorTap {
  /** Prints the error report when the command printed nothing on stdout and did not succeed. */
  finish(code: number): void;
}

/** Whether the arguments ask for JSON output (`--json`, or `--format json`). */
export function asksForJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--json' || a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'));
}

export function jsonErrorTap(command: string): JsonErrorTap {
  const startedAt = new Date();
  let printed = false;
  const errLines: string[] = [];
  const out = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const err = process.stderr.write.bind(process.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    printed = true;
    return out(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    errLines.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l.trim() !== ''),
    );
    return err(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    finish(code) {
      process.stdout.write = out as typeof process.stdout.write;
      process.stderr.write = err as typeof process.stderr.write;
      if (printed || code === ExitCode.Ok) return;
      const prefix = `fencecheck ${command}: `;
      const lines = errLines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l));
      const reason = lines.find((l) => !/^\s+at /.test(l)) ?? `exit ${code}`;
      const report = stageReport({
        stage: command,
        status: code === ExitCode.NotRun ? 'not-run' : 'failed',
        reason,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary: `${command}: ${reason}`,
        details: { exitCode: code, stderr: lines },
      });
      out(`${JSON.stringify(report, null, 2)}\n`);
    },
  };
}
