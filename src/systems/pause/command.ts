import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { ExitCode, statusExitCode } from '../../core/exit-codes.js';
import { ProgressConsole } from '../../core/progress.js';
import { renderTable } from '../../core/table.js';
import { stageReport } from '../../core/stage-report.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTopology, ValkeyUnavailableError, type TopologySpec } from '../../valkey/index.js';
import { isProviderChoice, type ProviderChoice } from '../../valkey/start.js';
import { asInfrastructureFault } from '../../valkey/fault.js';
import { loadPausePatch, type PausePatch } from './patch.js';
import { judgePausePatchOnTour, pausePatchVerdict } from './patch-judged.js';
import { writeObserved } from '../../seam/tracecheck/store.js';
import { walkTraces } from './drive/traces.js';
import { DRIVE_DEFAULTS, FAULT_KINDS, openDriveWorld, REAL_INVARIANTS, replayCommand, runPauseDrive, type DriveResult, type DriveWorld } from './drive/index.js';

type TopologyName = 'standalone' | 'cluster';
const SPECS: Readonly<Record<TopologyName, TopologySpec>> = { standalone: { kind: 'standalone' }, cluster: { kind: 'cluster', shards: 3 } };

const HELP = `Usage: fencecheck pause [--walks N] [--steps N] [--seed S] [--topology standalone|cluster]
                       [--walk I] [--patch FILE] [--provider P] [--json]

The pause snapshot's model-driven run (docs/pause.md): seeded random walks of the
XState twin (models/pause/, 2 replicas, 2 SetPaused calls), each model event done for real on a
Valkey the harness starts — SetPaused commits or really fails (EXEC aborts, or its connection is killed on a paused node), events are really
received and then delivered in any order, delayed or dropped, reconciliation reads Valkey, a Tick is
real time past the age bound, each replica's start phases are released one by one. After every step
the spec's invariants are checked on the real system (the replicas' answers, Valkey's keys, the
messages really received, PUBSUB NUMSUB) and the real system is compared with the twin's prediction.

Options:
  --walks N      walks (default ${DRIVE_DEFAULTS.walks}, 1..10000)
  --steps N      model events per walk at most (default ${DRIVE_DEFAULTS.steps}, 1..1000)
  --seed S       walk i of seed S is always the same walk (default ${DRIVE_DEFAULTS.seed})
  --topology T   standalone or cluster (3 shards) (default standalone)
  --walk I       run walk I only (a failure's replay command gives it)
  --patch FILE   run an impl patch instead of the real code (mutants/pause/impl/Pn.ts); after its
                 walks hold, the patch is judged on the tour at MaxCalls=1 as conform --patch
                 judges it (killed by the named check, equivalent, or survived)
  --provider P   auto|native|testcontainers|external (default: FENCECHECK_VALKEY_PROVIDER or auto);
                 the run creates an ACL user, so it needs nodes the harness started
  --json         print a fencecheck.stage/1 report

Exit codes: 0 every invariant held and the real system did what the twin predicted (a patch:
equivalent or survived, said) · 1 an invariant broke or a conformance failure (seed, walk and
replay command printed; a patch: killed on the tour, the check named) · 2 could not run
(Valkey missing, not owned, a fault) · 3 bad --patch module · 64 usage`;

function invariantRows(r: DriveResult): string[][] {
  const rows = REAL_INVARIANTS.map((name) => {
    const hit = r.violation?.invariants.filter((v) => v.invariant === name) ?? [];
    return [name, hit.length > 0 ? `BROKEN (walk ${r.violation!.walk}, step ${r.violation!.step})` : r.violation ? 'held until the stop' : 'held', hit.map((v) => v.message).join('; ')];
  });
  rows.push([
    'conformance',
    r.conformance ? `FAILED (walk ${r.conformance.walk}, step ${r.conformance.step})` : 'as predicted',
    r.conformance?.message ?? (r.timeSkipped > 0 ? `${r.timeSkipped} time-dependent answer(s) not compared` : ''),
  ]);
  return rows;
}

export const command: Command = {
  name: 'pause',
  summary: "pause snapshot: twin-driven walks on real Valkey with real faults, the spec's invariants checked on the real system",
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values } = parseCommandArgs(argv, {
      walks: { type: 'string' },
      steps: { type: 'string' },
      seed: { type: 'string' },
      topology: { type: 'string', default: 'standalone' },
      walk: { type: 'string' },
      patch: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const walks = intOption(values, 'walks', { min: 1, max: 10_000, default: DRIVE_DEFAULTS.walks });
    const steps = intOption(values, 'steps', { min: 1, max: 1000, default: DRIVE_DEFAULTS.steps });
    const seed = intOption(values, 'seed', { ...SEED_RANGE, default: DRIVE_DEFAULTS.seed });
    const walk = intOption(values, 'walk', { min: 0, max: 10_000 });
    const topo = values.topology;
    if (topo !== 'standalone' && topo !== 'cluster') throw new UsageError(`--topology is standalone or cluster, got '${topo}'`);
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    const provider = values.provider as ProviderChoice | undefined;
    let patch: PausePatch | undefined;
    if (values.patch !== undefined) {
      try {
        if (!existsSync(resolve(values.patch))) throw new Error('no such file');
        patch = await loadPausePatch(values.patch, process.cwd());
      } catch (err) {
        process.stderr.write(`fencecheck pause: bad --patch ${values.patch}: ${(err as Error).message.split('\n')[0]}\n`);
        return ExitCode.BadInput;
      }
    }

    const progress = new ProgressConsole();
    const t0 = performance.now();
    const finish = (status: 'passed' | 'failed' | 'not-run', summary: string, r?: DriveResult, reason?: string) => {
      progress.close();
      // Every walk's observed behaviour, for `fencecheck tracecheck` (verify's tracecheck stage reads it).
      const observed = r ? writeObserved(`pause-${topo}`, walkTraces(r.walks, { topology: topo, seed, steps, ...(values.patch ? { patch: values.patch, mutant: values.patch } : {}) })) : null;
      const report = stageReport({
        stage: 'pause',
        status,
        ...(reason ? { reason } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        summary,
        ...(r
          ? {
              counts: { walks: r.walks.length, steps: r.stepsRun, statesCovered: r.coverage?.states ?? 0, transitionsCovered: r.coverage?.transitions ?? 0 },
              details: {
                topology: topo,
                seed,
                steps,
                ...(values.patch ? { patch: values.patch } : {}),
                ...(observed !== null && { observed: [observed] }),
                violation: r.violation,
                conformance: r.conformance,
                coverage: r.coverage,
                faultWalks: r.faultWalks,
                timeSkipped: r.timeSkipped,
                walks: r.walks.map((w) => ({ index: w.index, labels: w.labels, faults: w.faults, durationMs: Math.round(w.durationMs) })),
              },
            }
          : {}),
      });
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else if (r) {
        const c = r.coverage!;
        const figures: [string, string][] = [
          ['walks / steps', `${r.walks.length} / ${r.stepsRun} (seed ${seed}, ≤ ${steps} steps a walk)`],
          ['twin states covered', `${c.states.toLocaleString('en')} of ${c.totalStates.toLocaleString('en')} (${c.statesPct} %)`],
          ['labelled transitions covered', `${c.transitions.toLocaleString('en')} of ${c.totalTransitions.toLocaleString('en')} (${c.transitionsPct} %)`],
          ['walks with each fault', FAULT_KINDS.map((k) => `${k} ${r.faultWalks[k]}`).join(', ')],
          ['time', `${(r.durationMs / 1000).toFixed(1)} s on ${topo} (${Math.round(r.durationMs / Math.max(1, r.walks.length))} ms a walk)`],
        ];
        const failed = r.violation ?? r.conformance;
        const walkText = failed
          ? `\n  walk ${failed.walk} (seed ${seed}): ${failed.labels.join(' · ')}\n  replay: ${replayCommand({ topology: topo, seed, steps, walk: failed.walk, ...(values.patch ? { patch: values.patch } : {}) })}`
          : '';
        process.stdout.write(`${renderTable(['invariant', 'verdict', 'what the real system did'], invariantRows(r))}\n${renderTable(['figure', 'value'], figures)}${walkText}\n${summary}\n`);
      } else process.stdout.write(`${summary}\n`);
      return statusExitCode(status);
    };

    let topology;
    let world: DriveWorld | undefined;
    try {
      topology = await startTopology(SPECS[topo], provider ? { provider } : {});
      world = await openDriveWorld(topology);
      const total = walk === undefined ? walks : 1;
      const meter = progress.meter(`pause [${topo}]`, total, 'walks');
      const r = await runPauseDrive(world, { walks, steps, seed, coverage: true, ...(walk !== undefined ? { walk } : {}), ...(patch ? { patch } : {}), onWalk: (_w, done) => meter.update(done) });
      meter.done();
      const bad = r.violation !== null || r.conformance !== null;
      const what = r.violation
        ? `${[...new Set(r.violation.invariants.map((v) => v.invariant))].join(', ')} broken at walk ${r.violation.walk}, step ${r.violation.step}`
        : r.conformance
          ? `conformance failure at walk ${r.conformance.walk}, step ${r.conformance.step}`
          : `${r.walks.length} walks, ${r.stepsRun} steps: every invariant held, the real system did what the twin predicted`;
      const head = `pause (${topo}${values.patch ? `, ${values.patch}` : ''})`;
      // A user's patch whose walks held is judged on the tour as well: a sample that holds is no verdict.
      if (values.patch !== undefined && walk === undefined && !bad) {
        const tourMeter = progress.meter('pause patch tour', 1, 'attempts');
        const v = pausePatchVerdict(await judgePausePatchOnTour(values.patch, (attempts, total, states) => tourMeter.update(attempts, `${states} states reached`, total)));
        tourMeter.done();
        if (v.status === 'bad-input') {
          progress.close();
          process.stderr.write(`fencecheck pause: bad --patch ${values.patch}: ${v.line}\n`);
          return ExitCode.BadInput;
        }
        return finish(v.status, `${head}: ${v.status === 'passed' ? 'passed' : v.status === 'failed' ? 'FAILED' : 'not run'}: the walks: ${what}; the ${v.line}`, r);
      }
      return finish(bad ? 'failed' : 'passed', `${head}: ${bad ? 'FAILED' : 'passed'}: ${what}`, r);
    } catch (err) {
      const f = err instanceof ValkeyUnavailableError ? err.message : asInfrastructureFault(err)?.message;
      if (f === undefined) throw err;
      return finish('not-run', `pause: not run: ${f}`, undefined, f);
    } finally {
      await world?.close().catch(() => {});
      await topology?.stop();
    }
  },
};
