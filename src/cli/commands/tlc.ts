import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport, type StageReport } from '../../core/stage-report.js';
import { SYSTEMS } from '../../registry/systems.js';
import { runAndPrint, statusLine } from '../stage-print.js';
import { selectSystemNames } from '../../registry/select.js';
import { writeRunReport } from '../../seam/evidence.js';
import { formatGrowthTable, measureGrowth } from '../../seam/tlc/growth.js';
import { TlcOutputError, TlcUnavailableError } from '../../tlc/errors.js';
import { locateTlc } from '../../tlc/locate.js';
import { javaOptionProblem, PassThroughError, resolvePassThrough } from '../../tlc/pass-through.js';
import { checkSpec } from '../../tlc/spec-check.js';
import { describeSpecRun, specRunName, specVerdict } from '../../tlc/spec-report.js';
import type { Trace } from '../../core/trace-format.js';
import { loopLine } from '../../trace/lasso.js';
import { formatStepTable } from '../../trace/text-table.js';

/** A `--spec` run's counterexample: the step table and, for a lasso, how it closes. */
function specTraceLines(t: Trace): string[] {
  const loop = loopLine(t);
  return [formatStepTable(t, { color: false }), ...(loop ? ['', loop] : [])];
}

const HELP = `Usage: fencecheck tlc [--system NAME]... [--mutants] [--only M1,M4] [--write-evidence] [--timeout SECONDS] [--workers N] [--json]
       fencecheck tlc --growth --system NAME --const NAME=V1,V2,... [--const NAME=...] [--timeout SECONDS] [--json]
       fencecheck tlc --spec FILE.tla [--config FILE.cfg] [--lib DIR|JAR]... [--classpath JAR]... [--java-opt OPT]...
                      [--timeout S] [--workers N] [--json] [-- TLC options]

Runs TLC (-tool, -deadlock) on each system's spec (tla/<system>/) with its base config, dumps the
labelled state graph (-dump dot,actionlabels: every reachable state and every generated
(state, action, successor) edge, self-loops included), reads it through the system's own mapping,
and compares it with the committed evidence (evidence/tlc/<system>/: base.json, base.states.txt,
base.edges.txt): "fresh" or "differs". With --mutants, also every tla-layer entry of the manifest for
the system (its layers.tla.config), and each variant config <id>-<Invariant>.cfg beside it (the same
mutant, another invariant checked alone): a mutant is killed only when TLC reports its expected
invariant (checked alone with TypeOK).

TLC: $TLA2TOOLS_JAR, else .tools/tla2tools.jar (scripts/setup-tlc); Java from $JAVA_HOME or PATH.

Options:
  --system NAME      a system with a model (repeatable, or all; default all)
  --mutants          also run the systems' mutant configs and print the verdict table
  --only IDS         comma-separated mutant ids (implies --mutants)
  --write-evidence   refresh evidence/tlc/<system>/ (base.json, base.states.txt, base.edges.txt, <id>.json)
  --timeout SECONDS  per TLC run (default 600)
  --workers N        TLC worker threads (default 1: deterministic traces)
  --growth           instead: the base config at every combination of the --const values (one
                     --system); prints the distinct-state growth table; a run that hits --timeout
                     (default here 240) is shown as "not finished in N min"
  --const N=V1,V2    a constant's values for --growth (e.g. --const Pods=2,3,4 --const MaxGen=3,4,5,6)
  --json             print a StageReport (fencecheck.stage/1) instead of text
  --spec FILE        instead: any spec, with TLC's own defaults (deadlock checked; pass -- -deadlock
                     to turn that off); prints the outcome, counts, TLC's exit status and the
                     counterexample (a lasso with its loop), saved as reports/tlc/<Spec>-<hash>.trace.json
                     (<hash>: of the spec's path, so two specs named MC.tla keep their own). TLC runs
                     with the spec's whole folder: its modules, data files, Java overrides (.class).
                     Where TLC's exit status and its messages disagree, the status decides
  --config FILE      the spec's config (default FILE.cfg beside the spec); only with --spec
  --lib DIR|JAR      a directory of modules the spec EXTENDS (TLC's -DTLA-Library), or a jar of
                     them (put on the classpath, e.g. CommunityModules-deps.jar); repeatable
  --classpath JAR    a jar or folder added to Java's classpath after tla2tools.jar (module jars,
                     override classes); repeatable. TLA2TOOLS_JAR may also be such a list (a:b)
  --java-opt OPT     a JVM option (-Xmx4g, -Dtlc2.tool.fp.FPSet.impl=…); repeatable; write a value
                     that starts with '-' as --java-opt=-Xmx4g or --java-opt -Xmx4g
  -- OPTIONS         passed to TLC as they are (e.g. -- -dumpTrace json out.json -depth 50); file
                     arguments are resolved against the current directory; -tool, -config, -metadir
                     and -workers are fencecheck's own and refused

Every run's JSON result is also written to reports/tlc/<system>/<run>.json (its counterexamples as
<run>.trace.json).

Exit codes: 0 base passed (and every mutant killed) · 1 an invariant failed in the base, or a mutant
was not killed (--spec: an invariant, property, deadlock or ASSUME failed) · 2 not run: no Java / no
jar, SANY parse or semantic error, config error, TLC crash, timeout, TLC's exit status disagreeing
with its output · 3 TLC output that cannot be parsed, a bad manifest, a --spec/--config file that does
not exist · 64 usage (an unknown --system, --system with --spec, --growth without one --system)`;

export const command: Command = {
  name: 'tlc',
  summary: "model-check each system's TLA+ spec with TLC (base config, optionally the mutants)",
  help: HELP,
  async run(argvAll) {
    // Everything after `--` is TLC's (only with --spec).
    const dd = argvAll.indexOf('--');
    // `--java-opt -Xmx4g`: the value starts with '-', which the argument parser would take for an option.
    const argv = joinOptionValues(dd < 0 ? argvAll : argvAll.slice(0, dd), '--java-opt');
    const passThrough = dd < 0 ? undefined : argvAll.slice(dd + 1);
    const { values } = parseCommandArgs(argv, {
      mutants: { type: 'boolean', default: false },
      only: { type: 'string' },
      'write-evidence': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      workers: { type: 'string' },
      json: { type: 'boolean', default: false },
      growth: { type: 'boolean', default: false },
      const: { type: 'string', multiple: true },
      spec: { type: 'string' },
      config: { type: 'string' },
      lib: { type: 'string', multiple: true },
      classpath: { type: 'string', multiple: true },
      'java-opt': { type: 'string', multiple: true },
      system: { type: 'string', multiple: true },
    });
    if (values.spec === undefined) {
      for (const [flag, given] of [
        ['--config', values.config !== undefined],
        ['--lib', values.lib !== undefined],
        ['--classpath', values.classpath !== undefined],
        ['--java-opt', values['java-opt'] !== undefined],
        ['-- TLC options', passThrough !== undefined],
      ] as const)
        if (given) throw new UsageError(`${flag} needs --spec FILE (the project's specs run with their own configs)`);
    } else {
      for (const flag of ['mutants', 'only', 'write-evidence', 'growth', 'const', 'system'] as const)
        if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`--${flag} checks the project's specs; it cannot be combined with --spec`);
    }
    if (values.const !== undefined && !values.growth) throw new UsageError('--const takes the values of a --growth grid');
    const names = selectSystemNames(values.system);
    if (values.growth && names.length !== 1) throw new UsageError(`--growth measures one system: give one --system (${names.join(', ')} given)`);
    const timeoutS = intOption(values, 'timeout', { min: 1, max: 7 * 24 * 3600, default: values.growth ? 240 : 600 });
    const workers = intOption(values, 'workers', { min: 1, max: 1024, default: 1 });
    const only = values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const withMutants = values.mutants || only !== undefined;
    const stage = withMutants ? 'tlc-mutants' : 'tlc';
    const startedAt = new Date();
    const log = (line: string) => {
      if (!values.json) process.stdout.write(`${line}\n`);
      else process.stderr.write(`${line}\n`);
    };
    const finish = (code: ExitCode, report: Omit<StageReport, 'schema' | 'stage' | 'startedAt' | 'durationMs'>): ExitCode => {
      const full = stageReport({ stage, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), ...report });
      if (values.json) process.stdout.write(`${JSON.stringify(full, null, 2)}\n`);
      else if (report.status !== 'passed') process.stderr.write(`fencecheck tlc: ${report.status === 'not-run' ? 'not run' : 'failed'}: ${report.reason ?? report.summary}\n`);
      return code;
    };

    if (values.spec !== undefined) {
      for (const o of values['java-opt'] ?? []) {
        const problem = javaOptionProblem(o);
        if (problem !== undefined) throw new UsageError(problem);
      }
      return runSpecCommand({
        spec: values.spec,
        config: values.config,
        libs: values.lib ?? [],
        classpath: values.classpath ?? [],
        javaOptions: values['java-opt'] ?? [],
        passThrough: passThrough ?? [],
        timeoutS,
        workers,
        log,
        finish,
      });
    }
    const grid = growthGrid(values.const ?? [], values.growth);

    if (!grid) {
      const { tlcStage } = await import('../../stages/tlc.js');
      return runAndPrint('tlc', { json: values.json, human: statusLine('tlc') }, (io) =>
        tlcStage({ systems: names, mutants: withMutants, ...(only ? { only } : {}), writeEvidence: values['write-evidence'], timeoutS, workers }, io),
      );
    }

    const located = locateTlc();
    if (!located.ok) return finish(ExitCode.NotRun, { status: 'not-run', reason: located.reason, summary: `TLC not run: ${located.reason}` });
    const opts = { tools: located.tools, timeoutMs: timeoutS * 1000, workers };
    try {
      const sys = await SYSTEMS[names[0]!]!();
      let cells;
      try {
        cells = await measureGrowth(sys, located.tools, grid, opts.timeoutMs, (c) =>
          log(
            `${Object.entries(c.at)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}: ${c.outcome} ${c.distinct ?? '?'} distinct / ${c.generated ?? '?'} generated, depth ${c.depth ?? '?'}, ${c.durationMs ?? '?'} ms`,
          ),
        );
      } catch (err) {
        if (err instanceof RangeError) throw new UsageError(`--const: ${err.message}`);
        throw err;
      }
      log('');
      log(formatGrowthTable(cells, opts.timeoutMs));
      const bad = cells.filter((c) => c.outcome !== 'ok' && c.outcome !== 'timeout');
      return finish(bad.length === 0 ? ExitCode.Ok : ExitCode.Failed, {
        status: bad.length === 0 ? 'passed' : 'failed',
        ...(bad.length > 0 && { reason: bad.map((c) => `${JSON.stringify(c.at)}: ${c.outcome}`).join('; ') }),
        summary: `growth of ${sys.name}: ${cells.filter((c) => c.outcome === 'ok').length}/${cells.length} runs finished within ${timeoutS} s`,
        details: { system: sys.name, cells },
      });
    } catch (err) {
      if (err instanceof TlcUnavailableError) return finish(ExitCode.NotRun, { status: 'not-run', reason: err.message, summary: `TLC not run: ${err.message}` });
      if (err instanceof TlcOutputError) return finish(ExitCode.BadInput, { status: 'failed', reason: `cannot parse TLC output: ${err.message}`, summary: 'TLC output could not be parsed' });
      throw err;
    }
  },
};

/** `--const N=V1,V2` (repeatable) as a growth grid, or undefined without --growth. */
function growthGrid(raw: readonly string[], growth: boolean): Record<string, string[]> | undefined {
  if (!growth) return undefined;
  if (raw.length === 0) throw new UsageError('--growth needs at least one --const NAME=V1,V2,...');
  const grid: Record<string, string[]> = {};
  for (const r of raw) {
    const m = /^([A-Za-z_]\w*)=(.+)$/.exec(r);
    if (!m) throw new UsageError(`--const takes NAME=V1,V2,..., got ${JSON.stringify(r)}`);
    if (grid[m[1]!]) throw new UsageError(`--const ${m[1]} given twice`);
    // A TLA+ set value keeps its commas: split only outside braces.
    grid[m[1]!] = m[2]!
      .split(/,(?![^{]*\})/)
      .map((v) => v.trim())
      .filter(Boolean);
  }
  return grid;
}

interface SpecCommand {
  readonly spec: string;
  readonly config: string | undefined;
  readonly libs: readonly string[];
  readonly classpath: readonly string[];
  readonly javaOptions: readonly string[];
  readonly passThrough: readonly string[];
  readonly timeoutS: number;
  readonly workers: number;
  readonly log: (line: string) => void;
  readonly finish: (code: ExitCode, report: Omit<StageReport, 'schema' | 'stage' | 'startedAt' | 'durationMs'>) => ExitCode;
}

/** `fencecheck tlc --spec FILE [--config FILE] [--lib DIR]… [-- TLC options]`: any spec, the same StageReport. */
async function runSpecCommand(o: SpecCommand): Promise<ExitCode> {
  let extraArgs: string[];
  try {
    extraArgs = resolvePassThrough(o.passThrough);
  } catch (err) {
    if (err instanceof PassThroughError) throw new UsageError(err.message);
    throw err;
  }
  const config = o.config ?? join(dirname(o.spec), `${basename(o.spec, '.tla')}.cfg`);
  const bad = (reason: string) => o.finish(ExitCode.BadInput, { status: 'failed', reason, summary: 'bad input' });
  if (!o.spec.endsWith('.tla')) return bad(`--spec ${o.spec}: not a .tla file`);
  for (const [what, f] of [
    ['--spec', o.spec],
    [o.config === undefined ? 'the default config' : '--config', config],
  ] as const)
    if (!existsSync(f) || !statSync(f).isFile()) return bad(`${what} ${f} does not exist (or is not a file)`);
  // A jar of modules is found through the classpath; a folder through TLC's library path.
  const libJars = o.libs.filter((d) => d.endsWith('.jar'));
  const libDirs = o.libs.filter((d) => !d.endsWith('.jar'));
  for (const d of libDirs) if (!existsSync(d) || !statSync(d).isDirectory()) return bad(`--lib ${d} is not a directory (or a .jar)`);
  for (const j of [...libJars, ...o.classpath]) if (!existsSync(j)) return bad(`${o.classpath.includes(j) ? '--classpath' : '--lib'} ${j} does not exist`);
  const classpath = [...libJars, ...o.classpath].map((p) => resolve(p));
  const located = locateTlc();
  if (!located.ok) return o.finish(ExitCode.NotRun, { status: 'not-run', reason: located.reason, summary: `TLC not run: ${located.reason}` });
  try {
    o.log(`TLC: ${located.tools.jar}`);
    const checked = await checkSpec({ spec: o.spec, config, libDirs, classpath, javaOptions: o.javaOptions, extraArgs, tools: located.tools, timeoutMs: o.timeoutS * 1000, workers: o.workers });
    const name = specRunName(o.spec);
    const { lines, reason } = describeSpecRun(checked, o.spec, config, specTraceLines);
    for (const l of lines) o.log(l);
    const r = checked.run.kind === 'completed' ? checked.run.result : undefined;
    const tracePath = checked.trace ? writeRunReport(`${name}.trace`, checked.trace) : undefined;
    writeRunReport(name, {
      spec: o.spec,
      config,
      libs: o.libs,
      classpath,
      javaOptions: o.javaOptions,
      tlcOptions: extraArgs,
      ...(checked.run.kind === 'completed' ? { result: checked.run.result, exitCode: checked.run.exitCode } : { timeout: true }),
    });
    const verdict = specVerdict(r ? r.outcome : 'timeout');
    // A disagreement the exit status could not decide is never a pass: the output may be cut short.
    const status = r?.exit && !r.exit.agrees && !r.exit.decided ? 'not-run' : verdict.status;
    const exit = status === 'not-run' ? ExitCode.NotRun : verdict.exit === 1 ? ExitCode.Failed : ExitCode.Ok;
    const counts: Record<string, number> = {
      ...(r?.generated !== undefined && { generated: r.generated }),
      ...(r?.distinct !== undefined && { distinct: r.distinct }),
      ...(r?.depth !== undefined && { depth: r.depth }),
      ...(checked.trace && { traceStates: checked.trace.steps.length }),
    };
    return o.finish(exit, {
      status,
      ...(reason !== undefined && { reason }),
      summary: `${basename(o.spec)} with ${basename(config)}: ${r ? r.outcome : 'timeout'}${r?.violated ? ` (${r.violated})` : ''}, ${r?.generated ?? '?'} generated / ${r?.distinct ?? '?'} distinct${r?.exit ? `, TLC exit ${r.exit.code}` : ''}`,
      counts,
      ...(tracePath && { traces: [tracePath] }),
      details: {
        spec: o.spec,
        config,
        libs: o.libs,
        ...(classpath.length > 0 && { classpath }),
        ...(o.javaOptions.length > 0 && { javaOptions: o.javaOptions }),
        tlcOptions: extraArgs,
        outcome: r ? r.outcome : 'timeout',
        ...(r?.violated !== undefined && { violated: r.violated, violationKind: r.violationKind }),
        ...(r?.exit && { tlcExit: r.exit }),
        ...(checked.trace?.loop !== undefined && { loop: checked.trace.loop, loopAction: checked.trace.loopAction }),
        ...(r?.unreadable && { unreadable: r.unreadable }),
        ...(checked.traceProblem !== undefined && { traceProblem: checked.traceProblem }),
        ...(r && r.sany.length > 0 && { sany: r.sany }),
        ...(r && r.errors.length > 0 && { errors: r.errors }),
      },
    });
  } catch (err) {
    if (err instanceof TlcUnavailableError) return o.finish(ExitCode.NotRun, { status: 'not-run', reason: err.message, summary: `TLC not run: ${err.message}` });
    if (err instanceof TlcOutputError) return o.finish(ExitCode.BadInput, { status: 'failed', reason: `cannot parse TLC output: ${err.message}`, summary: 'TLC output could not be parsed' });
    throw err;
  }
}

/** `--opt VALUE` → `--opt=VALUE` for an option whose values start with '-' (JVM options). */
function joinOptionValues(argv: readonly string[], option: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === option && argv[i + 1] !== undefined) out.push(`${option}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}
