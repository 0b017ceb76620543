import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'diagram' command lands: says so, never passes.
export const command: Command = {
  name: 'diagram',
  summary: '(not built yet)',
  help: 'Usage: fencecheck diagram — not built yet.',
  async run() {
    process.stderr.write('fencecheck diagram: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
