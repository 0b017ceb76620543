import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'limiter' command lands: says so, never passes.
export const command: Command = {
  name: 'limiter',
  summary: '(not built yet)',
  help: 'Usage: fencecheck limiter — not built yet.',
  async run() {
    process.stderr.write('fencecheck limiter: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
