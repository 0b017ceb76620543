import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from '../../core/command.js';
import { parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ManifestError } from '../../core/manifest.js';
import { projectRoot } from '../../core/project-root.js';
import { writeVerifyReports, reportFiles } from '../../report/write.js';
import { MergeError, mergeVerifyReports } from '../../verify/merge.js';
import { OutDirError, ReportWriteError, RunOutput } from '../../verify/out-dir.js';

const HELP = `Usage: fencecheck merge REPORT... [--out DIR] [--json]

Combines the verify.json of the N parts of a matrix run (each 'fencecheck verify --shard I/N') into
one verify verdict and one set of reports — verify.json, junit.xml, verify.md, verify.html in --out —
as one unsharded run gives them: a stage run as parts is merged from its parts (the conformance
tour by its figures and digests: the same counts and digest as one run; a mutant layer by its
results), a stage run whole in one part is taken as it is. Every part I of N must be given exactly
once, all of one commit: a missing or a duplicated part is bad input (exit 3), never a pass.
See docs/verify.md ("Shards and merge").

Options:
  --out DIR   where the merged reports go (default reports/merged)
  --json      print the merged verify document on stdout

Exit codes: the merged verdict's (0 every stage held · 1 something failed or did not run unallowed ·
2 nothing ran) · 2 the reports could not be written · 3 a report is missing, duplicated, unreadable,
not a shard's verify.json, or of another commit or split · 64 usage (no report given)`;

export const command: Command = {
  name: 'merge',
  summary: "combine the verify.json of a matrix's shards into one verdict and one set of reports",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string', default: 'reports/merged' }, json: { type: 'boolean', default: false } }, true);
    if (positionals.length === 0) throw new UsageError('give the verify.json of every shard (REPORT...)');
    const outDir = resolve(process.cwd(), values.out ?? 'reports/merged');
    const fail = (message: string, code: ExitCode) => {
      process.stderr.write(`fencecheck merge: ${message}\n`);
      return code;
    };
    const reports: { where: string; text: string }[] = [];
    for (const p of positionals) {
      try {
        reports.push({ where: p, text: readFileSync(p, 'utf8') });
      } catch (err) {
        return fail(`${p}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, ExitCode.BadInput);
      }
    }
    let doc;
    try {
      doc = mergeVerifyReports({ reports, out: relative(projectRoot, outDir) || '.' });
    } catch (err) {
      if (err instanceof MergeError || err instanceof ManifestError) return fail(err.message, ExitCode.BadInput);
      throw err;
    }
    try {
      const out = RunOutput.open(outDir);
      out.publish((dir, writeFile) => writeVerifyReports(doc, dir, projectRoot, { writeFile, linksFrom: outDir }));
    } catch (err) {
      if (err instanceof OutDirError || err instanceof ReportWriteError) return fail(err.message, ExitCode.NotRun);
      throw err;
    }
    const files = reportFiles(outDir);
    if (values.json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    else {
      process.stdout.write(`merge: ${doc.options.mergedShards} shards, ${doc.stages.length} stages: ${doc.verdict.status.toUpperCase()} (exit ${doc.verdict.exitCode})\n`);
      for (const o of doc.stages) process.stdout.write(`  ${o.stage.padEnd(16)} ${o.status.padEnd(8)} ${o.status === 'passed' ? o.summary : (o.reason ?? o.summary)}\n`);
      for (const r of doc.verdict.reasons) process.stdout.write(`  - ${r}\n`);
      process.stdout.write(`reports: ${files.json}, ${files.junit}, ${files.markdown}, ${files.html}\n`);
    }
    return doc.verdict.exitCode;
  },
};
