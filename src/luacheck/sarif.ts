import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncludeStep, LuaFinding, Severity } from './findings.js';
import { placeGroups, shown } from './format.js';
import { LUA_RULES, ruleOf } from './rules.js';
import type { RunResult } from './run.js';

/**
 * The run as a SARIF 2.1.0 log, the format code-scanning services read (GitHub code scanning,
 * GitLab): one run, the rules with their stable ids, a result per place (an include's finding
 * once, however many scripts meet it, each including script and its chain as related locations),
 * a suppressed finding with its reason as an in-source suppression, and every file that could not
 * be checked as an error notification of the invocation.
 */
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A path as a URI reference: relative to the working folder as the text output shows it, else a file: URL. */
const uri = (file: string): string => {
  const s = shown(file);
  return isAbsolute(s) ? pathToFileURL(s).href : s.split('/').map(encodeURIComponent).join('/');
};

const location = (file: string, line: number, column?: number) => ({
  physicalLocation: { artifactLocation: { uri: uri(file) }, region: { startLine: Math.max(1, line), ...(column !== undefined && { startColumn: Math.max(1, column) }) } },
});

export function luaCheckSarif(r: RunResult): object {
  const results = placeGroups(r, true).map(({ worst, chains }) => result(worst, chains));
  const unreadable = r.files.filter((f) => f.status === 'unparseable' && f.error);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'fencecheck lua-check',
            rules: LUA_RULES.map((rule) => ({
              id: rule.id,
              name: rule.kind,
              shortDescription: { text: rule.short },
              defaultConfiguration: { level: rule.kind === 'same-tag-key' ? 'warning' : 'error' },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            toolExecutionNotifications: unreadable.map((f) => ({
              level: 'error',
              message: { text: f.error!.message },
              locations: [location(f.error!.file, f.error!.line, f.error!.line > 0 ? f.error!.column : undefined)],
            })),
          },
        ],
        results,
      },
    ],
  };
}

function result(f: LuaFinding, chains: readonly (readonly IncludeStep[])[]) {
  const rule = ruleOf(f.kind);
  return {
    ruleId: rule.id,
    ruleIndex: LUA_RULES.indexOf(rule),
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [location(f.file, f.line, f.column)],
    ...(chains.length > 0 && {
      // Each include directive on the way, the including script's first: where the file came in.
      relatedLocations: chains.flatMap((chain, c) =>
        chain.map((step, i) => ({
          id: c * 100 + i,
          ...location(step.file, step.line),
          message: { text: i === 0 ? `included by the script ${shown(step.file)}` : `included through ${shown(step.file)}` },
        })),
      ),
    }),
    ...(f.suppressed !== undefined && { suppressions: [{ kind: 'inSource', justification: f.suppressed }] }),
    properties: { kind: f.kind, ...(f.command !== undefined && { command: f.command }), ...(f.key !== undefined && { key: f.key }) },
  };
}
