import { relative } from 'node:path';
import { xmlText } from '../report/junit.js';
import { fails, type FailOn, type LuaFinding } from './findings.js';
import type { FileResult, RunResult } from './run.js';

/** Paths as the user gave them when inside the working folder, else absolute. */
export const shown = (file: string, cwd = process.cwd()): string => {
  const r = relative(cwd, file);
  return r.startsWith('..') ? file : r;
};

/** `file:line:col: severity [kind] COMMAND: message` — the compiler-style line editors jump to. */
export function findingLine(f: LuaFinding): string {
  return `${shown(f.file)}:${f.line}:${f.column}: ${f.severity} [${f.kind}] ${f.message}`;
}

export function errorLine(r: FileResult): string {
  const e = r.error!;
  return e.line > 0 ? `${shown(e.file)}:${e.line}:${e.column}: ${e.message}` : e.message;
}

export function summaryLine(r: RunResult): string {
  const n = r.files.length;
  return `lua-check: ${n} file${n === 1 ? '' : 's'}, ${r.errors} error${r.errors === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}${r.unparseable > 0 ? `, ${r.unparseable} unparseable` : ''}`;
}

/** JUnit XML: one testcase per file; failing findings (or the parse error) in its failure, the others in its output. */
export function luaCheckJunit(r: RunResult, failOn: FailOn, startedAt: string, seconds: number): string {
  const failing = (f: FileResult) => f.findings.some((x) => fails(x, failOn));
  const failed = r.files.filter(failing).length;
  const errored = r.unparseable;
  const cases = r.files.map((f) => {
    const open = `    <testcase classname="fencecheck.lua-check" name="${xmlText(shown(f.file))}" time="0.000"`;
    if (f.status === 'clean') return `${open}/>`;
    if (f.status === 'unparseable') return `${open}>\n      <error message="${xmlText(errorLine(f))}"/>\n    </testcase>`;
    const body = xmlText(f.findings.map(findingLine).join('\n'));
    if (!failing(f)) return `${open}>\n      <system-out>${body}</system-out>\n    </testcase>`;
    const msg = `${f.findings.length} finding${f.findings.length === 1 ? '' : 's'}`;
    return `${open}>\n      <failure message="${msg}">${body}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="fencecheck lua-check" tests="${r.files.length}" failures="${failed}" errors="${errored}" skipped="0" time="${seconds.toFixed(3)}" timestamp="${xmlText(startedAt)}">`,
    `  <testsuite name="fencecheck.lua-check" tests="${r.files.length}" failures="${failed}" errors="${errored}" skipped="0" time="${seconds.toFixed(3)}" timestamp="${xmlText(startedAt)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
