import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { stageReport } from '../../../core/stage-report.js';
import { detailsSection } from '../../../core/details-blocks.js';
import { formatCoverage } from '../tour/coverage.js';
import { ValkeyUnavailableError } from '../../../valkey/index.js';
import { NotOwnedError } from '../../../valkey/errors.js';
import { isProviderChoice } from '../../../valkey/start.js';
import { asInfrastructureFault, describeFault } from '../../../valkey/fault.js';
import { INVARIANT_NAMES, type InvariantName } from '../invariants.js';
import type { ImplPatch } from '../patch.js';
import { loadManifest, ManifestError, mutantsFor } from '../../../core/manifest.js';
import { loadPatch } from '../impl-runner.js';
import { invariantAlone } from '../../../../properties/fencing/checks.js';
import { ProgressConsole, type ProgressMeter } from '../../../core/progress.js';
import { shardOption, type Shard } from '../../../seam/tour/shard.js';
import { DEFAULT_DOOR_RUNS, DEFAULT_MAX_COMMANDS, DEFAULT_RUNS, runFencingSuite, suiteCoverage, suiteTotals, type SuiteTopology } from '../../../../properties/fencing/suite.js';

const HELP = `Usage: fencecheck props [--runs N] [--door-runs N] [--max-commands N] [--topology standalone|door|both] [--provider P]
                       [--seed N] [--path P] [--mutant Mx] [--invariant NAME] [--shard I/N] [--json]

Model-based runs of the fencing scripts on real Valkey: fast-check generates pod, rollout, pipeline
and operator commands (refused attempts included); each runs the real script of the pod's version or
asks the deployment gate; the XState model predicts every step. After each step: the invariants on
the real keyspace (T1 Inv_SingleAuthority, T2 Inv_Monotonic, T3 Inv_SlotRulesSafe, ...), T3 on the wire
(no CROSSSLOT, no old key after the door), keyspace == model, and the read-side rules.

Options:
  --runs N           runs on standalone (or on the door topology alone) (default ${DEFAULT_RUNS})
  --door-runs N      runs that may cross the door onto the cluster, with --topology both (default ${DEFAULT_DOOR_RUNS},
                     or --runs when that is smaller)
  --max-commands N   commands per run at most (default ${DEFAULT_MAX_COMMANDS})
  --topology T       standalone, door (also called cluster, as in verify and limiter), or both (default both)
  --provider P       auto, native, testcontainers or external (default: FENCECHECK_VALKEY_PROVIDER, else auto)
  --seed N           fast-check seed (printed on every failure)
  --path P           replay one counterexample (with the --seed and --topology it was printed with)
  --mutant Mx        run against the impl patch of a mutant (to replay a mutant's counterexample)
  --invariant NAME   check this invariant alone with TypeOK (as the mutant runner does)
  --shard I/N        part I of N of the runs: its share of --runs and --door-runs, seed moved by I
                     (the N parts' --json reports merge: fencecheck merge)
  --json             print a StageReport (fencecheck.stage/1)

Exit codes: 0 every run held · 1 a check failed on a healthy system (seed, path and trace printed) ·
2 could not run (no Valkey, or a fault: connection lost, server gone, timeout, NOPERM — never a
counterexample) · 3 bad input (unknown mutant) · 64 usage`;

/** Upper bounds of the run counts: far above any useful run, low enough to refuse a typo like 1000000000. */
const MAX_RUNS = 1_000_000;

async function mutantPatch(id: string): Promise<ImplPatch | string> {
  let manifest;
  try {
    manifest = loadManifest();
  } catch (err) {
    if (err instanceof ManifestError) return err.message;
    throw err;
  }
  const entry = mutantsFor(manifest, 'impl', 'fencing').find((m) => m.id === id);
  if (!entry) return `no impl mutant ${id} in mutants/manifest.json`;
  try {
    return await loadPatch(entry);
  } catch (err) {
    return (err as Error).message;
  }
}

export const command: Command = {
  name: 'props',
  summary: 'model-based runs of the fencing scripts and gate on real Valkey (T1/T2/T3)',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      runs: { type: 'string' },
      'door-runs': { type: 'string' },
      'max-commands': { type: 'string' },
      topology: { type: 'string', default: 'both' },
      provider: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      mutant: { type: 'string' },
      invariant: { type: 'string' },
      shard: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const shard: Shard = shardOption(values.shard);
    if (values.shard !== undefined) {
      if (values.path !== undefined) throw new UsageError('--shard splits the runs: a --path replay is one run');
    }
    // `cluster` is verify's and the limiter's name for the door runs' topology.
    const topology = (values.topology === 'cluster' ? 'door' : values.topology) as SuiteTopology;
    if (!['standalone', 'door', 'both'].includes(topology)) throw new UsageError('--topology is standalone, door (cluster) or both');
    if (values.provider !== undefined) {
      if (!isProviderChoice(values.provider)) throw new UsageError(`--provider is auto, native, testcontainers or external, got '${values.provider}'`);
      process.env.FENCECHECK_VALKEY_PROVIDER = values.provider;
    }
    const runs = intOption(values, 'runs', { min: 1, max: MAX_RUNS, default: DEFAULT_RUNS });
    const doorRuns = intOption(values, 'door-runs', { min: 0, max: MAX_RUNS, default: Math.min(DEFAULT_DOOR_RUNS, runs) });
    const maxCommands = intOption(values, 'max-commands', { min: 1, max: 100_000, default: DEFAULT_MAX_COMMANDS });
    const seed = intOption(values, 'seed', SEED_RANGE);
    if (values.path !== undefined && (topology === 'both' || seed === undefined)) throw new UsageError('--path needs --seed and --topology standalone|door');
    if (values.invariant !== undefined && !(INVARIANT_NAMES as readonly string[]).includes(values.invariant)) {
      throw new UsageError(`--invariant is one of ${INVARIANT_NAMES.join(', ')}`);
    }
    let patch: ImplPatch | undefined;
    if (values.mutant !== undefined) {
      const p = await mutantPatch(values.mutant);
      if (typeof p === 'string') {
        process.stderr.write(`fencecheck props: ${p}\n`);
        return ExitCode.BadInput;
      }
      patch = p;
    }
    const startedAt = new Date().toISOString();
    const progress = new ProgressConsole();
    const log = (l: string) => progress.log(l);
    const meters = new Map<string, ProgressMeter>();
    const onRun = (topo: string, runs: number, total: number, commands: number) => {
      let m = meters.get(topo);
      if (!m) meters.set(topo, (m = progress.meter(`props [${topo}]`, total, 'runs')));
      m.update(runs, `${commands.toLocaleString('en-US')} commands, every check held so far`);
      if (runs >= total) m.done();
    };
    const emit = (report: ReturnType<typeof stageReport>) => {
      progress.close();
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(`props: ${report.status}: ${report.summary}${report.reason ? ` (${report.reason})` : ''}\n`);
    };
    try {
      const suite = await runFencingSuite({
        topology,
        runs,
        doorRuns,
        maxCommands,
        ...(seed !== undefined ? { seed } : {}),
        ...(values.path !== undefined ? { path: values.path } : {}),
        ...(patch ? { patch } : {}),
        ...(values.mutant ? { traceLabel: values.mutant } : {}),
        ...(shard.count > 1 ? { shard } : {}),
        // Every run's observed behaviour, for `fencecheck tracecheck` (verify's tracecheck stage reads it).
        record: {},
        ...(values.invariant ? { checks: invariantAlone(values.invariant as InvariantName) } : {}),
        log,
        progress: log,
        onRun,
      });
      const t = suiteTotals(suite);
      const phases = suite.phases.map((p) => `${p.result.runs} ${p.topology} runs (seed ${p.result.seed})`).join(', ');
      // What share of the model these sampled runs visited (the conformance tour covers all of it).
      const cov = suiteCoverage(suite);
      const counts = {
        runs: t.runs,
        commands: t.commands,
        doorCrossings: t.doorCrossings,
        reshards: t.reshards,
        askRedirects: t.askRedirects,
        modelStatesVisited: cov.all.states,
        modelStates: cov.all.modelStates,
        modelTransitionsVisited: cov.all.transitions,
        modelTransitions: cov.all.modelTransitions,
      };
      const coverage = { perTopology: cov.perTopology, all: cov.all };
      const observed = suite.phases.flatMap((p) => (p.result.observedPath ? [p.result.observedPath] : []));
      // The verify reports show the stage's counts and details as its section.
      const shown = <D extends object>(details: D) => ({
        ...details,
        ...(shard.count > 1 ? { shard } : {}),
        sections: [detailsSection({ id: 'stage-props', title: 'Stage: props', counts, details })],
      });
      progress.close();
      if (!values.json) {
        for (const [topo, c] of Object.entries(cov.perTopology)) process.stdout.write(`props: model coverage, ${topo} runs: ${formatCoverage(c)}\n`);
        if (Object.keys(cov.perTopology).length > 1) process.stdout.write(`props: model coverage, all runs: ${formatCoverage(cov.all)}\n`);
      }
      const f = suite.failed?.result.failure;
      if (suite.notRun) {
        const reason = `${suite.notRun.topology}: ${describeFault(suite.notRun.fault)}`;
        emit(
          stageReport({
            stage: 'props',
            status: 'not-run',
            reason,
            startedAt,
            durationMs: t.durationMs,
            counts,
            summary: `could not run: an infrastructure fault stopped the ${suite.notRun.topology} runs after ${t.runs} completed run(s); no counterexample`,
            details: shown({ topology: suite.notRun.topology, fault: suite.notRun.fault }),
          }),
        );
        return ExitCode.NotRun;
      }
      if (suite.passed) {
        emit(
          stageReport({
            stage: 'props',
            status: 'passed',
            startedAt,
            durationMs: t.durationMs,
            counts,
            summary: `${phases}: ${t.commands} commands, ${t.doorCrossings} door crossings, ${t.reshards} live reshards (${t.askRedirects} ASK redirects met); every check held; visited ${formatCoverage(cov.all)} of the model`,
            details: shown({ coverage, gain: Object.fromEntries(suite.phases.map((p) => [p.topology, p.result.gain])), observed }),
          }),
        );
        return ExitCode.Ok;
      }
      const failed = suite.failed!;
      const summary = f
        ? `${f.check} at step ${f.step + 1} on ${failed.topology} (seed ${f.seed}, path ${f.path}): ${f.message}`
        : `a run threw on ${failed.topology}: ${failed.result.error ?? 'unknown error'}`;
      if (f && !values.json)
        process.stderr.write(`  (replay with --topology ${failed.topology}${values.mutant ? ` --mutant ${values.mutant}` : ''}${values.invariant ? ` --invariant ${values.invariant}` : ''})\n`);
      emit(
        stageReport({
          stage: 'props',
          status: 'failed',
          startedAt,
          durationMs: t.durationMs,
          counts,
          summary,
          ...(f?.tracePath ? { traces: [f.tracePath] } : {}),
          details: shown(
            f
              ? {
                  topology: failed.topology,
                  seed: f.seed,
                  path: f.path,
                  check: f.check,
                  step: f.step,
                  brokenAtEnd: f.brokenAtEnd,
                  commands: f.intents,
                  coverage,
                  replay: `fencecheck props --topology ${failed.topology} --seed=${f.seed} --path=${f.path}${values.mutant ? ` --mutant ${values.mutant}` : ''}${values.invariant ? ` --invariant ${values.invariant}` : ''}`,
                  observed,
                }
              : { topology: failed.topology, error: failed.result.error, coverage, observed },
          ),
        }),
      );
      return ExitCode.Failed;
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) {
        emit(
          stageReport({
            stage: 'props',
            status: 'not-run',
            reason: err.message,
            startedAt,
            durationMs: 0,
            summary: err instanceof NotOwnedError ? 'not run: needs an owned topology' : 'no Valkey to run the scripts on',
          }),
        );
        return ExitCode.NotRun;
      }
      const fault = asInfrastructureFault(err);
      if (fault) {
        emit(
          stageReport({
            stage: 'props',
            status: 'not-run',
            reason: fault.message,
            startedAt,
            durationMs: 0,
            summary: 'could not run: an infrastructure fault; no counterexample',
            details: { fault: fault.fault },
          }),
        );
        return ExitCode.NotRun;
      }
      throw err;
    }
  },
};
