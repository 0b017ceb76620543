/**
 * JUnit XML for CI systems: one testcase per stage, one per mutant × layer (the layer in its name:
 * CI tools key results on the name), one per action of the conformance tour, and one for the not-run
 * gate. Not run = <skipped> with the reason; failed = <failure>; a stage that did not complete =
 * <error>. Every failure and error body ends with the one command that reproduces it; the mutants
 * suite carries the mutation score as properties and in its system-out.
 */
import { testsuitesXml, type Case, type SuiteExtra } from '../core/junit-xml.js';
import { actionFiguresText, conformSummary, failureLines, figureComplete, figureText } from './conform-summary.js';
import { cellText, notRunCells } from './matrix.js';
import { g2FiguresText, g2RowStatus, g2Summary, g2VerdictText, type G2Summary } from './g2-summary.js';
import { replayCommand, stageReplayCommand } from './replay.js';
import { mutationScore, scoreLines } from './score.js';
import type { ConformSummary, MatrixCell, MutationScore, VerifyReport } from './verify-doc.js';

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
  for (const name of report.options.notSelected)
    stageCases.push({ classname: 'fencecheck.stage', name, seconds: 0, result: { kind: 'skipped', message: 'not selected (--stages/--skip)' } });

  // A mutant its stage reported not run: a failure unless --allow-not-run names the stage.
  const notRun = new Map(notRunCells(report.mutationMatrix, report.stages).map((c) => [`${c.id} ${c.layer}`, c.allowed]));
  const mutantCases: Case[] = [];
  for (const row of report.mutationMatrix.rows)
    for (const layer of report.mutationMatrix.layers) {
      const cell = row.cells[layer];
      if (cell.verdict === 'n/a') continue;
      const replay = cell.replay ?? replayCommand(row.id, layer, cell);
      const result = mutantResult(cell, row.expectedInvariant, notRun.get(`${row.id} ${layer}`));
      mutantCases.push({
        classname: `fencecheck.mutants.${layer}`,
        name: mutantCaseName(row.id, layer, row.target, row.expectedInvariant),
        seconds: (cell.durationMs ?? 0) / 1000,
        result: result.kind === 'failure' || result.kind === 'error' ? { ...result, body: failureBody(cell, replay) } : result,
        out: [cellText(cell), cell.tracePath ? `trace: ${cell.tracePath}` : '', cell.seed !== undefined ? `seed: ${cell.seed}` : '', cell.path ? `path: ${cell.path}` : '', replay ? `replay: ${replay}` : ''].filter(Boolean).join('\n'),
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

  const conform = report.conform !== undefined ? report.conform : conformSummary(report.stages);
  const g2 = report.g2 !== undefined ? report.g2 : g2Summary(report.stages);
  const score = report.mutationMatrix.score ?? mutationScore(report.mutationMatrix);
  const suiteExtras: Readonly<Record<string, SuiteExtra>> = {
    'fencecheck.mutants': { properties: scoreProperties(score), out: scoreLines(score).join('\n') },
  };
  const suites: [string, Case[]][] = [
    ['fencecheck.stages', stageCases],
    ['fencecheck.mutants', mutantCases],
    ...(conform ? [['fencecheck.conform', conformCases(conform)] as [string, Case[]]] : []),
    ...(g2 && g2.rows.length > 0 ? [['fencecheck.g2', g2Cases(g2)] as [string, Case[]]] : []),
    ['fencecheck.verify', [gate]],
  ];
  return testsuitesXml('fencecheck verify', report.startedAt, report.durationMs / 1000, suites, suiteExtras);
}

/** Unique across layers: the same mutant has one case per layer, and CI tools key results on the name. */
export function mutantCaseName(id: string, layer: string, target: string, expected: string): string {
  return `${id} [${layer}] ${target} -> ${expected}`;
}

/** What a failing mutant case shows: the verdict, why, its trace, and the one command that reproduces it. */
function failureBody(cell: MatrixCell, replay: string | undefined): string {
  return [
    cellText(cell),
    cell.reason ? `reason: ${cell.reason}` : '',
    cell.tracePath ? `trace: ${cell.tracePath}` : '',
    replay ? `replay: ${replay}` : '',
  ]
    .filter(Boolean)
    .join('\n');
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
    // falls through: the whole stage did not run; its own case and the gate carry that
    case 'not-selected':
      return { kind: 'skipped', message: `${cellText(cell)}: ${cell.reason ?? ''}`.trim() };
    case 'invalid':
    case 'timeout':
      return { kind: 'error', message: `${cell.verdict}: ${cell.reason ?? ''}`.trim() };
    default:
      return { kind: 'failure', message: `${cellText(cell)} (expected ${expected} to kill it)${cell.reason ? `: ${cell.reason}` : ''}` };
  }
}

const CONFORM_CLASS = 'fencecheck.conform';
export const CONFORM_TOUR_CASE = 'conformance tour';

/**
 * The conform suite: one case for the tour (the stage's verdict, and full coverage of the model's
 * states, transitions and refused attempts), then one per action or attempt kind: it passes when
 * every model transition and refused attempt of that action was executed, and fails otherwise or when
 * the first mismatch was an attempt of it. Failures carry the first mismatch and its replay command.
 */
export function conformCases(s: ConformSummary): Case[] {
  const seconds = (s.tourMs ?? 0) / 1000;
  if (!s.coverage || !s.actions) {
    const why = s.reason ?? s.summary;
    const result: Case['result'] =
      s.status === 'not-run'
        ? { kind: 'skipped', message: `not run: ${why}` }
        : s.status === 'error'
          ? { kind: 'error', message: `the conform stage did not complete: ${why}` }
          : { kind: 'failure', message: `the conform stage reported no coverage figures (${s.status}): ${why}`, body: failureLines(s).join('\n') };
    return [{ classname: CONFORM_CLASS, name: CONFORM_TOUR_CASE, seconds: 0, result }];
  }
  const c = s.coverage;
  const mismatch = failureLines(s).join('\n');
  const coverageText = [`states ${figureText(c.states)}`, `transitions ${figureText(c.transitions)}`, `refused attempts ${figureText(c.refused)}`];
  const short = [c.states, c.transitions, c.refused].some((f) => !figureComplete(f));
  const tour: Case = {
    classname: CONFORM_CLASS,
    name: CONFORM_TOUR_CASE,
    seconds,
    result:
      s.status === 'passed' && !short
        ? { kind: 'pass' }
        : {
            kind: 'failure',
            message: s.status === 'passed' ? `the stage passed but the tour executed only ${coverageText.join(', ')}` : (s.failure ? `${s.failure.check}: ${s.failure.message}` : (s.reason ?? s.summary)),
            body: [mismatch, `coverage: ${coverageText.join(', ')}`].filter(Boolean).join('\n'),
          },
    out: [s.summary, `checks: ${s.checks ?? '?'}`, ...coverageText, s.attempts !== undefined ? `attempts: ${s.attempts}` : ''].filter(Boolean).join('\n'),
  };
  const actionCases = s.actions.map((row): Case => {
    const figures = actionFiguresText(row);
    const result: Case['result'] = row.mismatch
      ? { kind: 'failure', message: `first mismatch at ${s.failure?.attempt ?? row.action}: ${s.failure?.check ?? ''}: ${s.failure?.message ?? ''}`, body: [mismatch, figures].filter(Boolean).join('\n') }
      : row.complete
        ? { kind: 'pass' }
        : {
            kind: 'failure',
            message: `${row.action}: executed ${row.percent.toFixed(1)} % of the model (${figures})${s.failure ? `; the tour stopped at ${s.failure.check}` : ''}`,
            body: [mismatch, figures].filter(Boolean).join('\n'),
          };
    return { classname: CONFORM_CLASS, name: row.action, seconds: 0, result, out: figures };
  });
  return [tour, ...actionCases];
}

/** The G2 suite: one case per row (`g2 <row>`); red when either verdict column failed, skipped when one did not run. */
export function g2Cases(s: G2Summary): Case[] {
  return s.rows.map((row) => {
    const status = g2RowStatus(row);
    const why = [row.errors, row.silentlyWrong].flatMap((v, i) => (v.status === status && v.status !== 'passed' ? [`${i === 0 ? 'errors' : 'silently wrong'}: ${v.reason}`] : [])).join('; ');
    const out = `${row.surface}\nerrors: ${g2VerdictText(row.errors)}\nsilently wrong: ${g2VerdictText(row.silentlyWrong)}\nfigures: ${g2FiguresText(row)}`;
    return {
      classname: 'fencecheck.g2',
      name: `g2 ${row.name}${row.variant ? ` (${row.variant})` : ''}`,
      seconds: row.durationMs / 1000,
      result: status === 'passed' ? { kind: 'pass' } : status === 'not-run' ? { kind: 'skipped', message: `not run: ${why}` } : { kind: 'failure', message: why, body: `${out}\nreplay: fencecheck g2 --row ${row.name}${row.variant ? ` --variant ${row.name}=${row.variant}` : ''}` },
      out,
    };
  });
}
