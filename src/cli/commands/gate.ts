import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'gate' command lands: says so, never passes.
export const command: Command = {
  name: 'gate',
  summary: '(not built yet)',
  help: 'Usage: fencecheck gate — not built yet.',
  async run() {
    process.stderr.write('fencecheck gate: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
