/**
 * JUnit XML for CI systems: one testcase per stage, one per mutant × layer, and one for the
 * not-run gate. Not run = <skipped> with the reason; failed = <failure>; a stage that did not
 * complete = <error>.
 */
import { cellText } from './matrix.js';
import type { MatrixCell, VerifyReport } from './verify-doc.js';

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly seconds: number;
  readonly result: { kind: 'pass' } | { kind: 'skipped' | 'failure' | 'error'; message: string; body?: string };
  readonly out?: string;
}

/** XML 1.0 text: escaped, and without the control characters XML cannot carry. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

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
          : { kind: o.status === 'failed' ? 'failure' : 'error', message: o.reason ?? o.summary, body: o.summary },
    out: [`command: fencecheck ${o.command.join(' ')}`, o.summary, o.logPath ? `log: ${o.logPath}` : ''].filter(Boolean).join('\n'),
  }));
  for (const name of report.options.notSelected)
    stageCases.push({ classname: 'fencecheck.stage', name, seconds: 0, result: { kind: 'skipped', message: 'not selected (--stages/--skip)' } });

  const mutantCases: Case[] = [];
  for (const row of report.mutationMatrix.rows)
    for (const layer of report.mutationMatrix.layers) {
      const cell = row.cells[layer];
      if (cell.verdict === 'n/a') continue;
      mutantCases.push({
        classname: `fencecheck.mutants.${layer}`,
        name: `${row.id} ${row.target} -> ${row.expectedInvariant}`,
        seconds: (cell.durationMs ?? 0) / 1000,
        result: mutantResult(cell, row.expectedInvariant),
        out: [cellText(cell), cell.tracePath ? `trace: ${cell.tracePath}` : '', cell.seed !== undefined ? `seed: ${cell.seed}` : '', cell.path ? `path: ${cell.path}` : ''].filter(Boolean).join('\n'),
      });
    }

  const unwaived = report.stages.filter((o) => o.status === 'not-run' && !o.allowedNotRun).map((o) => o.stage);
  const gate: Case = {
    classname: 'fencecheck.verify',
    name: 'every selected stage ran (or is named by --allow-not-run)',
    seconds: 0,
    result: unwaived.length === 0 ? { kind: 'pass' } : { kind: 'failure', message: `not run and not allowed: ${unwaived.join(', ')}` },
  };

  const suites: [string, Case[]][] = [
    ['fencecheck.stages', stageCases],
    ['fencecheck.mutants', mutantCases],
    ['fencecheck.verify', [gate]],
  ];
  const count = (cs: Case[], kind: string) => cs.filter((c) => c.result.kind === kind).length;
  const all = suites.flatMap(([, cs]) => cs);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="fencecheck verify" tests="${all.length}" failures="${count(all, 'failure')}" errors="${count(all, 'error')}" skipped="${count(all, 'skipped')}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${xmlText(report.startedAt)}">`,
  ];
  for (const [name, cases] of suites) {
    const time = cases.reduce((t, c) => t + c.seconds, 0);
    lines.push(
      `  <testsuite name="${name}" tests="${cases.length}" failures="${count(cases, 'failure')}" errors="${count(cases, 'error')}" skipped="${count(cases, 'skipped')}" time="${time.toFixed(3)}" timestamp="${xmlText(report.startedAt)}">`,
    );
    for (const c of cases) {
      const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}" time="${c.seconds.toFixed(3)}"`;
      const inner: string[] = [];
      if (c.result.kind !== 'pass') {
        const tag = c.result.kind;
        inner.push(
          c.result.body
            ? `      <${tag} message="${xmlText(c.result.message)}">${xmlText(c.result.body)}</${tag}>`
            : `      <${tag} message="${xmlText(c.result.message)}"/>`,
        );
      }
      if (c.out) inner.push(`      <system-out>${xmlText(c.out)}</system-out>`);
      lines.push(inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`);
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function mutantResult(cell: MatrixCell, expected: string): Case['result'] {
  switch (cell.verdict) {
    case 'killed':
      return { kind: 'pass' };
    case 'not-run':
    case 'not-selected':
      return { kind: 'skipped', message: `${cellText(cell)}: ${cell.reason ?? ''}`.trim() };
    case 'invalid':
    case 'timeout':
      return { kind: 'error', message: `${cell.verdict}: ${cell.reason ?? ''}`.trim() };
    default:
      return { kind: 'failure', message: `${cellText(cell)} (expected ${expected} to kill it)${cell.reason ? `: ${cell.reason}` : ''}` };
  }
}
