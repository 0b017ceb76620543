import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from '../../../core/command.js';
import { parseCommandArgs } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { projectRoot } from '../../../core/project-root.js';
import { stageReport } from '../../../core/stage-report.js';
import { DIAGRAM_PATH, diagramDocument } from '../model/diagram.js';

const HELP = `Usage: fencecheck diagram [--check] [--json]

Renders the XState machine (models/fencing/machine.ts) as a Mermaid state diagram into
${DIAGRAM_PATH}. With --check, writes nothing and fails when the committed copy is out of date.

Options:
  --check   compare only
  --json    print a StageReport (fencecheck.stage/1)

Exit codes: 0 written (or up to date) · 1 --check found the committed diagram out of date · 64 usage`;

export const command: Command = {
  name: 'diagram',
  summary: 'render the XState machine as a Mermaid state diagram into the docs',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { check: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } });
    const startedAt = new Date();
    const file = join(projectRoot, DIAGRAM_PATH);
    const fresh = diagramDocument();
    const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
    let status: 'passed' | 'failed' = 'passed';
    let summary: string;
    if (values.check) {
      status = current === fresh ? 'passed' : 'failed';
      summary =
        current === null ? `${DIAGRAM_PATH} is missing: run fencecheck diagram` : current === fresh ? `${DIAGRAM_PATH} is up to date` : `${DIAGRAM_PATH} is out of date: run fencecheck diagram`;
    } else {
      mkdirSync(dirname(file), { recursive: true });
      if (current !== fresh) writeFileSync(file, fresh);
      summary = current === fresh ? `${DIAGRAM_PATH} already up to date` : `wrote ${DIAGRAM_PATH}`;
    }
    if (values.json) {
      const report = stageReport({
        stage: 'diagram',
        status,
        ...(status === 'failed' ? { reason: summary } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else (status === 'passed' ? process.stdout : process.stderr).write(`${status === 'passed' ? '' : 'fencecheck diagram: failed: '}${summary}\n`);
    return status === 'passed' ? ExitCode.Ok : ExitCode.Failed;
  },
};
