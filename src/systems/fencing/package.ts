/**
 * The fencing package (src/seam/package.ts): the session directory's scripts, gate and door, with two
 * models — the migration model (tla/fencing/, models/fencing/) and the failover model
 * (tla/fencing/failover/, models/fencing/failover/), which checks the same scripts across a primary
 * failover. Everything loads lazily.
 */
import type { SystemPackage } from '../../seam/package.js';
import type { AnySystem } from '../../seam/package.js';
import { FAILOVER_TRACE_VALIDATION } from './failover/tracecheck.js';
import { defineStage } from '../../core/stage.js';
import { commandStage } from '../../seam/command-stage.js';

export const fencingPackage: SystemPackage = {
  name: 'fencing',
  luaScripts: ['src/systems/fencing/lua'],
  systems: [
    {
      name: 'fencing',
      title: 'the fenced session directory across the rolling deploy O → A → B → C and the mode doors',
      model: async () => (await import('./system.js')).fencingSystem() as unknown as AnySystem,
      expectedNames: async () => (await import('./invariants.js')).INVARIANT_NAMES,
      replay: async () => (await import('./replay.js')).fencingReplayer,
      tour: async () => (await import('./tour/entry.js')).fencingTour,
    },
    {
      name: 'failover',
      title: 'fencing authority across a primary failover with lagging replicas (the WAIT remedy)',
      model: async () => (await import('./failover/system.js')).failoverSystem() as unknown as AnySystem,
      expectedNames: async () => [...new Set([...(await import('../../../models/fencing/failover/index.js')).FAILOVER_INVARIANT_NAMES, ...(await import('./failover/checks.js')).DRILL_CHECKS])],
      traceValidation: FAILOVER_TRACE_VALIDATION,
    },
  ],
  impl: async () => (await import('./impl-runner.js')).implRunner,
  commands: {
    props: () => import('./commands/props.js'),
    gate: () => import('./commands/gate.js'),
    rollout: () => import('./commands/rollout.js'),
    diagram: () => import('./commands/diagram.js'),
    'cluster-matrix': () => import('./commands/cluster-matrix.js'),
    failover: () => import('./commands/failover.js'),
  },
  stages: [
    commandStage({
      name: 'props',
      takes: ['runs', 'seed', 'topology'],
      heavy: true,
      recordsTraces: true,
      shardable: true,
      what: 'model-based runs of the real scripts on Valkey for what the tour cannot reach (real TTL expiry, a live reshard across the door, long histories): T1/T2/T3 on the real keyspace',
      command: () => import('./commands/props.js'),
      // props calls verify's cluster topology its `door` runs.
      argv: (p) => [
        ...(p.runs !== undefined ? ['--runs', String(p.runs)] : []),
        ...(p.seed !== undefined ? ['--seed', String(p.seed)] : []),
        ...(p.topology !== undefined ? ['--topology', p.topology === 'cluster' ? 'door' : p.topology] : []),
        ...(p.shard && p.shard.count > 1 ? ['--shard', `${p.shard.index}/${p.shard.count}`] : []),
      ],
    }),
    defineStage({
      name: 'cluster-matrix',
      takes: [],
      heavy: true,
      what: 'the cluster client matrix on real multi-shard Valkey: registry discovery, sharded pub/sub, presence MGET, routing + ACL, replica repair and primary failover drills; errors and silently-wrong verdicts per row',
      run: async (_p, io) => (await import('./cluster-matrix/stage.js')).clusterMatrixStage({}, io),
    }),
    defineStage({
      // The short rehearsal: one pod per ReplicaSet, a small pool; the long one is the deep tier's and the bench's.
      name: 'rollout',
      takes: ['seed'],
      heavy: true,
      // Its observed traces are judged by TLC in verify's tracecheck stage (which waits for it).
      recordsTraces: true,
      what: 'the migration rehearsal, short: real pods, real Valkey and a real Prometheus through O → A → B → rollback → B → backfill → C and the mode doors onto a real cluster, with every chaos kind, the gate asked at every step; T1/T2/T3, E1 and the old-keyspace drain checked, the run recorded for tracecheck',
      run: async (p, io) => (await import('./rollout/stage.js')).rolloutStage({ pods: 1, sessions: 4, judge: false, ...(p.seed !== undefined ? { seed: p.seed } : {}) }, io),
    }),
  ],
};
