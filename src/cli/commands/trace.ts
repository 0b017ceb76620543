import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'trace' command lands: says so, never passes.
export const command: Command = {
  name: 'trace',
  summary: '(not built yet)',
  help: 'Usage: fencecheck trace — not built yet.',
  async run() {
    process.stderr.write('fencecheck trace: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
