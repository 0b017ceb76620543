import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'props' command lands: says so, never passes.
export const command: Command = {
  name: 'props',
  summary: '(not built yet)',
  help: 'Usage: fencecheck props — not built yet.',
  async run() {
    process.stderr.write('fencecheck props: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
