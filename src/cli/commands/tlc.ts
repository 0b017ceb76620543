import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'tlc' command lands: says so, never passes.
export const command: Command = {
  name: 'tlc',
  summary: '(not built yet)',
  help: 'Usage: fencecheck tlc — not built yet.',
  async run() {
    process.stderr.write('fencecheck tlc: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
