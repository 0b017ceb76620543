import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'slot' command lands: says so, never passes.
export const command: Command = {
  name: 'slot',
  summary: '(not built yet)',
  help: 'Usage: fencecheck slot — not built yet.',
  async run() {
    process.stderr.write('fencecheck slot: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
