import type { BenchSection } from '../section.js';
import { startTopology } from '../../src/valkey/index.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { measureCost, type CostFigures } from '../../src/systems/fencing/failover/cost.js';
import { failoverDrill, type FailoverDrillResult } from '../../src/systems/fencing/failover/drill.js';

/**
 * The failover remedy's cost (acquire latency and throughput with and without WAIT, one topology,
 * one run) and the drill's figures: link cut, kill, takeover — without the remedy, with it, and
 * with the broken WAIT 0. FENCECHECK_BENCH_REPLICATION_MS sets each cost run's length (default 5000).
 */
export const section: BenchSection = {
  name: 'failover',
  title: 'Replication remedy: acquire latency/throughput with and without WAIT; the lagging-replica failover drill',
  async run(print) {
    const durationMs = Number(process.env.FENCECHECK_BENCH_REPLICATION_MS ?? 5000);
    const scripts = loadFencingScripts();
    const topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
    try {
      const cost = (f: CostFigures) =>
        `${f.remedy.padEnd(14)} acquire p50 ${f.acquireP50Ms} ms, p99 ${f.acquireP99Ms} ms; ${f.acquiresPerSec} acquires/s, ${f.callsPerSec} calls/s (${f.acquires} acquires in ${f.durationMs} ms, ${f.unknown} unknown)`;
      print(cost(await measureCost(topology, scripts, { community: 'bnone', confirm: null, durationMs })));
      print(cost(await measureCost(topology, scripts, { community: 'bwait', confirm: { replicas: 1, timeoutMs: 100 }, durationMs })));
      const drill = (name: string, r: FailoverDrillResult | null) =>
        r
          ? `drill ${name.padEnd(8)} ${r.calls} calls: ${r.outcomes.applied} applied, ${r.outcomes.refused} refused, ${r.outcomes.unknown} unknown (${r.unconfirmed} unconfirmed by WAIT); ` +
            `${r.appliedAfterCut} acquires applied after the cut, ${r.duplicates} generations issued twice, ${r.releasedLeasesBack} released leases back, ${r.findings.length} judge findings; ` +
            `${r.appliedAfterTakeover} applied after the takeover, resumed after ${r.resumeMs ?? '—'} ms`
          : `drill ${name}: no primary with a replica left`;
      print(drill('none', await failoverDrill(topology, scripts, { community: 'dnone', confirm: null })));
      print(drill('WAIT 1', await failoverDrill(topology, scripts, { community: 'dwait', confirm: { replicas: 1, timeoutMs: 100 } })));
      print(drill('WAIT 0', await failoverDrill(topology, scripts, { community: 'dwait0', confirm: { replicas: 0, timeoutMs: 100 } })));
    } finally {
      await topology.stop();
    }
  },
};
