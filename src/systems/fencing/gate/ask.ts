/**
 * The gate asked with the facts it reads for itself: the fleet (phases and ReplicaSets), the deploy
 * record, the keyspace of a standalone node (read-only). What a pipeline gets from `fencecheck gate
 * --prometheus … --replicasets … --record …`, in process: the rehearsal's controller asks this.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import type { FencingScripts } from '../scripts.js';
import { createGate, type Gate, type GateDecision } from './gate.js';
import { discoverSessions, observeKeyspace } from './observe.js';
import { readFleet, type FleetSources } from './read-fleet.js';
import { readRecord } from './record.js';
import type { GateStep } from './rules.js';
import type { GateObservations, KeyslotCheck } from './observations.js';
import type { Phase } from '../state.js';

export async function askGate(
  step: GateStep,
  o: { conn: ValkeyClient; scripts: FencingScripts; fleet: FleetSources; recordPath: string; gate?: Gate; keyslot?: KeyslotCheck },
): Promise<{ decision: GateDecision; obs: GateObservations }> {
  const record = readRecord(o.recordPath);
  const fleet = await readFleet(o.fleet);
  const ks = await observeKeyspace(o.conn, o.scripts, await discoverSessions(o.conn));
  const podPhases = Object.fromEntries(Object.entries(fleet.pods).flatMap(([p, ps]) => (ps.length === 1 ? [[p, ps[0] as Phase]] : [])));
  const obs: GateObservations = {
    podPhases,
    target: record.target,
    mode: record.mode,
    backfilled: record.backfilled,
    oldLeaseCensus: ks.oldLeaseCensus,
    newLeaseCensus: ks.newLeaseCensus,
    counters: ks.counters,
    keyslot: o.keyslot ?? null,
    fleet,
  };
  return { decision: (o.gate ?? createGate()).decide(step, obs), obs };
}
