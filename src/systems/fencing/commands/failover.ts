import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../../core/args.js';
import { statusExitCode } from '../../../core/exit-codes.js';
import { ProgressConsole } from '../../../core/progress.js';
import { renderTable } from '../../../core/table.js';
import { stageReport } from '../../../core/stage-report.js';
import { startTopology, isProviderChoice, type ProviderChoice } from '../../../valkey/start.js';
import { NotOwnedError, ValkeyUnavailableError } from '../../../valkey/index.js';
import { asInfrastructureFault } from '../../../valkey/fault.js';
import { loadFencingScripts } from '../scripts.js';
import { failoverDrill, type FailoverDrillResult } from '../failover/drill.js';
import { isFailoverVariant, FAILOVER_VARIANTS, variantPatch } from '../failover/variants.js';
import { drillTraces } from '../failover/tracecheck.js';
import { writeObserved } from '../../../seam/tracecheck/store.js';

export { FAILOVER_VARIANTS };

const HELP = `Usage: fencecheck failover [--variant V] [--wait-timeout-ms N] [--cut-ms N] [--provider P] [--json]

The lagging-replica failover drill (docs/replication.md) on a 3 primaries × 1 replica cluster the
harness starts: the fencing C scripts loop on 3 sessions per shard; one primary's replication link
is cut (a proxy it announces to its replica, then stopped), the primary is SIGKILLed by its PID after
--cut-ms and its replica takes over at once (CLUSTER FAILOVER TAKEOVER); another shard's replica
is moved to the new primary. Judged on the real replies and keyspace: a generation told "applied"
to two calls, an outcome the keyspace contradicts.

Options:
  --variant V          wait (the remedy: WAIT 1 after every call, unconfirmed → unknown; default),
                       none (the scripts as they ship, mutant R1's patch: red), wait0 (WAIT 0,
                       counts no replica: red)
  --wait-timeout-ms N  WAIT's timeout (default 100, 1..5000)
  --cut-ms N           how long the link is down before the kill (default 500, 0..5000)
  --provider P         auto|native|testcontainers|external (default: FENCECHECK_VALKEY_PROVIDER or
                       auto); the drill kills a node, so it needs nodes the harness started
  --json               print a fencecheck.stage/1 report (details: the drill's figures)

Exit codes: 0 no generation twice and every outcome consistent · 1 a check failed (the broken
variants) · 2 could not run (Valkey missing, not owned, an infrastructure fault, the cluster not
recovering from the takeover) · 64 usage`;

function figureRows(r: FailoverDrillResult): [string, string][] {
  return [
    ['victim → new primary', `${r.victim} → ${r.newPrimary}`],
    ['calls', String(r.calls)],
    ['applied / refused / unknown', `${r.outcomes.applied} / ${r.outcomes.refused} / ${r.outcomes.unknown}`],
    ['unknown: not confirmed by WAIT', String(r.unconfirmed)],
    ['acquires applied after the cut (victim)', String(r.appliedAfterCut)],
    ['generations issued', String(r.generations)],
    ['generations issued twice', String(r.duplicates)],
    ['released leases back', String(r.releasedLeasesBack)],
    ['acquires told a generation not above an earlier one', String(r.monotonicBreaks)],
    ['checks broken', r.broken.length ? r.broken.join(', ') : 'none'],
    ['acquires applied after the takeover (victim)', String(r.appliedAfterTakeover)],
    ['kill → every victim session answered (ms)', r.resumeMs === null ? '—' : String(r.resumeMs)],
    ['redundancy restored', r.redundancyRestored ? 'yes' : 'no'],
  ];
}

export const command: Command = {
  name: 'failover',
  summary: 'failover drill: a lagging replica takes over; with WAIT no generation is issued twice, without it some are',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values } = parseCommandArgs(argv, {
      variant: { type: 'string' },
      'wait-timeout-ms': { type: 'string' },
      'cut-ms': { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const variant = values.variant ?? 'wait';
    if (!isFailoverVariant(variant)) throw new UsageError(`unknown variant '${values.variant}' (variants: ${FAILOVER_VARIANTS.join(', ')})`);
    const timeoutMs = intOption(values, 'wait-timeout-ms', { min: 1, max: 5000, default: 100 });
    const cutMs = intOption(values, 'cut-ms', { min: 0, max: 5000, default: 500 });
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    const provider = values.provider as ProviderChoice | undefined;
    // The shipped remedy at this timeout; the variant's patch (none = mutant R1's) changes it.
    const confirm = { replicas: 1, timeoutMs };
    const patch = await variantPatch(variant);

    const progress = new ProgressConsole();
    const t0 = performance.now();
    const finish = (status: 'passed' | 'failed' | 'not-run', summary: string, r?: FailoverDrillResult, reason?: string) => {
      progress.close();
      // Every session's observed behaviour, for `fencecheck tracecheck` (the variant is the CLI's: recorded as the traces' mutant).
      const observed = r
        ? writeObserved(
            `failover-${variant}`,
            drillTraces(r.observed, { id: `drill ${variant} (${r.victim} killed)`, ...(variant !== 'wait' && { mutant: `variant ${variant}` }), replay: `fencecheck failover --variant ${variant}` }),
          )
        : null;
      const figures = r ? (({ observed: _o, ...rest }) => rest)(r) : undefined;
      const report = stageReport({
        stage: 'failover',
        status,
        ...(reason ? { reason } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        summary,
        ...(r
          ? {
              counts: { calls: r.calls, ...r.outcomes, unconfirmed: r.unconfirmed, duplicates: r.duplicates, releasedLeasesBack: r.releasedLeasesBack, monotonicBreaks: r.monotonicBreaks },
              details: { variant, waitTimeoutMs: timeoutMs, cutMs, ...figures, ...(observed !== null && { observed: [observed] }) },
            }
          : {}),
      });
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(`${r ? `${renderTable(['figure', 'value'], figureRows(r))}\n${[...r.findings, ...r.errors].map((f) => `  ${f}\n`).join('')}` : ''}${summary}\n`);
      return statusExitCode(status);
    };
    let topology;
    try {
      topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, provider ? { provider } : {});
      if (!topology.owned) throw new NotOwnedError('the replication drill', 'it cuts a replication link and kills a primary');
      progress.log(`[failover] ${variant}: drill on ${topology.nodes.length} nodes`);
      const r = await failoverDrill(topology, loadFencingScripts(), { community: `cli${Date.now()}`, confirm, ...(patch ? { patch } : {}), cutMs, log: (l) => progress.log(l) });
      if (!r) return finish('not-run', 'failover: no primary with a replica', undefined, 'no primary with a replica');
      // Sessions that never answered again: the cluster did not recover, a fault of the run (not a finding).
      if (r.resumeMs === null) return finish('not-run', `failover: not run: ${r.errors.join('; ')}`, r, r.errors.join('; '));
      const bad = r.broken.length > 0 || r.duplicates > 0 || r.errors.length > 0;
      const what = `${r.duplicates} generation(s) issued twice, ${r.findings.length} judge finding(s), ${r.errors.length} error(s); ${r.unconfirmed} call(s) unknown: not confirmed by WAIT`;
      return finish(bad ? 'failed' : 'passed', `failover (${variant}): ${bad ? 'FAILED' : 'passed'}: ${what}`, r);
    } catch (err) {
      const f = err instanceof ValkeyUnavailableError ? err.message : asInfrastructureFault(err)?.message;
      if (f === undefined) throw err;
      return finish('not-run', `failover: not run: ${f}`, undefined, f);
    } finally {
      await topology?.stop();
    }
  },
};
