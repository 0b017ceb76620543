import type { Command } from '../../core/command.js';
import { parseCommandArgs } from '../../core/args.js';
import { ExitCode, statusExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import { renderTable } from '../../core/table.js';
import { ManifestError } from '../../core/manifest.js';
import { checkSystem, overall, type SystemCheck } from '../../seam/check.js';
import { MODEL_NAMES, SYSTEMS } from '../../registry/systems.js';
import { selectSystemNames } from '../../registry/select.js';

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
    const names = selectSystemNames(values.system);
    const startedAt = new Date();
    const checks: SystemCheck[] = [];
    try {
      for (const n of names) checks.push(await checkSystem(await SYSTEMS[n]!()));
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      process.stderr.write(`fencecheck systems: ${err.message}\n`);
      return ExitCode.BadInput;
    }
    const status = overall(checks);
    const rows = checks.flatMap((c) => c.rows.map((r) => [c.system, r.check, r.status, r.detail]));
    const summary = checks.map((c) => `${c.system}: ${c.status} (${c.distinct} states, ${c.rows.filter((r) => r.check.startsWith('mutant')).length} mutants)`).join('; ');
    if (values.json) {
      const counts = Object.fromEntries(
        checks.flatMap((c) => [
          [`${c.system}.states`, c.distinct],
          [`${c.system}.generated`, c.generated],
        ]),
      );
      const notRun = checks.flatMap((c) => c.rows.filter((r) => r.status === 'not-run').map((r) => `${c.system} ${r.check}: ${r.detail}`));
      process.stdout.write(
        `${JSON.stringify(stageReport({ stage: 'systems', status, ...(status === 'not-run' ? { reason: notRun.join('; ') } : status === 'failed' ? { reason: summary } : {}), startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary, counts, details: { systems: checks } }), null, 2)}\n`,
      );
    } else {
      process.stdout.write(`${renderTable(['system', 'check', 'status', 'detail'], rows)}\n\nsystems: ${status.toUpperCase()}: ${summary}\n`);
    }
    return statusExitCode(status);
  },
};
