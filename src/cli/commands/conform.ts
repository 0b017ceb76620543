import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ManifestError, mutantsFor, type MutantEntry } from '../../core/manifest.js';
import { ProgressConsole } from '../../core/progress.js';
import type { StageReport } from '../../core/stage-report.js';
import { isProviderChoice } from '../../valkey/start.js';
import { boundsLabel } from '../../seam/system.js';
import { shardOption, type Shard } from '../../seam/tour/shard.js';
import { TourSetupError, TourUnavailableError, type SystemTour } from '../../seam/tour/entry.js';
import { loadSystemManifest, systemEntry, SYSTEMS, TOUR_NAMES, type AnySystem } from '../../registry/systems.js';
import { selectModels, selectSystemNames } from '../../registry/select.js';

const HELP = `Usage: fencecheck conform [--system NAME]... [--const NAME=VALUE]... [--gate] [--mutant ID | --patch FILE [--safety-only]] [--invariant NAME]
                         [--shard I/N] [--concurrency N] [--provider P] [--json]

The exhaustive conformance tour of each system's real code (${TOUR_NAMES.join(', ')}). From the
model's initial states, in every state reached and for every attempt in it — every transition the
model enables and every attempt it refuses — a fresh instance of the real code is put into exactly
that state, the attempt runs, and the real state read back is the successor. Checked on the real
system: the model's prediction of every step (decision and successor), every invariant, and the
system's own checks (for fencing: the TTL rules, T3 on the wire, the read side of every version).
No randomness: the same code gives the same verdict on every run.

Options:
  --system NAME     a system with a tour (repeatable, or all; default all)
  --const N=V       a TLA+ constant, as TLC reads it (e.g. --const Pods=4 --const MaxGen=6 for fencing;
                    default: the spec's base config); without --system, the systems whose spec has it
  --gate            verify's bound: a system whose whole graph takes minutes tours the constants its
                    tour names for the gate, the others their base config. Without --gate and --const
                    a system tours its base config, or its tour's default bound where the tour does
                    not map the base config (the first line prints the bounds toured)
  --mutant ID       run against the impl patch of a mutant (mutants/manifest.json; its system is the
                    tour's); checks its expected invariant alone, following the real graph wherever it leads
  --patch FILE      run your own implementation patch (a module default-exporting the system's patch
                    type, e.g. fencing's ImplPatch; the system is the one whose patch it is, or --system):
                    the unpatched tour first, then the patched code's whole tour (conformance, every
                    invariant, the system's checks); verdict killed (exit 1: the check, the finding,
                    its replay), equivalent (everything observed is the unpatched code's) or survived
                    (every check held, something observed differs) (exit 0) — docs/conform.md
  --safety-only     with --patch, for a change the model does not have yet: a departure from the
                    model is reported ("departs from the model at …; every invariant held", exit 4)
                    when the patched code's real graph keeps every invariant, killed when it does not
  --invariant NAME  check this invariant alone (with the type invariant) instead of full conformance
  --shard I/N       run a deterministic 1/N of one system's full conformance tour: every attempt of the
                    model states whose key hashes to shard I (1 ≤ I ≤ N ≤ 64); the N shards' --json
                    reports merge into the unsharded one (counts, rows and digest add up)
  --concurrency N   attempts in flight at once (default: the system's)
  --provider P      auto, native, testcontainers or external (default FENCECHECK_VALKEY_PROVIDER or auto)
  --json            print a StageReport (fencecheck.stage/1)

Exit codes: 0 the real graph is the model's (or, with an invariant alone, it holds) · 1 a check
failed (path from Init printed, trace saved; 'fencecheck trace replay FILE' runs it), or --patch killed ·
2 not run (the real system could not be started) · 3 unknown mutant, or a mutant's or --patch file
that cannot be loaded or is no patch of the system · 4 --patch --safety-only departs from the model,
every invariant holding · 64 usage`;

interface Planned {
  readonly name: string;
  readonly model: AnySystem;
  readonly tour: SystemTour;
}

export const command: Command = {
  name: 'conform',
  summary: 'exhaustive conformance tour: every model transition and refused attempt on the real code',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      system: { type: 'string', multiple: true },
      const: { type: 'string', multiple: true },
      gate: { type: 'boolean', default: false },
      mutant: { type: 'string' },
      patch: { type: 'string' },
      'safety-only': { type: 'boolean', default: false },
      invariant: { type: 'string' },
      concurrency: { type: 'string' },
      shard: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const concurrency = intOption(values, 'concurrency', { min: 1, max: 4096 });
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`--provider: unknown provider '${values.provider}'`);
    const constants = constantsOption(values.const);
    const out = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
    const startedAt = new Date();

    if (values['safety-only'] && values.patch === undefined) throw new UsageError("--safety-only applies to --patch FILE (the model and the code it checks are the project's own)");
    if (values.patch !== undefined) {
      if (values['safety-only'] && values.invariant !== undefined)
        throw new UsageError('give --safety-only (every invariant, a departure reported) or --invariant NAME (one invariant alone), not both');
      if (values.mutant !== undefined) throw new UsageError('give --mutant ID or --patch FILE, not both');
      if (values.shard !== undefined) throw new UsageError('--shard applies to the full conformance tour, not to --patch (a patch is followed through its real graph, which only the whole run knows)');
      const { conformPatch } = await import('./conform-patch.js');
      return conformPatch({
        file: values.patch,
        ...(values.system ? { systems: values.system } : {}),
        ...(values.invariant !== undefined ? { invariant: values.invariant } : {}),
        ...(values['safety-only'] ? { safetyOnly: true } : {}),
        constants,
        gate: values.gate,
        ...(concurrency ? { concurrency } : {}),
        ...(values.provider !== undefined ? { provider: values.provider } : {}),
        json: values.json,
      });
    }

    // A mutant names its system; otherwise --system (default: every system with a tour).
    let mutant: MutantEntry | undefined;
    if (values.mutant !== undefined) {
      try {
        const manifest = loadSystemManifest();
        mutant = mutantsFor(manifest, 'impl').find((m) => m.id === values.mutant && TOUR_NAMES.includes(m.system));
        if (!mutant) throw new ManifestError(`no impl-layer mutant ${values.mutant} of a system with a tour in mutants/manifest.json`);
      } catch (err) {
        process.stderr.write(`fencecheck conform: ${(err as Error).message}\n`);
        return ExitCode.BadInput;
      }
      if (values.system !== undefined && (values.system.length !== 1 || values.system[0] !== mutant.system))
        throw new UsageError(`--mutant ${mutant.id} is a ${mutant.system} mutant: give no --system, or --system ${mutant.system}`);
    }
    // --const without --system: the systems with a tour whose spec has those constants.
    const names = mutant
      ? [mutant.system]
      : values.system === undefined && Object.keys(constants).length > 0
        ? await toursTaking(constants)
        : selectSystemNames(values.system, { fallback: TOUR_NAMES });
    for (const n of names) if (!TOUR_NAMES.includes(n)) throw new UsageError(`--system: ${n} has no tour (systems with one: ${TOUR_NAMES.join(', ')})`);
    const tours = await Promise.all(names.map(async (name) => systemEntry(name)!.tour!()));
    const planned: Planned[] = await Promise.all(
      names.map(async (name, i) => {
        // --gate: verify's bound for a system whose whole graph takes minutes (its tour says which);
        // no --const: the tour's default bound where the spec's base config is beyond what it maps.
        const tour = tours[i]!;
        const own = Object.keys(constants).length > 0 ? constants : values.gate ? (tour.gateConstants ?? tour.defaultConstants ?? {}) : (tour.defaultConstants ?? {});
        const [model] = await selectModels([name], own);
        return { name, model: model!, tour: tours[i]! };
      }),
    );

    if (values.invariant !== undefined) {
      if (planned.length !== 1) throw new UsageError(`--invariant needs exactly one --system (got ${names.join(', ')})`);
      const known = planned[0]!.tour.invariants;
      if (!known.includes(values.invariant)) throw new UsageError(`--invariant: unknown invariant '${values.invariant}' of ${names[0]} (${known.join(', ')})`);
    }
    const shard: Shard = shardOption(values.shard);
    if (values.shard !== undefined) {
      if (values.invariant !== undefined || mutant !== undefined)
        throw new UsageError('--shard applies to the full conformance tour, not to --invariant or --mutant (an invariant alone follows the real graph, which only the whole run knows)');
      if (planned.length !== 1) throw new UsageError(`--shard splits one system's tour: give one --system (got ${names.join(', ')})`);
    }

    const { coverageLines, actionTable, headline, pathLines } = await import('../../seam/tour/report.js');
    const { combinedTourReport, tourNotRunReport, tourPassed, tourStageReport } = await import('../../seam/tour/stage.js');
    const reports: { system: string; report: StageReport }[] = [];
    let exit: ExitCode = ExitCode.Ok;
    for (const p of planned) {
      const invariant = values.invariant ?? mutant?.expectedInvariant;
      const label = `${boundsLabel(p.model.bounds)}${mutant ? `, mutant ${mutant.id}` : ''}${shard.count > 1 ? `, shard ${values.shard}` : ''}`;
      out(`conform: ${p.name}: ${p.tour.what}, ${label}${invariant ? `, ${invariant} alone` : ', full conformance'}`);
      const started = new Date();
      const progress = new ProgressConsole();
      const meter = progress.meter(`conform ${p.name}`, 1, 'attempts');
      let run;
      try {
        run = await p.tour.run({
          bounds: p.model.bounds,
          ...(mutant ? { mutant } : {}),
          ...(values.invariant !== undefined ? { invariant: values.invariant } : {}),
          ...(shard.count > 1 ? { shard } : {}),
          ...(concurrency ? { concurrency } : {}),
          ...(values.provider !== undefined ? { provider: values.provider } : {}),
          onProgress: (attempts, total, states) => meter.update(attempts, `${states} states reached`, total),
        });
      } catch (err) {
        progress.close();
        if (err instanceof TourSetupError) {
          process.stderr.write(`fencecheck conform: ${err.message}\n`);
          return ExitCode.BadInput;
        }
        if (!(err instanceof TourUnavailableError)) throw err;
        process.stderr.write(`fencecheck conform: ${p.name}: not run: ${err.message}\n`);
        reports.push({ system: p.name, report: tourNotRunReport({ stage: 'conform', reason: err.message, startedAt: started, shard, system: p.name }) });
        if (exit === ExitCode.Ok) exit = ExitCode.NotRun;
        continue;
      }
      progress.close();
      const r = run.result;
      for (const l of coverageLines(r)) out(l);
      out('');
      out(actionTable(r));
      out('');
      if (r.failure) {
        out(`FAILED ${r.failure.check}: ${r.failure.message}`);
        if (r.failure.predicted) out(`  real:    ${r.failure.real}\n  model:   ${r.failure.predicted}`);
        else if (r.failure.real) out(`  real:    ${r.failure.real}`);
        out(`path from Init (${r.failure.path.length - 1} steps):`);
        for (const l of pathLines(r, run.model)) out(l);
        if (run.replay) out(`trace: ${run.tracePath}\nreplay: ${run.replay}`);
      } else out(headline(r));
      if (!tourPassed(r)) exit = ExitCode.Failed;
      reports.push({
        system: p.name,
        report: tourStageReport(r, {
          stage: 'conform',
          startedAt: started,
          ...(run.tracePath ? { tracePath: run.tracePath } : {}),
          ...(run.replay ? { replay: run.replay } : {}),
          ...(mutant ? { mutant: mutant.id } : {}),
        }),
      });
      if (planned.length > 1) out('');
    }
    if (values.json) {
      const report = reports.length === 1 ? reports[0]!.report : combinedTourReport('conform', startedAt, reports);
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    }
    return exit;
  },
};

/** The systems with a tour that take every one of `constants` (usage when none does). */
async function toursTaking(constants: Readonly<Record<string, string>>): Promise<string[]> {
  const takers: string[] = [];
  // A system that has every constant named but refuses a value says why (the others lack the name).
  const refusals: string[] = [];
  for (const name of TOUR_NAMES) {
    const sys = await SYSTEMS[name]!();
    if (!sys.withConstants) continue;
    try {
      sys.withConstants(constants);
      takers.push(name);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      if (!/ has no constant /.test(err.message)) refusals.push(err.message);
    }
  }
  if (takers.length > 0) return takers;
  if (refusals.length > 0) throw new UsageError(`--const: ${refusals.join('; ')}`);
  throw new UsageError(`--const: no system with a tour has ${Object.keys(constants).join(', ')} (${TOUR_NAMES.join(', ')}: give --system NAME to see its constants)`);
}
