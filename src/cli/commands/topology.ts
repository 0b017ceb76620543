import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'topology' command lands: says so, never passes.
export const command: Command = {
  name: 'topology',
  summary: '(not built yet)',
  help: 'Usage: fencecheck topology — not built yet.',
  async run() {
    process.stderr.write('fencecheck topology: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
