import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'parity' command lands: says so, never passes.
export const command: Command = {
  name: 'parity',
  summary: '(not built yet)',
  help: 'Usage: fencecheck parity — not built yet.',
  async run() {
    process.stderr.write('fencecheck parity: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
