/**
 * JUnit XML for CI systems: one testcase per stage, one per mutant × layer (the layer in its name:
 * CI tools key results on the name), the suites the stages' reports carry (`details.suites`: the
 * conformance tour's actions, the cluster client matrix's rows), and one for the not-run gate. Not run = <skipped> with the reason; failed = <failure>; a stage that did not complete =
 * <error>. Every failure and error body ends with the one command that reproduces it; the mutants
 * suite carries the mutation score as properties and in its system-out.
 */
import { testsuitesXml, type Case, type SuiteExtra } from '../core/junit-xml.js';
import type { ReportCase } from '../core/report-details.js';
import { cellText, notRunCells } from './matrix.js';
import { replayCommand, stageReplayCommand } from './replay.js';
import { mutationScore, scoreLines } from './score.js';
import { trustedDetails } from './stage-sections.js';
import type { MatrixCell, MutationScore, VerifyReport } from './verify-doc.js';

export function junitXml(report: VerifyReport): string {
  const stageCases: Case[] = report.stages.map((o) => ({
    classname: 'fencecheck.stage',
    name: o.stage,
    seconds: o.durationMs / 1000,
    result:
      o.status === 'passed'
        ? { kind: 'pass' }
        : o.status === 'not-run'
          ? { kind: 'skipped', message: `not run: ${o.reason ?? ''}${o.allowedNotRun ? ' (allowed)' : ' (not allowed: verify fails)'}` }
          : { kind: o.status === 'failed' ? 'failure' : 'error', message: o.reason ?? o.summary, body: `${o.summary}\nreplay: ${stageReplayCommand(o)}` },
    out: [`command: fencecheck ${o.command.join(' ')}`, o.summary, o.logPath ? `log: ${o.logPath}` : ''].filter(Boolean).join('\n'),
  }));
  for (const name of report.options.notSelected) stageCases.push({ classname: 'fencecheck.stage', name, seconds: 0, result: { kind: 'skipped', message: 'not selected (--stages/--skip)' } });

  // A mutant its stage reported not run: a failure unless --allow-not-run names the stage.
  const notRun = new Map(notRunCells(report.mutationMatrix, report.stages).map((c) => [`${c.id} ${c.layer}`, c.allowed]));
  const mutantCases: Case[] = [];
  for (const row of report.mutationMatrix.rows)
    for (const layer of report.mutationMatrix.layers) {
      const cell = row.cells[layer];
      if (cell.verdict === 'n/a') continue;
      const replay = cell.replay ?? replayCommand(row.id, layer, cell, row.system);
      const result = mutantResult(cell, row.expectedInvariant, notRun.get(`${row.id} ${layer}`));
      mutantCases.push({
        classname: `fencecheck.mutants.${layer}`,
        name: mutantCaseName(row.id, layer, row.target, row.expectedInvariant),
        seconds: (cell.durationMs ?? 0) / 1000,
        result: result.kind === 'failure' || result.kind === 'error' ? { ...result, body: failureBody(cell, replay) } : result,
        out: [
          cellText(cell),
          cell.tracePath ? `trace: ${cell.tracePath}` : '',
          cell.seed !== undefined ? `seed: ${cell.seed}` : '',
          cell.path ? `path: ${cell.path}` : '',
          replay ? `replay: ${replay}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      });
    }

  const unwaived = [
    ...report.stages.filter((o) => o.status === 'not-run' && !o.allowedNotRun).map((o) => o.stage),
    ...[...notRun].filter(([, allowed]) => !allowed).map(([cell]) => `mutant ${cell.replace(' ', ' at layer ')}`),
  ];
  const gate: Case = {
    classname: 'fencecheck.verify',
    name: 'every selected stage ran (or is named by --allow-not-run)',
    seconds: 0,
    result: unwaived.length === 0 ? { kind: 'pass' } : { kind: 'failure', message: `not run and not allowed: ${unwaived.join(', ')}` },
  };

  const score = report.mutationMatrix.score ?? mutationScore(report.mutationMatrix);
  const suiteExtras: Readonly<Record<string, SuiteExtra>> = {
    'fencecheck.mutants': { properties: scoreProperties(score), out: scoreLines(score).join('\n') },
  };
  const suites: [string, Case[]][] = [['fencecheck.stages', stageCases], ['fencecheck.mutants', mutantCases], ...stageSuites(report), ['fencecheck.verify', [gate]]];
  return testsuitesXml('fencecheck verify', report.startedAt, report.durationMs / 1000, suites, suiteExtras);
}

/** Unique across layers: the same mutant has one case per layer, and CI tools key results on the name. */
export function mutantCaseName(id: string, layer: string, target: string, expected: string): string {
  return `${id} [${layer}] ${target} -> ${expected}`;
}

/** What a failing mutant case shows: the verdict, why, its trace, and the one command that reproduces it. */
function failureBody(cell: MatrixCell, replay: string | undefined): string {
  return [cellText(cell), cell.reason ? `reason: ${cell.reason}` : '', cell.tracePath ? `trace: ${cell.tracePath}` : '', replay ? `replay: ${replay}` : ''].filter(Boolean).join('\n');
}

/** `mutation-score.<layer>` = percent (or `none`), plus the killed / counted / not-run figures. */
function scoreProperties(s: MutationScore): [string, string][] {
  const figures = (name: string, f: MutationScore['overall']): [string, string][] => [
    [`mutation-score.${name}`, f.percent === null ? 'none' : f.percent.toFixed(1)],
    [`mutation-score.${name}.killed`, String(f.killed)],
    [`mutation-score.${name}.counted`, String(f.total - f.equivalent)],
    [`mutation-score.${name}.not-run`, String(f.notRun)],
  ];
  return [...Object.entries(s.layers).flatMap(([layer, f]) => figures(layer, f!)), ...figures('overall', s.overall)];
}

/** `reportedNotRun`: the cell's stage reported this mutant not run; true when --allow-not-run names the stage. */
function mutantResult(cell: MatrixCell, expected: string, reportedNotRun?: boolean): Case['result'] {
  switch (cell.verdict) {
    case 'killed':
      return { kind: 'pass' };
    case 'not-run':
      if (reportedNotRun === false) return { kind: 'failure', message: `not run and not allowed: ${cell.reason ?? 'no reason given'} (pass --allow-not-run ${cell.stage} to accept)` };
      if (reportedNotRun === true) return { kind: 'skipped', message: `not run (allowed): ${cell.reason ?? ''}`.trim() };
      // The whole stage did not run: its own case and the gate carry that.
      return { kind: 'skipped', message: `${cellText(cell)}: ${cell.reason ?? ''}`.trim() };
    case 'not-selected':
      return { kind: 'skipped', message: `${cellText(cell)}: ${cell.reason ?? ''}`.trim() };
    case 'invalid':
    case 'timeout':
      return { kind: 'error', message: `${cell.verdict}: ${cell.reason ?? ''}`.trim() };
    default:
      return { kind: 'failure', message: `${cellText(cell)} (expected ${expected} to kill it)${cell.reason ? `: ${cell.reason}` : ''}` };
  }
}

/** The suites the stages' reports carry, in stage order: suite and classname `fencecheck.<name>`. */
function stageSuites(report: VerifyReport): [string, Case[]][] {
  return report.stages.flatMap((o) =>
    (trustedDetails(o)?.suites ?? []).map((suite): [string, Case[]] => {
      const classname = `fencecheck.${suite.name}`;
      return [classname, suite.cases.map((c) => stageCase(classname, c))];
    }),
  );
}

function stageCase(classname: string, c: ReportCase): Case {
  const message = c.message ?? '';
  const result: Case['result'] =
    c.status === 'passed'
      ? { kind: 'pass' }
      : c.status === 'not-run'
        ? { kind: 'skipped', message }
        : { kind: c.status === 'failed' ? 'failure' : 'error', message, ...(c.body !== undefined ? { body: c.body } : {}) };
  return { classname, name: c.name, seconds: c.seconds ?? 0, result, ...(c.out !== undefined ? { out: c.out } : {}) };
}
