import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'verify' command lands: says so, never passes.
export const command: Command = {
  name: 'verify',
  summary: '(not built yet)',
  help: 'Usage: fencecheck verify — not built yet.',
  async run() {
    process.stderr.write('fencecheck verify: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
