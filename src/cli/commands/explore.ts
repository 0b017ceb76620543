import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'explore' command lands: says so, never passes.
export const command: Command = {
  name: 'explore',
  summary: '(not built yet)',
  help: 'Usage: fencecheck explore — not built yet.',
  async run() {
    process.stderr.write('fencecheck explore: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
