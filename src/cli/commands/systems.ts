import type { Command } from '../../core/command.js';
import { parseCommandArgs } from '../../core/args.js';
import { renderTable } from '../../core/table.js';
import type { SystemCheck } from '../../seam/check.js';
import { MODEL_NAMES } from '../../registry/systems.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck systems [--system NAME]... [--json]

The model layer of every system, judged against TLC's committed evidence (evidence/tlc/<system>/):
the XState twin explored exhaustively with every invariant checked; its reachable states and its
labelled state graph (and TLC's "generated") equal to TLC's; and every mutant
mutants/manifest.json lists for the system (its model patch provided to the machine) killed by its
expected invariant, after as many states as TLC's counterexample (evidence/tlc/<system>/<id>.json).
Systems: ${MODEL_NAMES.join(', ')}.

Options:
  --system NAME   only this system (repeatable; default: all)
  --json          print a StageReport (fencecheck.stage/1); details: one entry per system

Exit codes: 0 every check passed · 1 a check failed (an invariant broke, parity broke, a mutant
survived, its patch is invalid, or it disagrees with TLC) · 2 not run: the TLC evidence is missing or
stale · 3 bad manifest · 64 usage`;

export const command: Command = {
  name: 'systems',
  summary: "every system's model layer: exploration, parity with TLC, mutants killed as TLC kills them",
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { system: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } });
    const { systemsStage } = await import('../../stages/systems.js');
    return runAndPrint(
      'systems',
      {
        json: values.json,
        human: (r) => {
          const checks = (r.details as { systems: readonly SystemCheck[] }).systems;
          const rows = checks.flatMap((c) => c.rows.map((row) => [c.system, row.check, row.status, row.detail]));
          process.stdout.write(`${renderTable(['system', 'check', 'status', 'detail'], rows)}\n\nsystems: ${r.status.toUpperCase()}: ${r.summary}\n`);
        },
      },
      () => systemsStage(values.system ? { systems: values.system } : {}),
    );
  },
};
