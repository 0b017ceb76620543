import { relative } from 'node:path';
import { testsuitesXml, type Case } from '../core/junit-xml.js';
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
  const cases = r.files.map((f): Case => {
    const base = { classname: 'fencecheck.lua-check', name: shown(f.file), seconds: 0 };
    if (f.status === 'clean') return { ...base, result: { kind: 'pass' } };
    if (f.status === 'unparseable') return { ...base, result: { kind: 'error', message: errorLine(f) } };
    const body = f.findings.map(findingLine).join('\n');
    if (!f.findings.some((x) => fails(x, failOn))) return { ...base, result: { kind: 'pass' }, out: body };
    return { ...base, result: { kind: 'failure', message: `${f.findings.length} finding${f.findings.length === 1 ? '' : 's'}`, body } };
  });
  return testsuitesXml('fencecheck lua-check', startedAt, seconds, [['fencecheck.lua-check', cases]]);
}
