import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, signalExitCode } from '../core/exit-codes.js';
import { endingSignal, endingSignalWithin, whenEnding, type EndSignal } from '../core/process-end.js';
import { projectRoot } from '../core/project-root.js';
import { commandModules, loadCommand } from './registry.js';
import { commandSummaries } from './summaries.js';
import type { Command } from '../core/command.js';
import { UsageError } from '../core/args.js';
import { maskSecrets } from '../core/secrets.js';
import { checkEnvironment, EnvError } from '../core/env.js';
import { recordObservedTraces } from '../seam/tracecheck/store.js';
import { ValkeyUnavailableError } from '../valkey/errors.js';
import { watchVerifyParent } from '../verify/watchdog.js';
import { watchParent } from '../core/parent-watchdog.js';
import { traceDirProblem } from '../core/trace-dir.js';
import { asksForJson, jsonErrorTap } from './json-errors.js';

/**
 * Set when a signal is ending the process (src/core/process-end.ts): what the command still prints
 * after it — a check that saw its servers killed, a report of the run cut short — is the teardown's
 * noise, not a result, and is dropped. The one line main() prints says what happened instead.
 */
let silenced = false;

/**
 * Everything the CLI prints goes through maskSecrets: a password in an endpoint URL
 * (`redis://user:pass@host`) never reaches a terminal, a log or a `--json` report, whichever
 * message carried it. Installed once per process by main(); also drops output once `silenced`.
 */
function maskOutput(stream: NodeJS.WriteStream): void {
  const marked = stream as NodeJS.WriteStream & { fencecheckMasked?: boolean };
  if (marked.fencecheckMasked) return;
  marked.fencecheckMasked = true;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (silenced) {
      // Dropped, but a caller waiting for its write callback is not left waiting.
      const done = rest.find((r): r is () => void => typeof r === 'function');
      if (done) queueMicrotask(done);
      return true;
    }
    if (typeof chunk === 'string') return write(maskSecrets(chunk), ...rest);
    if (chunk instanceof Uint8Array && chunk.includes(0x40 /* @ */)) {
      const text = Buffer.from(chunk).toString('utf8');
      const masked = maskSecrets(text);
      if (masked !== text) return write(masked, ...rest);
    }
    return write(chunk, ...rest);
  }) as NodeJS.WriteStream['write'];
}

const USAGE = `fencecheck — formal-model-driven verification: each system's TLA+ spec checked by TLC, its XState twin
explored, its real code driven by the model, every mutant of one manifest killed at every layer

Usage: fencecheck <command> [options]
       fencecheck <command> --help     (or: fencecheck help <command>)
       fencecheck --version

Numeric options take decimal integers only (no exponent, hex or fraction); a negative one may
follow its option or join it: --seed -5 or --seed=-5.

Exit codes: 0 all held · 1 a check failed · 2 could not run · 3 bad input · 64 usage`;

async function listCommands(): Promise<string> {
  const summaries = await commandSummaries();
  const width = Math.max(...Object.keys(commandModules).map((n) => n.length));
  return Object.entries(summaries)
    .map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`)
    .join('\n');
}

/**
 * A command that threw may have left connections open, which would keep the process alive after
 * main() returns (an uncaught throw used to end it at once). Exit with the code if it is still
 * here shortly after; the timer itself keeps nothing alive.
 */
function exitSoon(code: ExitCode): void {
  setTimeout(() => process.exit(code), 1000).unref();
}

/**
 * How long an unexpected error waits for a signal before it is called a crash. Ctrl-C reaches the
 * servers too (they share our process group): their closed sockets may be read, and the command's
 * error raised, before the signal itself is handled in the same turn of the event loop.
 */
const SIGNAL_GRACE_MS = 200;

/**
 * Once a signal is ending the process: one line says so, the command's further output is dropped,
 * and an exception or rejection the teardown provokes (a request on a connection the end just
 * closed) neither prints a stack nor ends the process before the signal does.
 */
function quietEnd(name: string): void {
  whenEnding((sig: EndSignal) => {
    const open = process.stderr.isTTY ? '\n' : ''; // a progress line may be open on a terminal
    process.stderr.write(`${open}fencecheck ${name}: stopped by ${sig} (exit ${signalExitCode(sig)}); its servers and temporary folders are removed\n`);
    silenced = true;
    process.on('uncaughtException', () => {});
    process.on('unhandledRejection', () => {});
  });
}

function usage(message: string): ExitCode {
  process.stderr.write(`fencecheck: ${message}\n`);
  return ExitCode.Usage;
}

/** The version in package.json. */
function version(): string {
  try {
    const v = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function main(argv: readonly string[]): Promise<ExitCode> {
  // A stage of `fencecheck verify`, or a worker of the impl layer, stops itself when the fencecheck
  // that started it is gone (no-op otherwise).
  watchVerifyParent();
  watchParent();
  maskOutput(process.stdout);
  maskOutput(process.stderr);
  // A reader that went away (`fencecheck evidence | head -1`) ends the process as SIGPIPE would, without a stack.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(141);
      throw err;
    });
  }
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    if (rest.length > 0) return usage(`--version takes no arguments, got '${rest[0]}'`);
    process.stdout.write(`fencecheck ${version()}\n`);
    return ExitCode.Ok;
  }
  if ((name === 'help' || name === '--help' || name === '-h') && rest.length > 0) {
    if (rest.length > 1) return usage(`help takes one command, got ${rest.length}`);
    const target = await loadCommand(rest[0]!);
    if (!target) return usage(`unknown command '${rest[0]}'. Run 'fencecheck --help'.`);
    process.stdout.write(`${target.help.trimEnd()}\n`);
    return ExitCode.Ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n\nCommands:\n${await listCommands()}\n`);
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  const cmd = await loadCommand(name);
  if (!cmd) return usage(`unknown command '${name}'. Run 'fencecheck --help'.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${cmd.help.trimEnd()}\n`);
    return ExitCode.Ok;
  }
  // With --json, every way the command can end leaves a document on stdout.
  const tap = asksForJson(rest) ? jsonErrorTap(name) : undefined;
  const code = await runCommand(name, cmd, rest);
  if (!silenced) tap?.finish(code);
  return code;
}

async function runCommand(name: string, cmd: Command, rest: readonly string[]): Promise<ExitCode> {
  // Where traces go is known before the command starts (src/core/trace-dir.ts).
  const traceDirBad = traceDirProblem();
  if (traceDirBad !== null) {
    process.stderr.write(`fencecheck ${name}: ${traceDirBad}\n`);
    return ExitCode.BadInput;
  }
  quietEnd(name);
  try {
    // Before anything starts (a server, TLC, a file written): a bad FENCECHECK_* value is bad input.
    checkEnvironment();
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    process.stderr.write(`fencecheck ${name}: ${maskSecrets(err.message)}\n`);
    return ExitCode.BadInput;
  }
  // A command records its runs' observed traces (src/seam/tracecheck/store.ts); a library caller only when asked.
  recordObservedTraces();
  try {
    const code = await cmd.run(rest);
    const sig = endingSignal();
    return sig !== undefined ? signalExitCode(sig) : code;
  } catch (err) {
    if (err instanceof UsageError) {
      // One line: the problem, then where the usage is.
      process.stderr.write(`fencecheck ${name}: ${maskSecrets(err.message.replace(/\s*\n\s*/g, ' '))} (see 'fencecheck ${name} --help')\n`);
      return ExitCode.Usage;
    }
    // An error that comes with a signal ending the process is the end's doing (its servers killed,
    // its connections closed): not a crash. The signal ends the process in a moment.
    const sig = await endingSignalWithin(SIGNAL_GRACE_MS);
    if (sig !== undefined) return signalExitCode(sig);
    if (err instanceof ValkeyUnavailableError) {
      // "Could not run" is exit 2 wherever it surfaces; never a stack trace.
      process.stderr.write(`fencecheck ${name}: not run: ${maskSecrets(err.message.replace(/^not run: /, ''))}\n`);
      exitSoon(ExitCode.NotRun);
      return ExitCode.NotRun;
    }
    // An unexpected crash: the stack helps, but a password in a message must not be printed with it.
    process.stderr.write(`fencecheck ${name}: crashed: ${maskSecrets(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    exitSoon(ExitCode.Failed);
    return ExitCode.Failed;
  }
}
