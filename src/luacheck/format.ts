import { relative } from 'node:path';
import { testsuitesXml, type Case } from '../core/junit-xml.js';
import { fails, type FailOn, type IncludeStep, type LuaFinding } from './findings.js';
import type { FileResult, RunResult } from './run.js';
import { displayText } from './source.js';

/** Paths as the user gave them when inside the working folder, else absolute; control characters escaped. */
export const shown = (file: string, cwd = process.cwd()): string => {
  const r = relative(cwd, file);
  return displayText(r.startsWith('..') ? file : r);
};

/** `file:line:col: severity [kind] COMMAND: message` — the compiler-style line editors jump to. */
export function findingLine(f: LuaFinding): string {
  return `${shown(f.file)}:${f.line}:${f.column}: ${f.severity} [${f.kind}] ${displayText(f.message)}`;
}

/** One place with a finding, however many scripts meet it: at its worst severity, with each including script's chain. */
export interface PlaceGroup {
  readonly worst: LuaFinding;
  readonly chains: readonly (readonly IncludeStep[])[];
}

/** The findings of a run grouped by place (file, line, column, kind, command, key); suppressed ones only when asked. */
export function placeGroups(r: RunResult, withSuppressed: boolean): PlaceGroup[] {
  const groups = new Map<string, { worst: LuaFinding; chains: Map<string, readonly IncludeStep[]> }>();
  for (const f of r.files)
    for (const x of f.findings) {
      if (x.suppressed !== undefined && !withSuppressed) continue;
      const id = [x.file, x.line, x.column, x.kind, x.command ?? '', x.key ?? ''].join('\0');
      const g = groups.get(id) ?? { worst: x, chains: new Map<string, readonly IncludeStep[]>() };
      if (RANK[x.severity] < RANK[g.worst.severity]) g.worst = x;
      if (x.via) g.chains.set(chainText(x.via), x.via);
      groups.set(id, g);
    }
  return [...groups.values()].map((g) => ({ worst: g.worst, chains: [...g.chains.values()] }));
}

/** `a.lua:2 > lib/x.lua:7`: the include directives from the checked script down. */
export const chainText = (via: readonly IncludeStep[]): string => via.map((s) => `${shown(s.file)}:${s.line}`).join(' > ');

const RANK = { error: 0, warning: 1, info: 2 } as const;
/** How many including scripts a text line names before `+N more`. */
const NAMED_SCRIPTS = 3;

/**
 * The text report's finding lines: a place (file, line, column, kind, command, key) once, however
 * many scripts include it or whether the include was also checked on its own; at its worst severity
 * (an include's helper is info alone and an error in the script that calls it), naming the scripts
 * that include it and the chain of includes from each.
 */
export function textFindings(r: RunResult): { lines: string[]; total: number } {
  const groups = placeGroups(r, false);
  const total = r.files.reduce((n, f) => n + f.findings.filter((x) => x.suppressed === undefined).length, 0);
  const lines = groups.map(({ worst, chains }) => {
    const c = chains.map(chainText);
    const named = c.slice(0, NAMED_SCRIPTS).join(', ') + (c.length > NAMED_SCRIPTS ? `, +${c.length - NAMED_SCRIPTS} more` : '');
    return `${findingLine(worst)}${c.length === 0 ? '' : c.length === 1 ? ` (included by ${named})` : ` (in ${c.length} scripts: ${named})`}`;
  });
  return { lines, total };
}

export function errorLine(r: FileResult): string {
  const e = r.error!;
  return e.line > 0 ? `${shown(e.file)}:${e.line}:${e.column}: ${displayText(e.message)}` : displayText(e.message);
}

export function summaryLine(r: RunResult): string {
  const n = r.files.length;
  return `lua-check: ${n} file${n === 1 ? '' : 's'}, ${r.errors} error${r.errors === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}${r.unreachable > 0 ? `, ${r.unreachable} in unreachable code (info)` : ''}${r.suppressed > 0 ? `, ${r.suppressed} suppressed` : ''}${r.unparseable > 0 ? `, ${r.unparseable} unparseable` : ''}`;
}

/** JUnit XML: one testcase per file; failing findings (or the parse error) in its failure, the others in its output. */
export function luaCheckJunit(r: RunResult, failOn: FailOn, startedAt: string, seconds: number): string {
  const cases = r.files.map((f): Case => {
    // Whole milliseconds, rounded up: a file checked in 0.3 ms did take time (JUnit's schema allows 3 decimals).
    const base = { classname: 'fencecheck.lua-check', name: shown(f.file), seconds: Math.ceil(f.durationMs) / 1000 };
    if (f.status === 'clean') return { ...base, result: { kind: 'pass' } };
    if (f.status === 'unparseable') return { ...base, result: { kind: 'error', message: errorLine(f) } };
    const body = f.findings.map((x) => `${findingLine(x)}${x.via ? ` (included by ${chainText(x.via)})` : ''}`).join('\n');
    if (!f.findings.some((x) => fails(x, failOn))) return { ...base, result: { kind: 'pass' }, out: body };
    return { ...base, result: { kind: 'failure', message: `${f.findings.length} finding${f.findings.length === 1 ? '' : 's'}`, body } };
  });
  return testsuitesXml('fencecheck lua-check', startedAt, seconds, [['fencecheck.lua-check', cases]]);
}
