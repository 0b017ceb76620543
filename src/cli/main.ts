import { ExitCode } from './exit-codes.js';
import { commandModules } from './registry.js';
import type { Command } from './command.js';
import { UsageError } from './args.js';

const USAGE = `fencecheck — formal-model-driven verification of the fenced session directory migration

Usage: fencecheck <command> [options]
       fencecheck <command> --help

Exit codes: 0 all held · 1 a check failed · 2 could not run · 3 bad input · 64 usage`;

async function loadCommand(name: string): Promise<Command | undefined> {
  const load = commandModules[name];
  if (!load) return undefined;
  try {
    return (await load()).command;
  } catch (err) {
    // A command whose module is not there yet is reported, not crashed on.
    if (err instanceof Error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(err.message)) return undefined;
    throw err;
  }
}

async function listCommands(): Promise<string> {
  const lines: string[] = [];
  for (const name of Object.keys(commandModules)) {
    const cmd = await loadCommand(name);
    if (cmd) lines.push(`  ${name.padEnd(10)} ${cmd.summary}`);
  }
  return lines.join('\n');
}

export async function main(argv: readonly string[]): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n\nCommands:\n${await listCommands()}\n`);
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  const cmd = await loadCommand(name);
  if (!cmd) {
    process.stderr.write(`fencecheck: unknown command '${name}'. Run 'fencecheck --help'.\n`);
    return ExitCode.Usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${cmd.help.trimEnd()}\n`);
    return ExitCode.Ok;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`fencecheck ${name}: ${err.message}\nRun 'fencecheck ${name} --help'.\n`);
      return ExitCode.Usage;
    }
    throw err;
  }
}
