import { importDefault } from '../../core/import-default.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import type { LimiterPatch } from './index.js';
import { startTopology, ValkeyUnavailableError, type TopologySpec } from '../../valkey/index.js';
import { isProviderChoice, type ProviderChoice } from '../../valkey/start.js';
import { replayHint, runLimiterProperty } from '../../../properties/limiter/property.js';
import { runInvariants, type InvariantOutcome } from '../../../properties/limiter/invariants.js';
import { addRowStats, emptyRowStats } from '../../../properties/limiter/harness.js';
import { CASE_TIME_BOUND_MS } from '../../../properties/limiter/arbitraries.js';
import { asInfrastructureFault, describeFault, type Fault } from '../../valkey/fault.js';
import { limiterReplay, limiterSection, limiterText, type TopologyRun } from './report.js';
import { ProgressConsole } from '../../core/progress.js';

/**
 * Cases per topology. Measured (`fencecheck limiter --runs 250 --seed 11 --json`): every row of the
 * transition table in at least 82 cases of the 500 (deny-first 116, deny-second 88, allow-both 228,
 * single-allow 214, single-deny 82, error 94, unknown 134); L1–L6 die within ~20. 1000 a topology
 * only repeated the same rows (docs/decisions.md, "Property runs").
 */
export const DEFAULT_LIMITER_RUNS = 250;

const HELP = `Usage: fencecheck limiter [--runs N] [--seed N] [--path P] [--topology standalone|cluster|both]
                         [--provider P] [--patch FILE] [--no-invariants] [--json]

Checks the ordered two-bucket limiter (src/systems/limiter/lua/ordered_limiter.lua) on real Valkey:
  1. the property: fast-check generates bucket specs, initial hashes and call sequences with time
     advances, host clock jumps and lost replies; every decision and every resulting
     hash is compared with the reference model (models/limiter);
  2. the seed's required invariant tests (properties/limiter/invariants.ts).
Then prints the transition table with, per row, how many generated cases exercised it.

Options:
  --runs N        generated cases per topology (default ${DEFAULT_LIMITER_RUNS})
  --seed N        fast-check seed (default: random; always printed)
  --path P        fast-check path: replay one counterexample (needs --seed and one --topology)
  --topology T    standalone, cluster (3 shards) or both (default both)
  --provider P    auto|native|testcontainers|external (default: FENCECHECK_VALKEY_PROVIDER or auto)
  --patch FILE    deploy a limiter patch module instead of the shipped limiter (replays a mutant's
                  counterexample: fencecheck limiter --patch mutants/limiter/impl/L2.ts --seed=S --path=P)
  --no-invariants run the property only
  --json          print a fencecheck.stage/1 report

Exit codes: 0 all held · 1 a property or invariant failed on a healthy system (seed and path
printed) · 2 could not run (Valkey could not be started, or a fault: connection lost, server gone,
timeout, NOPERM — never a counterexample) · 3 bad --patch module · 64 usage`;

const SPECS: Readonly<Record<'standalone' | 'cluster', TopologySpec>> = { standalone: { kind: 'standalone' }, cluster: { kind: 'cluster', shards: 3 } };

export const command: Command = {
  name: 'limiter',
  summary: 'ordered two-bucket limiter: model-based properties + required invariants on real Valkey',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values } = parseCommandArgs(argv, {
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      topology: { type: 'string', default: 'both' },
      provider: { type: 'string' },
      patch: { type: 'string' },
      'no-invariants': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const numRuns = intOption(values, 'runs', { min: 1, max: 1_000_000, default: DEFAULT_LIMITER_RUNS });
    const seed = intOption(values, 'seed', SEED_RANGE);
    const topo = values.topology;
    if (topo !== 'standalone' && topo !== 'cluster' && topo !== 'both') throw new UsageError(`--topology is standalone, cluster or both, got '${topo}'`);
    if (values.path !== undefined && (seed === undefined || topo === 'both')) throw new UsageError('--path replays one counterexample: give --seed and one --topology');
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    const provider = values.provider as ProviderChoice | undefined;

    let patch: LimiterPatch | undefined;
    if (values.patch !== undefined) {
      const file = resolve(values.patch);
      try {
        if (!existsSync(file)) throw new Error('no such file');
        patch = (await importDefault(file, process.cwd())) as LimiterPatch | undefined;
        if (typeof patch !== 'object' || patch === null) throw new Error('it has no default-exported LimiterPatch');
      } catch (err) {
        process.stderr.write(`fencecheck limiter: bad --patch ${values.patch}: ${(err as Error).message}\n`);
        return ExitCode.BadInput;
      }
    }

    const progress = new ProgressConsole();
    const log = (line: string) => progress.log(line);
    const runs: TopologyRun[] = [];
    const names: readonly ('standalone' | 'cluster')[] = topo === 'both' ? ['standalone', 'cluster'] : [topo];
    for (const name of names) {
      let topology;
      try {
        topology = await startTopology(SPECS[name], provider ? { provider } : {});
      } catch (err) {
        if (!(err instanceof ValkeyUnavailableError)) throw err;
        runs.push({ topology: name, status: 'not-run', reason: err.message });
        log(`[${name}] not run: ${err.message}`);
        continue;
      }
      // Faults are not verdicts: one met anywhere on this topology makes its whole run not-run.
      const faulted = (f: Fault) => {
        runs.push({ topology: name, status: 'not-run', reason: describeFault(f), fault: f });
        log(`[${name}] could not run: ${describeFault(f)}`);
      };
      try {
        log(`[${name}] property: ${numRuns} generated cases…`);
        const meter = progress.meter(`limiter [${name}]`, numRuns, 'cases');
        const property = await runLimiterProperty({
          topology,
          numRuns,
          ...(seed !== undefined ? { seed } : {}),
          ...(values.path !== undefined ? { path: values.path } : {}),
          ...(patch ? { patch } : {}),
          onCase: (n) => meter.update(n),
        });
        meter.done();
        if (property.fault) {
          faulted(property.fault);
          continue;
        }
        let invariants: InvariantOutcome[] | undefined;
        if (!values['no-invariants']) {
          log(`[${name}] invariant tests…`);
          invariants = await runInvariants(topology, undefined, patch);
          const f = invariants.find((i) => i.fault)?.fault;
          if (f) {
            faulted(f);
            continue;
          }
        }
        // Printed only now: a failure followed by a fault on the same topology is not a verdict.
        if (!property.passed)
          log(
            `[${name}] FAILED ${property.violated}: ${property.message}\n[${name}] replay: fencecheck limiter --topology ${name} ${replayHint(property)}${values.patch ? ` --patch ${values.patch}` : ''}`,
          );
        runs.push({ topology: name, status: 'ran', property, ...(invariants ? { invariants } : {}) });
      } catch (err) {
        const f = asInfrastructureFault(err);
        if (!f) throw err;
        faulted(f.fault);
      } finally {
        await topology.stop();
      }
    }

    const failed = runs.some((r) => r.property?.passed === false || r.invariants?.some((i) => i.status === 'failed'));
    const notRun = runs.filter((r) => r.status === 'not-run');
    const status = failed ? 'failed' : notRun.length > 0 ? 'not-run' : 'passed';
    const total = emptyRowStats();
    for (const r of runs) if (r.property) addRowStats(total, r.property.stats);
    const invAll = runs.flatMap((r) => r.invariants ?? []);
    const summary =
      `${total.cases} generated cases on ${
        runs
          .filter((r) => r.status === 'ran')
          .map((r) => r.topology)
          .join('+') || 'no topology'
      }` +
      `; property ${!runs.some((r) => r.property) ? 'not run' : runs.every((r) => r.property?.passed !== false) ? 'held' : 'FAILED'}` +
      (total.cases > 0 ? `; longest case ${total.maxCaseMs} ms real time (replay bound ${CASE_TIME_BOUND_MS} ms${total.slowCases > 0 ? `, ${total.slowCases} case(s) over it` : ''})` : '') +
      `; invariants ${invAll.filter((i) => i.status === 'passed').length} passed, ${invAll.filter((i) => i.status === 'failed').length} failed, ${invAll.filter((i) => i.status === 'not-run').length} not run` +
      (notRun.length > 0 ? `; not run on ${notRun.map((r) => r.topology).join(', ')}` : '');

    const replay = limiterReplay(runs, values.patch);
    if (values.json) {
      const counts: Record<string, number> = { cases: total.cases };
      for (const [row, n] of Object.entries(total.casesPerRow)) counts[`cases.${row}`] = n;
      for (const [row, n] of Object.entries(total.calls)) counts[`calls.${row}`] = n;
      counts['cases.over_time_bound'] = total.slowCases;
      counts['invariants.passed'] = invAll.filter((i) => i.status === 'passed').length;
      counts['invariants.failed'] = invAll.filter((i) => i.status === 'failed').length;
      progress.close();
      const report = stageReport({
        stage: 'limiter',
        status,
        ...(status === 'not-run' ? { reason: notRun.map((r) => `${r.topology}: ${r.reason}`).join('; ') } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
        counts,
        details: { runs, ...(replay ? { replay } : {}), sections: [limiterSection(runs)] },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      progress.close();
      process.stdout.write(`${limiterText(runs, summary, values.patch)}\n`);
    }
    return failed ? ExitCode.Failed : status === 'not-run' ? ExitCode.NotRun : ExitCode.Ok;
  },
};
