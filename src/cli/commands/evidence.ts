import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';

// Placeholder until the 'evidence' command lands: says so, never passes.
export const command: Command = {
  name: 'evidence',
  summary: '(not built yet)',
  help: 'Usage: fencecheck evidence — not built yet.',
  async run() {
    process.stderr.write('fencecheck evidence: not run: this command is not built yet\n');
    return ExitCode.NotRun;
  },
};
