import { writeFileSync } from 'node:fs';
import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { toItf } from '../../trace/export-itf.js';
import { foreignFormat, importTrace } from '../../trace/import.js';
import { loopLine, unrollLassoOnce } from '../../trace/lasso.js';
import { readTraceJson, TraceFormatError, validateAnyTrace, validateReplayable } from '../../trace/load.js';
import { traceMermaid } from '../../trace/mermaid.js';
import { stepTable } from '../../trace/steps.js';
import { traceSvg } from '../../trace/svg.js';
import { formatTlaStepTable, tlaHeadline, tlaRows } from '../../trace/tla-table.js';
import { formatStepTable, traceHeadline } from '../../trace/text-table.js';
import type { AnyTrace, FencingTrace } from '../../core/trace-format.js';

const HELP = `Usage: fencecheck trace show FILE [--mermaid | --svg | --json] [--color | --no-color]
       fencecheck trace replay FILE [--json] [--provider auto|native|testcontainers|external]
       fencecheck trace import FILE [-o OUT] [--mutant ID] [--max-gen N]
       fencecheck trace export FILE --itf [-o OUT]

FILE may be a fencecheck.trace/1 trace, a TLC evidence record, TLC's -dumpTrace json output or an
ITF file (Apalache, Quint): the last two are imported on the fly (as \`trace import\` does).

show    prints the counterexample trace (fencecheck.trace/1, docs/trace-format.md) as a step table:
        action, pod, every spec variable, changed variables highlighted (*v* without colour),
        and the invariants each state breaks.
        --mermaid  print a Mermaid sequence diagram instead
        --svg      print the same diagram as standalone SVG
        --json     print the table as JSON (steps, changed variables, broken invariants)
replay  runs the trace step by step against a real standalone Valkey through the fencing step driver
        (each pod's version's scripts, the deployment gate for fleet steps), printing the real
        keyspace beside the model state, and stops at the step where an invariant breaks on the real
        keyspace (or T3 breaks on the wire). A trace with "mutant" set runs with that mutant's
        implementation patch; a trace crossing the mode door also starts the 3-primary cluster.
        --json     print the replay as JSON (schema fencecheck.replay/1)
        A lasso (a trace with "loop") replays its stem and its loop once, and says so.
import  converts TLC's -dumpTrace json or an ITF file into fencecheck.trace/1 (stdout, or -o OUT).
        A trace of the project's fencing spec becomes a fencing trace (show and replay); actions an
        ITF file does not name are inferred from the state changes with the XState model, and the
        trace's "imported.notes" say so. Any other spec's trace becomes a system "tla" trace (show).
        --mutant ID  the mutant the trace was made under (replay applies its implementation patch)
        --max-gen N  MaxGen of the run (not in the file; default the base config's 4)
export  --itf writes the trace as ITF (each state's #meta carries its action and params).

Exit codes: 0 shown / replay held every invariant · 1 replay: an invariant broke on the real keyspace ·
2 replay could not run (no Valkey, no driver, no patch for the mutant) · 3 bad trace file · 64 usage`;

export const command: Command = {
  name: 'trace',
  summary: 'show a counterexample trace (table, Mermaid, SVG) or replay it on real Valkey',
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

function badTrace(err: unknown): ExitCode {
  if (err instanceof TraceFormatError) {
    process.stderr.write(`fencecheck trace: ${err.message}\n`);
    return ExitCode.BadInput;
  }
  throw err;
}

/** Any trace file: ours (or an evidence record), or TLC -dumpTrace json / ITF imported on the fly. */
function loadAny(file: string, opts: { mutant?: string; maxGen?: number } = {}): AnyTrace {
  const raw = readTraceJson(file);
  return foreignFormat(raw) ? importTrace(raw, { file, ...opts }) : validateAnyTrace(raw, file);
}

function readTrace(file: string, forReplay = false): FencingTrace | ExitCode {
  try {
    const trace = loadAny(file);
    if (trace.system !== 'fencing') throw new TraceFormatError(`${file}: a trace of another spec (system "tla"${trace.spec ? `, ${trace.spec}` : ''}): only the fencing system's traces replay`);
    if (forReplay) validateReplayable(trace, file);
    return trace;
  } catch (err) {
    return badTrace(err);
  }
}

function writeOut(out: string | undefined, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (out === undefined) process.stdout.write(text);
  else writeFileSync(out, text);
}

async function importCmd(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string', short: 'o' }, mutant: { type: 'string' }, 'max-gen': { type: 'string' } }, true);
  const file = oneFile(positionals);
  const maxGen = intOption(values, 'max-gen', { min: 0, max: 64 });
  if (values.mutant !== undefined && !/^[A-Z]+\d+$/.test(values.mutant)) throw new UsageError(`--mutant takes a manifest id such as M1, got "${values.mutant}"`);
  try {
    const raw = readTraceJson(file);
    if (!foreignFormat(raw)) throw new TraceFormatError(`${file}: neither TLC's -dumpTrace json ({"counterexample", "vars"}) nor ITF ({"vars", "states"})${validateAnyTraceQuiet(raw) ? ' (it is already a fencecheck.trace/1 trace)' : ''}`);
    const trace = importTrace(raw, { file, ...(values.mutant !== undefined && { mutant: values.mutant }), ...(maxGen !== undefined && { maxGen }) });
    writeOut(values.out, trace);
    for (const n of trace.imported?.notes ?? []) process.stderr.write(`fencecheck trace import: ${n}\n`);
    return ExitCode.Ok;
  } catch (err) {
    return badTrace(err);
  }
}

function validateAnyTraceQuiet(raw: unknown): boolean {
  try {
    validateAnyTrace(raw);
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
    writeOut(values.out, toItf(loadAny(file)));
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
    { mermaid: { type: 'boolean', default: false }, svg: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, color: { type: 'boolean' }, 'no-color': { type: 'boolean' } },
    true,
  );
  if ([values.mermaid, values.svg, values.json].filter(Boolean).length > 1) throw new UsageError('choose one of --mermaid, --svg, --json');
  const file = oneFile(positionals);
  let any: AnyTrace;
  try {
    any = loadAny(file);
  } catch (err) {
    return badTrace(err);
  }
  const color = values['no-color'] ? false : (values.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR));
  const loop = loopLine(any);
  if (any.system === 'tla') {
    if (values.mermaid || values.svg) throw new UsageError('--mermaid and --svg draw the fencing system only; this is a trace of another spec');
    if (values.json) {
      const steps = tlaRows(any).map((r) => ({ index: r.index, action: r.action, state: r.cells, changed: r.changed }));
      process.stdout.write(`${JSON.stringify({ headline: tlaHeadline(any), system: 'tla', violated: any.violated ?? null, columns: any.vars, steps, loop: any.loop ?? null, loopAction: any.loopAction ?? null, imported: any.imported ?? null }, null, 2)}\n`);
    } else process.stdout.write(`${tlaHeadline(any)}\n\n${formatTlaStepTable(any, { color })}\n${loop ? `\n${loop}\n` : ''}${notesText(any)}`);
    return ExitCode.Ok;
  }
  const trace = any;
  if (values.mermaid) process.stdout.write(`${traceMermaid(trace)}\n`);
  else if (values.svg) process.stdout.write(`${traceSvg(trace)}\n`);
  else if (values.json) {
    const t = stepTable(trace);
    const rows = t.rows.map((r) => ({ index: r.index, action: r.action, pod: r.pod, state: r.cells, changed: [...r.changed], broken: r.broken }));
    process.stdout.write(
      `${JSON.stringify({ headline: traceHeadline(trace), mutant: trace.mutant ?? null, violated: trace.violated ?? null, columns: t.columns, steps: rows, loop: trace.loop ?? null, loopAction: trace.loopAction ?? null, imported: trace.imported ?? null }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(`${traceHeadline(trace)}\n\n${formatStepTable(trace, { color })}\n${loop ? `\n${loop}\n` : ''}${notesText(trace)}`);
  }
  return ExitCode.Ok;
}

function notesText(t: AnyTrace): string {
  const notes = t.imported?.notes ?? [];
  return notes.length > 0 ? `\n${notes.map((n) => `note: ${n}`).join('\n')}\n` : '';
}

async function replay(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false }, provider: { type: 'string' } }, true);
  const provider = values.provider;
  if (provider !== undefined && !['auto', 'native', 'testcontainers', 'external'].includes(provider)) throw new UsageError(`--provider: unknown provider '${provider}'`);
  // Every action and pod is checked against the trace's bounds before any server starts.
  const file = oneFile(positionals);
  const read = readTrace(file);
  if (typeof read === 'number') return read;
  // A lasso replays its stem and its loop once (the closing step's model state is the one it returns to).
  const { trace, note: lassoNote } = unrollLassoOnce(read);
  try {
    validateReplayable(trace, file);
  } catch (err) {
    return badTrace(err);
  }
  if (lassoNote) (values.json ? process.stderr : process.stdout).write(`${lassoNote}\n`);
  const notRun = (why: string): ExitCode => {
    process.stderr.write(`fencecheck trace replay: not run: ${why}\n`);
    return ExitCode.NotRun;
  };
  // The replay needs the implementation's step driver and Valkey: loaded only here.
  let mod: typeof import('../../trace/replay.js');
  let valkey: typeof import('../../valkey/index.js');
  let openPropsEnv: typeof import('../../../properties/fencing/env.js').openPropsEnv;
  try {
    mod = await import('../../trace/replay.js');
    valkey = await import('../../valkey/index.js');
    ({ openPropsEnv } = await import('../../../properties/fencing/env.js'));
  } catch (err) {
    return notRun(`the fencing step driver or Valkey layer cannot be loaded: ${(err as Error).message}`);
  }
  const { loadManifest, ManifestError } = await import('../../core/manifest.js');
  let patch;
  if (trace.mutant !== undefined) {
    try {
      patch = await mod.loadImplPatch(loadManifest(), trace.mutant);
    } catch (err) {
      if (err instanceof mod.ReplayUnavailableError) return notRun(err.message);
      if (err instanceof ManifestError) {
        process.stderr.write(`fencecheck trace: ${err.message}\n`);
        return ExitCode.BadInput;
      }
      throw err;
    }
  }
  // The property suite's environment: the standalone node, plus the door's cluster when the trace crosses it.
  if (provider !== undefined) process.env.FENCECHECK_VALKEY_PROVIDER = provider;
  if (trace.source === 'conform') return replayTour(trace, mod, valkey, patch, values.json === true);
  const door = mod.needsDoor(trace);
  let env;
  try {
    env = await openPropsEnv(door ? 'door' : 'standalone', { bounds: trace.bounds, ...(patch ? { patch: patch.patch } : {}) });
  } catch (err) {
    if (err instanceof valkey.ValkeyUnavailableError) return notRun(err.message);
    throw err;
  }
  const topology = env.ctx.topology;
  const log = (s: string) => (values.json ? process.stderr : process.stdout).write(`${s}\n`);
  log(`replaying ${traceHeadline(trace)}${patch ? ` with ${patch.path}` : ''} on ${topology.provider} standalone Valkey${door ? ' and a 3-primary cluster for the door' : ''}`);
  try {
    const result = await mod.replayTrace(trace, {
      topology,
      scripts: env.ctx.scripts,
      ...(env.ctx.door ? { door: env.ctx.door } : {}),
      ...(patch ? { patch } : {}),
      onStep: (s) => log(replayStepLine(s)),
    });
    return printReplay(result, trace, values.json === true);
  } finally {
    await env.close();
  }
}

/**
 * A conformance-tour trace replays from Init on one session, on the tour's three topologies
 * (standalone, one-shard and three-shard cluster), with the pods' remembered generations and TTL
 * expiry as the tour ran them.
 */
async function replayTour(
  trace: FencingTrace,
  mod: typeof import('../../trace/replay.js'),
  valkey: typeof import('../../valkey/index.js'),
  patch: { path: string; patch: import('../../systems/fencing/patch.js').ImplPatch } | undefined,
  json: boolean,
): Promise<ExitCode> {
  const { openTourRig, tourDoor } = await import('../../systems/fencing/tour/rig.js');
  const { loadFencingScripts } = await import('../../systems/fencing/scripts.js');
  let rig;
  try {
    rig = await openTourRig();
  } catch (err) {
    if (err instanceof valkey.ValkeyUnavailableError) {
      process.stderr.write(`fencecheck trace replay: not run: ${err.message}\n`);
      return ExitCode.NotRun;
    }
    throw err;
  }
  const log = (s: string) => (json ? process.stderr : process.stdout).write(`${s}\n`);
  log(`replaying ${traceHeadline(trace)}${patch ? ` with ${patch.path}` : ''} from Init on one session: standalone, 1-shard and 3-shard cluster (${rig.topologies.disabled.provider})`);
  try {
    const session = rig.session();
    const result = await mod.replayTrace(trace, {
      topology: rig.topologies.disabled,
      scripts: loadFencingScripts(patch?.patch),
      door: tourDoor(rig, session),
      session,
      connections: { standalone: rig.conns.disabled, current: rig.conns.disabled },
      expiry: 'ttl',
      ...(patch ? { patch } : {}),
      onStep: (s) => log(replayStepLine(s)),
    });
    return printReplay(result, trace, json);
  } finally {
    await rig.close();
  }
}

type ReplayModule = typeof import('../../trace/replay.js');

/** One progress line per replayed step. */
function replayStepLine(s: Parameters<NonNullable<Parameters<ReplayModule['replayTrace']>[1]['onStep']>>[0]): string {
  const params = Object.values(s.params);
  return `step ${s.index} ${s.action}${params.length ? `(${params.join(',')})` : ''}: ${s.status}: ${s.note}${s.brokenReal.length ? ` — real keyspace breaks ${s.brokenReal.join(', ')}` : ''}${s.slotBreaches.length ? ` — T3 on the wire: ${s.slotBreaches.join('; ')}` : ''}`;
}

/** The replay as JSON or as the model/real table with its verdict; exit 1 when an invariant broke on the real keyspace. */
async function printReplay(result: Awaited<ReturnType<ReplayModule['replayTrace']>>, trace: FencingTrace, json: boolean): Promise<ExitCode> {
  if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const { formatReplayTable, replayVerdict } = await import('../../trace/replay-table.js');
    const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
    process.stdout.write(`\n${formatReplayTable(result, trace.bounds.pods, color)}\n\n${replayVerdict(result, trace.steps.length)}\n`);
  }
  return result.stoppedAt === null ? ExitCode.Ok : ExitCode.Failed;
}
