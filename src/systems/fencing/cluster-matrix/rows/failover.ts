/**
 * Row "failover": failure drills on 3 primaries with one replica each. Each drill SIGKILLs a
 * primary (by its PID) while the fencing C scripts loop on sessions of every shard and a
 * subscription client holds topics of every shard; its replica takes over. Judged: no generation
 * issued twice, every reported outcome (applied / refused / unknown) consistent with the keyspace,
 * the subscription client back on its own; measured: the dispatch halt window per drill.
 * Repeated drills kill the next primary that still has a replica, on fresh topologies as needed.
 */
import { startTopology, type Topology } from '../../../../valkey/index.js';
import { loadFencingScripts } from '../../scripts.js';
import { failoverDrill, type DrillResult } from '../drills/failover.js';
import { percentile } from '../stats.js';
import { verdictOf, type MatrixRow } from '../types.js';

export const FAILOVER_VARIANTS = ['no-resend', 'resend', 'no-resubscribe'] as const;
export type FailoverVariant = (typeof FAILOVER_VARIANTS)[number];

/** Drills per topology: each kills a primary whose replica then has none of its own. */
const DRILLS_PER_TOPOLOGY = 3;

export const failoverRow: MatrixRow<FailoverVariant> = {
  name: 'failover',
  surface: 'Failure drills (primary kill -9, both clients)',
  topology: { kind: 'cluster', shards: 3, replicasPerShard: 1 },
  variants: FAILOVER_VARIANTS,
  async run(ctx, variant) {
    const scripts = loadFencingScripts();
    const drills: DrillResult[] = [];
    const extra: Topology[] = [];
    try {
      for (let d = 0; d < ctx.repeat; d++) {
        let topology = ctx.topology;
        const k = Math.floor(d / DRILLS_PER_TOPOLOGY);
        if (k > 0) {
          if (!extra[k - 1]) extra[k - 1] = await startTopology(failoverRow.topology, { provider: ctx.topology.provider });
          topology = extra[k - 1]!;
        }
        const r = await failoverDrill(topology, scripts, 0, { resend: variant === 'resend', resubscribe: variant !== 'no-resubscribe', community: `drill${d}-${Date.now().toString(36)}` });
        if (!r) throw new Error('no primary with a replica left to kill');
        drills.push(r);
        ctx.progress?.(d + 1, ctx.repeat, 'drills');
        ctx.log(`[cluster-matrix] failover drill ${d + 1}/${ctx.repeat}: killed ${r.victim}, halt ${r.haltMs ?? '—'} ms, failover ${r.failoverMs} ms`);
      }
    } finally {
      await Promise.all(extra.map((t) => t.stop()));
    }
    const halts = drills.map((r) => r.haltMs).filter((h): h is number => h !== null);
    const subs = drills.map((r) => r.subscriptionRecoveryMs).filter((h): h is number => h !== null);
    const sum = (f: (r: DrillResult) => number) => drills.reduce((a, r) => a + f(r), 0);
    const figures = {
      drills: drills.length,
      'halt window ms p50 / p95 / max': `${percentile(halts, 50)}/${percentile(halts, 95)}/${Math.max(...halts)}`,
      'failover (new owner named) ms p50': percentile(
        drills.map((r) => r.failoverMs),
        50,
      ),
      'other shards max gap ms': Math.max(...drills.map((r) => r.otherShardsMaxGapMs)),
      'subscription back ms p50 / max': subs.length ? `${percentile(subs, 50)}/${Math.max(...subs)}` : '—',
      'calls (applied / refused / unknown)': `${sum((r) => r.calls)} (${sum((r) => r.outcomes.applied)}/${sum((r) => r.outcomes.refused)}/${sum((r) => r.outcomes.unknown)})`,
      'generations issued': sum((r) => r.generations),
      'replies lost before the kill': sum((r) => r.unknownBeforeKill),
      'messages lost': sum((r) => r.lostMessages),
    };
    return {
      errors: verdictOf(drills.flatMap((r) => r.errors)),
      silentlyWrong: verdictOf(drills.flatMap((r) => r.findings)),
      figures,
      notes: drills.map((r) => `killed ${r.victim}: halt ${r.haltMs ?? '—'} ms, other shards' longest gap ${r.otherShardsMaxGapMs} ms, subscriptions back ${r.subscriptionRecoveryMs ?? '—'} ms`),
    };
  },
};
