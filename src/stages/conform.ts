/**
 * The conform stage: each system's exhaustive conformance tour of its real code (every model
 * transition and refused attempt executed, the real state read back and judged), at verify's gate
 * bound or the constants given; one report for all the systems toured. `fencecheck conform` runs
 * this (its `--patch` judging is the command's own: src/cli/commands/conform-patch.ts).
 */
import { UsageError } from '../core/args.js';
import { ManifestError, mutantsFor, type MutantEntry } from '../core/manifest.js';
import { ProgressConsole } from '../core/progress.js';
import { StageInputError, type StageIO } from '../core/stage.js';
import type { StageReport } from '../core/stage-report.js';
import { boundsLabel } from '../seam/system.js';
import { shardLabel, WHOLE, type Shard } from '../seam/tour/shard.js';
import { TourSetupError, TourUnavailableError, type SystemTour } from '../seam/tour/entry.js';
import { loadSystemManifest, systemEntry, SYSTEMS, TOUR_NAMES, type AnySystem } from '../registry/systems.js';
import { selectModels, selectSystemNames } from '../registry/select.js';

export interface ConformInput {
  /** `--system` values (default: every system with a tour; with constants, those whose spec has them). */
  readonly systems?: readonly string[];
  /** TLA+ constants, parsed. */
  readonly constants: Readonly<Record<string, string>>;
  /** verify's bound: a tour's gate constants where it declares them. */
  readonly gate: boolean;
  /** An impl mutant of a system with a tour: its expected invariant alone, on its patched code. */
  readonly mutant?: string;
  /** One invariant alone instead of full conformance. */
  readonly invariant?: string;
  readonly shard?: Shard;
  readonly concurrency?: number;
  readonly provider?: string;
}

interface Planned {
  readonly name: string;
  readonly model: AnySystem;
  readonly tour: SystemTour;
}

export async function conformStage(input: ConformInput, io: StageIO): Promise<StageReport> {
  const constants = input.constants;
  const out = (line: string) => io.log(line);
  const startedAt = new Date();
  // A mutant names its system; otherwise --system (default: every system with a tour).
  let mutant: MutantEntry | undefined;
  if (input.mutant !== undefined) {
    try {
      const manifest = loadSystemManifest();
      mutant = mutantsFor(manifest, 'impl').find((m) => m.id === input.mutant && TOUR_NAMES.includes(m.system));
      if (!mutant) throw new ManifestError(`no impl-layer mutant ${input.mutant} of a system with a tour in mutants/manifest.json`);
    } catch (err) {
      throw new StageInputError((err as Error).message);
    }
    if (input.systems !== undefined && (input.systems.length !== 1 || input.systems[0] !== mutant.system))
      throw new UsageError(`--mutant ${mutant.id} is a ${mutant.system} mutant: give no --system, or --system ${mutant.system}`);
  }
  // --const without --system: the systems with a tour whose spec has those constants.
  const names = mutant ? [mutant.system] : input.systems === undefined && Object.keys(constants).length > 0 ? await toursTaking(constants) : selectSystemNames(input.systems, { fallback: TOUR_NAMES });
  for (const n of names) if (!TOUR_NAMES.includes(n)) throw new UsageError(`--system: ${n} has no tour (systems with one: ${TOUR_NAMES.join(', ')})`);
  const tours = await Promise.all(names.map(async (name) => systemEntry(name)!.tour!()));
  const planned: Planned[] = await Promise.all(
    names.map(async (name, i) => {
      // --gate: verify's bound for a system whose whole graph takes minutes (its tour says which);
      // no --const: the tour's default bound where the spec's base config is beyond what it maps.
      const tour = tours[i]!;
      const own = Object.keys(constants).length > 0 ? constants : input.gate ? (tour.gateConstants ?? tour.defaultConstants ?? {}) : (tour.defaultConstants ?? {});
      const [model] = await selectModels([name], own);
      return { name, model: model!, tour: tours[i]! };
    }),
  );

  if (input.invariant !== undefined) {
    if (planned.length !== 1) throw new UsageError(`--invariant needs exactly one --system (got ${names.join(', ')})`);
    const known = planned[0]!.tour.invariants;
    if (!known.includes(input.invariant)) throw new UsageError(`--invariant: unknown invariant '${input.invariant}' of ${names[0]} (${known.join(', ')})`);
  }
  const shard: Shard = input.shard ?? WHOLE;
  if (shard.count > 1) {
    if (input.invariant !== undefined || mutant !== undefined)
      throw new UsageError('--shard applies to the full conformance tour, not to --invariant or --mutant (an invariant alone follows the real graph, which only the whole run knows)');
    if (planned.length !== 1) throw new UsageError(`--shard splits one system's tour: give one --system (got ${names.join(', ')})`);
  }

  const { coverageLines, actionTable, headline, pathLines } = await import('../seam/tour/report.js');
  const { combinedTourReport, tourNotRunReport, tourStageReport } = await import('../seam/tour/stage.js');
  const reports: { system: string; report: StageReport }[] = [];
  for (const p of planned) {
    const invariant = input.invariant ?? mutant?.expectedInvariant;
    const label = `${boundsLabel(p.model.bounds)}${mutant ? `, mutant ${mutant.id}` : ''}${shard.count > 1 ? `, shard ${shardLabel(shard)}` : ''}`;
    out(`conform: ${p.name}: ${p.tour.what}, ${label}${invariant ? `, ${invariant} alone` : ', full conformance'}`);
    const started = new Date();
    const progress = new ProgressConsole();
    const meter = progress.meter(`conform ${p.name}`, 1, 'attempts');
    let run;
    try {
      run = await p.tour.run({
        bounds: p.model.bounds,
        ...(mutant ? { mutant } : {}),
        ...(input.invariant !== undefined ? { invariant: input.invariant } : {}),
        ...(shard.count > 1 ? { shard } : {}),
        ...(input.concurrency ? { concurrency: input.concurrency } : {}),
        ...(input.provider !== undefined ? { provider: input.provider } : {}),
        onProgress: (attempts, total, states) => meter.update(attempts, `${states} states reached`, total),
      });
    } catch (err) {
      progress.close();
      if (err instanceof TourSetupError) throw new StageInputError(err.message);
      if (!(err instanceof TourUnavailableError)) throw err;
      (io.warn ?? io.log)(`fencecheck conform: ${p.name}: not run: ${err.message}`);
      reports.push({ system: p.name, report: tourNotRunReport({ stage: 'conform', reason: err.message, startedAt: started, shard, system: p.name }) });
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
  return reports.length === 1 ? reports[0]!.report : combinedTourReport('conform', startedAt, reports);
}

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
