/**
 * A stage is an object (src/core/stage.ts), and the CLI only parses and prints. Two checks, each
 * shown red on a small case that breaks it:
 *
 * 1. **No stage is reachable only through argv.** Every stage verify runs is a stage object with a
 *    run, started through the one entry (`fencecheck stage NAME`, src/verify/run.ts builds nothing
 *    else: stageEntryArgv); and no stage's run is a command line in disguise — the stages declared
 *    through `commandStage` (their command's parse in-process) are exactly the list below, which
 *    may only shrink.
 * 2. **No CLI module holds judging.** Read with TypeScript's parser (no type check, so it is quick):
 *    a command module exports its `command` and nothing else, and no module under src/cli/ builds a
 *    report (`stageReport(`), combines statuses (`worstStatus(`, `countsPerSystem(`) or decides a
 *    verdict (`patchVerdict(`, `judgePatch(`) — outside the modules listed below, each with what is
 *    left in it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { defineStage, stageEntryArgv, stageParams, type Stage } from '../../src/core/stage.js';
import { COMMAND_STAGES, commandStage } from '../../src/seam/command-stage.js';
import { STAGES } from '../../src/verify/stages.js';

/** Stages whose run is still their command's parse, run in-process (docs/decisions.md, "A stage is an object"). */
const COMMAND_BACKED = ['props', 'limiter', 'pause'];

/**
 * CLI modules that still build a report or export more than their command, and why. A module
 * leaves this list when its judging moves below (src/stages/ or its system's folder).
 */
const CLI_LEFT: Readonly<Record<string, string>> = {
  // The error envelope of `--json` on every path: a report of how the command ended, no verdict.
  'src/cli/json-errors.ts': 'error envelope',
  // Commands that are not stages: their own result as a report.
  'src/cli/commands/diff.ts': 'not a stage',
  'src/cli/commands/bench.ts': 'not a stage',
  'src/cli/commands/slot.ts': 'not a stage',
  'src/cli/commands/topology.ts': 'not a stage',
  // `tlc --spec` (any spec) and `tlc --growth`: the project's specs are the tlc stage's.
  'src/cli/commands/tlc.ts': '--spec and --growth',
  // A user's patch: the verdict is the seam's (patch-verdict.ts); these still shape its report.
  'src/cli/commands/mutants-patch.ts': '--patch report',
  'src/cli/commands/conform-patch.ts': '--patch report',
  'src/cli/commands/patch-target.ts': '--patch target',
  // verify's test hooks (test/verify/fixtures/verify-driver.mjs).
  'src/cli/commands/verify.ts': 'test hooks',
};

const JUDGING_CALLS = ['stageReport', 'worstStatus', 'countsPerSystem', 'patchVerdict', 'judgePatch'];

/** What a CLI source holds that is judging: exports beside `command` (of a command module), and calls that build or decide a report. */
function judgingIn(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isCommandModule = /src\/cli\/commands\/[^/]+\.ts$/.test(file);
  const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of src.statements) {
    if (!isCommandModule || !exported(st)) continue;
    const names = ts.isVariableStatement(st)
      ? st.declarationList.declarations.map((d) => d.name.getText(src))
      : ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)
        ? [st.name?.getText(src) ?? 'default']
        : ['?'];
    for (const n of names) if (n !== 'command') found.push(`exports ${n}`);
  }
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && JUDGING_CALLS.includes(n.expression.text)) found.push(`calls ${n.expression.text}()`);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return [...new Set(found)];
}

function cliFiles(dir = join(projectRoot, 'src/cli')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cliFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Stages that are not objects with a run, or whose run is a command's argv, or that verify would start otherwise than through the entry. */
function argvStages(stages: readonly Stage[], commandBacked: ReadonlySet<string>): string[] {
  return stages.flatMap((s) => {
    const problems: string[] = [];
    if (typeof s.run !== 'function') problems.push(`${s.name}: no run`);
    if (commandBacked.has(s.name) && !COMMAND_BACKED.includes(s.name)) problems.push(`${s.name}: its run is its command's argv`);
    const argv = stageEntryArgv(s, {});
    if (argv[0] !== 'stage' || argv[1] !== s.name) problems.push(`${s.name}: started as ${argv.join(' ')}`);
    if ('argv' in s) problems.push(`${s.name}: carries a command line`);
    return problems;
  });
}

describe('a stage is an object', () => {
  it('every stage verify runs has a run of its own and is started through `fencecheck stage NAME`; only the listed ones still parse a command line', () => {
    expect(argvStages(STAGES, COMMAND_STAGES)).toEqual([]);
    // The list only shrinks: a listed stage that left it is taken off.
    expect([...COMMAND_STAGES].sort()).toEqual([...COMMAND_BACKED].sort());
  });

  it('turns red on a stage declared as a command line, or one carrying argv', () => {
    const viaArgv = commandStage({ name: 'rollout-rehearsal', what: 'x', heavy: true, takes: [], command: () => import('../../src/cli/commands/evidence.js'), argv: () => [] });
    COMMAND_STAGES.delete('rollout-rehearsal');
    expect(argvStages([viaArgv], new Set(['rollout-rehearsal']))).toEqual(["rollout-rehearsal: its run is its command's argv"]);
    const legacy = { name: 'old', what: 'x', heavy: true, takes: [], argv: ['old'], run: async () => Promise.reject(new Error('no')) } as unknown as Stage;
    expect(argvStages([legacy], new Set())).toEqual(['old: carries a command line']);
  });

  it("hands a stage only the options it takes: its run's parameters are typed by them (tsc), and verify forwards no other", async () => {
    const seen: unknown[] = [];
    const walks = defineStage({
      name: 'walks',
      what: 'x',
      heavy: false,
      takes: ['seed'],
      run: async (p) => {
        // @ts-expect-error the stage did not take --runs: its run cannot read it (typecheck fails without this line's error)
        seen.push(p.seed, p.runs);
        return Promise.reject(new Error('not run here'));
      },
    });
    expect(stageParams(walks, { seed: 7, runs: 5, topology: 'both', constants: ['A=1'] })).toEqual({ seed: 7 });
    expect(stageEntryArgv(walks, { seed: 7, runs: 5, topology: 'both' })).toEqual(['stage', 'walks', '--seed', '7', '--json']);
    await expect(walks.run({ seed: 7 }, { log() {} })).rejects.toThrow('not run here');
    expect(seen).toEqual([7, undefined]);
  });

  it('verify starts a stage only through stageEntryArgv', () => {
    const run = readFileSync(join(projectRoot, 'src/verify/run.ts'), 'utf8');
    expect(run).toMatch(/stageEntryArgv\(/);
    // No other way to name a command: the only argv verify builds is the entry's.
    expect(run).not.toMatch(/\bstageArgv\(|\w\.argv\b/);
  });
});

describe('the CLI parses and prints', () => {
  it('no CLI module exports judging or builds a report, outside the modules listed with what is left in them', () => {
    const found = cliFiles()
      .map((f) => ({ file: relative(projectRoot, f), judging: judgingIn(f, readFileSync(f, 'utf8')) }))
      .filter((x) => x.judging.length > 0 && CLI_LEFT[x.file] === undefined)
      .map((x) => `${x.file}: ${x.judging.join(', ')}`);
    expect(found).toEqual([]);
    // A listed module that no longer judges is taken off the list.
    const stale = Object.keys(CLI_LEFT).filter((f) => judgingIn(f, readFileSync(join(projectRoot, f), 'utf8')).length === 0);
    expect(stale).toEqual([]);
  });

  it('turns red on a command that exports a merge of reports, or builds its report itself', () => {
    const exportsMerge = 'export const command = { run() {} };\nexport function mergeParts(parts) { return { status: worstStatus(parts.map((p) => p.status)) }; }';
    expect(judgingIn('src/cli/commands/tlc.ts', exportsMerge)).toEqual(['exports mergeParts', 'calls worstStatus()']);
    const buildsReport = "export const command = { async run() { process.stdout.write(JSON.stringify(stageReport({ stage: 'x' }))); return 0; } };";
    expect(judgingIn('src/cli/commands/explore.ts', buildsReport)).toEqual(['calls stageReport()']);
    expect(judgingIn('src/cli/commands/explore.ts', "export const command = { run: () => runAndPrint('explore', { json: true }, (io) => exploreStage({}, io)) };")).toEqual([]);
  });
});
