import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import { boundsFromArgs, boundsLabel } from '../../systems/fencing/model/bounds.js';
import { INVARIANT_NAMES, type InvariantName } from '../../systems/fencing/invariants.js';
import { isProviderChoice } from '../../valkey/start.js';
import { ValkeyUnavailableError } from '../../valkey/errors.js';
import { loadManifest, ManifestError, mutantsFor } from '../../core/manifest.js';
import { ProgressConsole } from '../../core/progress.js';
import { conformFigures, conformNotRunDetails, conformReportDetails } from '../../systems/fencing/conform-report.js';

const HELP = `Usage: fencecheck conform [--pods N] [--max-gen G] [--mutant ID] [--invariant NAME]
                         [--concurrency N] [--provider P] [--json]

The exhaustive conformance tour: the real Lua scripts, deployment gate and mode door, explored
breadth-first on real Valkey (mode disabled on a standalone node, compatible on a one-shard cluster,
enabled on a three-shard cluster). From Init, in every state reached and for every attempt in it —
every transition the model enables and every attempt it refuses (acquire while held, renew and
release by every pod with its own, a lost or another pod's generation, expiry of a free key, every
gate step) — the real system is put into exactly that state, the attempt runs, and the keyspace read
back is the successor. Checked on the real keyspace: the model's prediction of every step (decision
and successor), every invariant, the TTL rules, T3 on the wire, and in every state the read-side
rules of every version. No randomness: the same code gives the same verdict on every run.

Options:
  --pods N          number of pods (default 3)
  --max-gen G       MaxGen (default 4)
  --mutant ID       run against the impl patch of a mutant (mutants/manifest.json); checks its
                    expected invariant alone, following the real graph wherever it leads
  --invariant NAME  check this invariant alone (with TypeOK) instead of full conformance
  --concurrency N   attempts in flight at once (default 128)
  --provider P      auto, native, testcontainers or external (default FENCECHECK_VALKEY_PROVIDER or auto)
  --json            print a StageReport (fencecheck.stage/1)

Exit codes: 0 the real graph is the model's (or, with an invariant alone, it holds) · 1 a check
failed (path from Init printed, trace saved; 'fencecheck trace replay FILE' runs it) · 2 not run
(no Valkey) · 3 unknown mutant or a patch that cannot be applied · 64 usage`;

export const command: Command = {
  name: 'conform',
  summary: 'exhaustive conformance tour: every model transition and refused attempt on real Valkey',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      pods: { type: 'string' },
      'max-gen': { type: 'string' },
      mutant: { type: 'string' },
      invariant: { type: 'string' },
      concurrency: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const bounds = boundsFromArgs(values);
    const concurrency = intOption(values, 'concurrency', { min: 1, max: 4096 });
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`--provider: unknown provider '${values.provider}'`);
    let invariant = values.invariant as InvariantName | undefined;
    if (invariant !== undefined && !(INVARIANT_NAMES as readonly string[]).includes(invariant)) throw new UsageError(`--invariant: unknown invariant '${invariant}' (${INVARIANT_NAMES.join(', ')})`);
    const out = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
    const startedAt = new Date();

    let patch;
    if (values.mutant !== undefined) {
      try {
        const entry = mutantsFor(loadManifest(), 'impl', 'fencing').find((m) => m.id === values.mutant);
        if (!entry) throw new ManifestError(`no impl-layer mutant ${values.mutant} in mutants/manifest.json`);
        const { loadPatch } = await import('../../systems/fencing/impl-runner.js');
        patch = await loadPatch(entry);
        invariant ??= entry.expectedInvariant as InvariantName;
      } catch (err) {
        process.stderr.write(`fencecheck conform: ${(err as Error).message}\n`);
        return ExitCode.BadInput;
      }
    }

    const { runConform } = await import('../../systems/fencing/tour/run.js');
    const { coverageLines, actionTable, headline, pathLines } = await import('../../systems/fencing/tour/report.js');
    const label = `${boundsLabel(bounds)}${values.mutant ? `, mutant ${values.mutant}` : ''}`;
    out(`conform: real scripts, gate and door on real Valkey, ${label}${invariant ? `, ${invariant} alone` : ', full conformance'}`);
    let run;
    const progress = new ProgressConsole();
    const meter = progress.meter('conform', 1, 'attempts');
    try {
      run = await runConform({
        onProgress: (attempts, total, states) => meter.update(attempts, `${states} states reached`, total),
        bounds,
        ...(patch ? { patch } : {}),
        ...(invariant ? { invariant } : {}),
        ...(values.mutant ? { mutant: values.mutant } : {}),
        ...(concurrency ? { concurrency } : {}),
        ...(values.provider ? { start: { provider: values.provider as 'auto' } } : {}),
      });
    } catch (err) {
      progress.close();
      if (!(err instanceof ValkeyUnavailableError)) throw err;
      if (values.json) process.stdout.write(`${JSON.stringify(stageReport({ stage: 'conform', status: 'not-run', reason: err.message, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary: `conform not run: ${err.message}`, details: conformNotRunDetails(err.message) }), null, 2)}\n`);
      else process.stderr.write(`fencecheck conform: not run: ${err.message}\n`);
      return ExitCode.NotRun;
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
      for (const l of pathLines(r)) out(l);
      if (run.replay) out(`trace: ${run.tracePath}\nreplay: ${run.replay}`);
    } else out(headline(r));
    const passed = r.failure === null && (invariant !== undefined || r.equalToModel === true);
    if (values.json) {
      const { failure, ...rest } = r;
      const reason = passed ? undefined : r.failure ? `${r.failure.check}: ${r.failure.message}` : 'the real graph differs from the model';
      const summary = headline(r);
      // What the verify reports show: the Conformance section and the conform suite.
      const shown = conformReportDetails(conformFigures(r), { passed, summary, ...(reason !== undefined ? { reason } : {}), ...(run.tracePath ? { tracePath: run.tracePath } : {}), ...(run.replay ? { replay: run.replay } : {}) });
      process.stdout.write(
        `${JSON.stringify(
          stageReport({
            stage: 'conform',
            status: passed ? 'passed' : 'failed',
            ...(reason !== undefined ? { reason } : {}),
            startedAt: startedAt.toISOString(),
            durationMs: Date.now() - startedAt.getTime(),
            summary,
            counts: {
              states: r.covered.states,
              modelStates: r.model.states,
              transitions: r.covered.transitions,
              modelTransitions: r.model.transitions,
              refused: r.covered.refused,
              modelRefused: r.model.refused,
              attempts: r.attempts,
              realStates: r.states,
              tourMs: Math.round(r.durationMs),
            },
            ...(run.tracePath ? { traces: [run.tracePath] } : {}),
            details: { ...rest, ...(values.mutant ? { mutant: values.mutant } : {}), ...(failure ? { failure: { ...failure, path: failure.path.length } } : {}), ...(run.replay ? { replay: run.replay } : {}), ...shown },
          }),
          null,
          2,
        )}\n`,
      );
    }
    return passed ? ExitCode.Ok : ExitCode.Failed;
  },
};
