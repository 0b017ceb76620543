import type { Command } from '../../core/command.js';
import { parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { changeLine, diffReports, type Change } from '../../report/diff.js';
import { DocumentError, readVerifyDocument } from '../../report/read-doc.js';
import { stageReport } from '../../core/stage-report.js';

const HELP = `Usage: fencecheck diff OLD.json NEW.json [--json]

Compares two verify runs (reports/verify.json, schema fencecheck.verify/2; a /1 document is read
too) and prints each change on its own line, e.g. "mutant M3 impl: killed → survived": the
verdict, every stage's status and counts, every mutant × layer verdict, the mutation score, each
model's TLC hashes (spec, config, state and edge dumps) and figures, the commit, and the options that explain a difference (seed, runs).
Times, hosts and log paths are not compared.

Options:
  --json   print a StageReport (fencecheck.stage/1, stage "diff") with every change in details.changes

Exit codes: 0 no differences · 1 the runs differ · 3 a file is not a readable fencecheck.verify/2
document (one line names it and why) · 64 usage`;

export const command: Command = {
  name: 'diff',
  summary: 'what changed between two verify runs (verdicts, counts, hashes)',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } }, true);
    if (positionals.length !== 2) throw new UsageError(`takes two files, OLD.json and NEW.json; got ${positionals.length}`);
    const [oldPath, newPath] = positionals as [string, string];
    let changes: Change[];
    try {
      changes = diffReports(readVerifyDocument(oldPath), readVerifyDocument(newPath));
    } catch (err) {
      if (err instanceof DocumentError) {
        process.stderr.write(`fencecheck diff: ${err.message.replace(/\s*\n\s*/g, ' ')}\n`);
        return ExitCode.BadInput;
      }
      throw err;
    }
    const code = changes.length === 0 ? ExitCode.Ok : ExitCode.Failed;
    if (values.json) {
      const kinds: Record<string, number> = { changes: changes.length };
      for (const c of changes) kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
      const summary = changes.length === 0 ? `no differences between ${oldPath} and ${newPath}` : `${changes.length} change(s) from ${oldPath} to ${newPath}`;
      const report = stageReport({
        stage: 'diff',
        status: changes.length === 0 ? 'passed' : 'failed',
        ...(changes.length > 0 ? { reason: changes.slice(0, 3).map(changeLine).join('; ') + (changes.length > 3 ? '; …' : '') } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
        counts: kinds,
        details: { old: oldPath, new: newPath, changes: changes.map((c) => ({ ...c, line: changeLine(c) })) },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else process.stdout.write(changes.length === 0 ? 'no differences\n' : `${changes.map(changeLine).join('\n')}\n`);
    return code;
  },
};
