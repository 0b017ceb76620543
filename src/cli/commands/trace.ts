import { writeFileSync } from 'node:fs';
import type { Command } from '../../core/command.js';
import { constantsOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ManifestError } from '../../core/manifest.js';
import type { Trace } from '../../core/trace-format.js';
import { loadSystemManifest, systemEntry } from '../../registry/systems.js';
import { ReplayInputError, ReplayUnavailableError } from '../../seam/replay.js';
import { PatchFileError, verifiedPatchFile } from '../../seam/patch-file.js';
import { toItf } from '../../trace/export-itf.js';
import { foreignFormat, importTrace, type ImportOptions } from '../../trace/import.js';
import { loopLine, unrollLassoOnce } from '../../trace/lasso.js';
import { readTraceJson, TraceFormatError, validateTrace } from '../../trace/load.js';
import { traceMermaid } from '../../trace/mermaid.js';
import { actionLabel, stepTable } from '../../trace/steps.js';
import { traceSvg } from '../../trace/svg.js';
import { modelAt, modelOf, withSystem } from '../../trace/systems.js';
import { formatStepTable, traceHeadline } from '../../trace/text-table.js';

const HELP = `Usage: fencecheck trace show FILE [--mermaid | --svg | --json] [--color | --no-color] [--system NAME]
       fencecheck trace replay FILE [--json] [--provider auto|native|testcontainers|external]
       fencecheck trace import FILE [-o OUT] [--system NAME] [--mutant ID] [--const NAME=VALUE]...
       fencecheck trace export FILE --itf [-o OUT]

FILE may be a fencecheck.trace/2 trace of any system (or a /1 trace, converted), a TLC evidence
record, TLC's -dumpTrace json output or an ITF file (Apalache, Quint, itf-rs): the last two are
imported on the fly (as \`trace import\` does).

show    prints the trace (docs/trace-format.md) as a step table: the action with its arguments,
        every spec variable (a function of a few model values split per argument), changed values
        highlighted (*v* without colour), and the invariants each state breaks.
        --mermaid  print a Mermaid sequence diagram instead (a lifeline per actor, one for the state)
        --svg      print the same diagram as standalone SVG
        --json     print the table as JSON (steps, changed variables, broken invariants)
replay  runs the trace step by step on the real implementation of its system (fencing: a real
        standalone Valkey through the fencing step driver; a trace crossing the mode door also
        starts the 3-primary cluster; pause and the init limiter: their tours' real sides), printing
        the real state beside the trace's, and stops at the step where an invariant breaks on the
        real system. A conformance tour's trace whose finding is no invariant (Conformance, TTL,
        ReadSide, what a client received) is judged as the tour judged it and stops at that
        finding. A trace with "mutant" set runs with that
        mutant's implementation patch; one with "patch" (a --patch FILE run's) applies that file,
        refused (exit 3) when the file is gone or its sha256 is no longer the recorded one. A
        lasso replays its stem and its loop once, and says so.
        --json     print the replay as JSON (schema fencecheck.replay/2)
import  converts TLC's -dumpTrace json or an ITF file into fencecheck.trace/2 (stdout, or -o OUT).
        Every variable is kept; actions are read from #meta.action, mbt::actionTaken/mbt::nondetPicks,
        Quint's action_taken/nondet_picks or a tagged "action" variable; name_OF_TYPE suffixes are
        stripped. A file whose variables are a system's becomes that system's trace: steps that name
        no action get one from the system's twin, and "imported.notes" say so. Any other spec's trace
        is a system "tla" trace.
        --system NAME  the system the file is of (default: the one with exactly its variables)
        --mutant ID    the mutant the trace was made under (its twin infers actions; replay applies its patch)
        --const N=V    a TLA+ constant of the run the file does not show (e.g. MaxGen=6)
export  --itf writes the trace as ITF (each state's #meta carries its action and params).

Exit codes: 0 shown / replay held every invariant (and check) · 1 replay: an invariant broke on the
real system, or the tour's check the trace recorded failed ·
2 replay could not run (no replay for the system, no Valkey, no patch for the mutant) · 3 bad trace file,
or its patch file changed or gone · 64 usage`;

export const command: Command = {
  name: 'trace',
  summary: 'show a trace of any system (table, Mermaid, SVG), import/export it, or replay it on the real code',
  help: HELP,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'show') return show(rest);
    if (sub === 'replay') return replay(rest);
    if (sub === 'import') return importCmd(rest);
    if (sub === 'export') return exportCmd(rest);
    throw new UsageError(sub === undefined ? 'missing subcommand: show, replay, import or export' : `unknown subcommand '${sub}' (show, replay, import, export)`);
  },
};

/** Bad input is one line, exit 3 (`file`: the trace a ReplayInputError's step belongs to). */
function badTrace(err: unknown, file?: string): ExitCode {
  if (err instanceof TraceFormatError || err instanceof ReplayInputError || err instanceof ManifestError || err instanceof PatchFileError) {
    const where = err instanceof ReplayInputError && file !== undefined ? `${file}: ` : '';
    process.stderr.write(`fencecheck trace: ${where}${err.message}\n`);
    return ExitCode.BadInput;
  }
  throw err;
}

/** Any trace file: ours (or an evidence record), read through its system; TLC -dumpTrace json / ITF imported on the fly. */
async function loadAny(file: string, opts: Omit<ImportOptions, 'file'> = {}): Promise<Trace> {
  const raw = readTraceJson(file);
  return foreignFormat(raw) ? importTrace(raw, { file, ...opts }) : withSystem(validateTrace(raw, file), file);
}

function writeOut(out: string | undefined, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (out === undefined) process.stdout.write(text);
  else writeFileSync(out, text);
}

function mutantOption(v: string | undefined): string | undefined {
  if (v !== undefined && !/^[A-Z]+\d+$/.test(v)) throw new UsageError(`--mutant takes a manifest id such as M1, got "${v}"`);
  return v;
}

async function importCmd(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { out: { type: 'string', short: 'o' }, mutant: { type: 'string' }, system: { type: 'string' }, const: { type: 'string', multiple: true } },
    true,
  );
  const file = oneFile(positionals);
  const mutant = mutantOption(values.mutant);
  const constants = constantsOption(values.const);
  try {
    const raw = readTraceJson(file);
    if (!foreignFormat(raw))
      throw new TraceFormatError(`${file}: neither TLC's -dumpTrace json ({"counterexample", "vars"}) nor ITF ({"vars", "states"})${isOurs(raw) ? ' (it is already a fencecheck trace)' : ''}`);
    const trace = await importTrace(raw, { file, ...(mutant !== undefined && { mutant }), ...(values.system !== undefined && { system: values.system }), constants });
    writeOut(values.out, trace);
    for (const n of trace.imported?.notes ?? []) process.stderr.write(`fencecheck trace import: ${n}\n`);
    return ExitCode.Ok;
  } catch (err) {
    return badTrace(err);
  }
}

function isOurs(raw: unknown): boolean {
  try {
    validateTrace(raw);
    return true;
  } catch {
    return false;
  }
}

async function exportCmd(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(argv, { itf: { type: 'boolean', default: false }, out: { type: 'string', short: 'o' } }, true);
  if (!values.itf) throw new UsageError('trace export needs a format: --itf');
  const file = oneFile(positionals);
  try {
    writeOut(values.out, toItf(await loadAny(file)));
    return ExitCode.Ok;
  } catch (err) {
    return badTrace(err);
  }
}

function oneFile(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`expected one trace FILE, got ${positionals.length}`);
  return positionals[0]!;
}

async function show(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      mermaid: { type: 'boolean', default: false },
      svg: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      color: { type: 'boolean' },
      'no-color': { type: 'boolean' },
      system: { type: 'string' },
    },
    true,
  );
  if ([values.mermaid, values.svg, values.json].filter(Boolean).length > 1) throw new UsageError('choose one of --mermaid, --svg, --json');
  const file = oneFile(positionals);
  let trace: Trace;
  try {
    trace = await loadAny(file, values.system !== undefined ? { system: values.system } : {});
  } catch (err) {
    return badTrace(err);
  }
  const color = values['no-color'] ? false : (values.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR));
  const loop = loopLine(trace);
  if (values.mermaid) process.stdout.write(`${traceMermaid(trace)}\n`);
  else if (values.svg) process.stdout.write(`${traceSvg(trace)}\n`);
  else if (values.json) {
    const t = stepTable(trace);
    const steps = t.rows.map((r) => ({ index: r.index, action: r.action, actor: r.pod, state: r.cells, changed: [...r.changed], ...(t.judged && { broken: r.broken }) }));
    const out = {
      headline: traceHeadline(trace),
      system: trace.system,
      mutant: trace.mutant ?? null,
      patch: trace.patch ?? null,
      violated: trace.violated ?? null,
      columns: t.columns,
      steps,
      loop: trace.loop ?? null,
      loopAction: trace.loopAction ?? null,
      imported: trace.imported ?? null,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else process.stdout.write(`${traceHeadline(trace)}\n\n${formatStepTable(trace, { color })}\n${loop ? `\n${loop}\n` : ''}${notesText(trace)}`);
  return ExitCode.Ok;
}

function notesText(t: Trace): string {
  const notes = t.imported?.notes ?? [];
  return notes.length > 0 ? `\n${notes.map((n) => `note: ${n}`).join('\n')}\n` : '';
}

async function replay(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false }, provider: { type: 'string' } }, true);
  const provider = values.provider;
  if (provider !== undefined && !['auto', 'native', 'testcontainers', 'external'].includes(provider)) throw new UsageError(`--provider: unknown provider '${provider}'`);
  const file = oneFile(positionals);
  const log = (s: string) => (values.json ? process.stderr : process.stdout).write(`${s}\n`);
  const notRun = (why: string): ExitCode => {
    process.stderr.write(`fencecheck trace replay: could not run: ${why}\n`);
    return ExitCode.NotRun;
  };
  let read: Trace;
  try {
    read = await loadAny(file);
  } catch (err) {
    return badTrace(err);
  }
  const entry = systemEntry(read.system);
  if (!entry?.replay) return notRun(`system ${read.system} has no replay${entry ? '' : " (a spec that is none of the project's systems)"}`);
  // A lasso replays its stem and its loop once (the closing step's state is the one it returns to).
  const { trace, note: lassoNote } = unrollLassoOnce(read);
  const replayer = await entry.replay();
  let mutant;
  let patchFile: string | undefined;
  try {
    // Every action and argument is checked before any server starts.
    replayer.check(trace);
    // A recorded patch file is applied only when it is still the file the trace was made with.
    if (trace.patch) patchFile = verifiedPatchFile(trace.patch);
    else mutant = trace.mutant === undefined ? undefined : loadSystemManifest().mutants.find((m) => m.id === trace.mutant);
  } catch (err) {
    return badTrace(err, file);
  }
  if (lassoNote) log(lassoNote);
  const model = await modelOf(trace.system);
  if (!model) return notRun(`system ${trace.system} has no model to judge the real states by`);
  let sys;
  try {
    sys = modelAt(model, trace.bounds, trace.steps[0]?.state, file);
  } catch (err) {
    return badTrace(err);
  }
  let session;
  try {
    session = await replayer.open(trace, { ...(mutant && { mutant }), ...(patchFile !== undefined && { patchFile }), ...(provider !== undefined && { provider }) });
  } catch (err) {
    if (err instanceof ReplayUnavailableError) return notRun(err.message);
    if (err instanceof ReplayInputError) return badTrace(err, file);
    throw err;
  }
  log(`replaying ${traceHeadline(trace)}${session.patch ? ` with ${session.patch}` : ''} ${session.where}`);
  try {
    const { replayTrace } = await import('../../trace/replay.js');
    const result = await replayTrace(trace, sys, session, (s) =>
      log(
        `step ${s.index} ${actionLabel(s)}: ${s.status}: ${s.note}${s.brokenReal.length ? ` — the real system breaks ${s.brokenReal.join(', ')}` : ''}${s.breaches.length ? ` — ${s.breaches.join('; ')}` : ''}${s.finding ? ` — ${s.finding.check}: ${s.finding.message}` : ''}`,
      ),
    );
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const { formatReplayTable, replayVerdict } = await import('../../trace/replay-table.js');
      const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
      process.stdout.write(`\n${formatReplayTable(result, sys.variables, color)}\n\n${replayVerdict(result, trace.steps.length, sys.variables)}\n`);
    }
    return result.stoppedAt === null ? ExitCode.Ok : ExitCode.Failed;
  } finally {
    await session.close();
  }
}
