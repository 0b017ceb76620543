import type { Command } from '../../core/command.js';
import { parseCommandArgs } from '../../core/args.js';
import { formatMutantTable } from '../../mutants/report-table.js';
import { MODEL_NAMES } from '../../registry/systems.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck evidence [--json]

Checks every system's committed TLC evidence (evidence/tlc/<system>/: ${MODEL_NAMES.join(', ')}) without Java:
recomputes the SHA-256 of each spec and of every config, and requires the base run with its state
list (base.states.txt) and its labelled state graph (base.edges.txt: file hashes, counts, self-loops,
the canonical edge hash and TLC's "generated" recomputed), plus one record per tla-layer mutant of
mutants/manifest.json, each with its verdict and trace. Then requires that the evidence shows every
base passing and every mutant killed.

Exit codes: 0 fresh, complete, every base passed and every mutant killed · 1 stale or incomplete
evidence, or evidence of a failure · 3 bad input (a malformed mutants/manifest.json) · 64 usage`;

export const command: Command = {
  name: 'evidence',
  summary: 'check the committed TLC evidence is fresh and complete (no Java needed)',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } });
    const { evidenceStage } = await import('../../stages/evidence.js');
    return runAndPrint(
      'evidence',
      {
        json: values.json,
        human: (r) => {
          process.stdout.write(`${r.summary}\n`);
          if (r.mutants) process.stdout.write(`${formatMutantTable(r.mutants)}\n`);
          if (r.reason) process.stderr.write(`fencecheck evidence: ${r.reason}\n`);
        },
      },
      () => evidenceStage(),
    );
  },
};
