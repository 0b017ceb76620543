/**
 * A replica made to lag for real (its replication link cut through a proxy), its
 * primary SIGKILLed by PID 500 ms later and the replica promoted at once, while the fencing C
 * scripts loop on every shard. Without the remedy the new primary re-issues generations already
 * told "applied" (the negative test); with WAIT after every call, none, every call's outcome agrees
 * with the real keyspace, and the calls WAIT could not confirm are reported unknown. WAIT counting
 * no replica (WAIT 0) is the broken remedy: red. The remedy is dropped as mutant R1 drops it: its
 * patch file on the shipped remedy (the CLI's `--variant none` is the same patch).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTopology, type Topology } from '../../src/valkey/index.js';
import { loadFencingScripts, type FencingScripts } from '../../src/systems/fencing/scripts.js';
import { failoverDrill } from '../../src/systems/fencing/failover/drill.js';
import { loadFailoverPatch, SHIPPED_REMEDY } from '../../src/systems/fencing/failover/patch.js';
import { R1_PATCH, WAIT_ZERO } from '../../src/systems/fencing/failover/variants.js';

let topology: Topology;
let scripts: FencingScripts;
beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
  scripts = loadFencingScripts();
});
afterAll(async () => {
  await topology?.stop();
});

it('without the remedy: generations issued twice after the lagging replica took over (negative test)', async () => {
  const r = await failoverDrill(topology, scripts, { community: 'rnone', confirm: SHIPPED_REMEDY, patch: await loadFailoverPatch(R1_PATCH) });
  expect(r, 'a primary with a replica').not.toBeNull();
  expect(r!.appliedAfterCut, JSON.stringify(r)).toBeGreaterThan(0);
  expect(r!.duplicates, JSON.stringify(r)).toBeGreaterThan(0);
  expect(r!.monotonicBreaks).toBeGreaterThanOrEqual(r!.duplicates);
  expect(r!.broken).toContain('Inv_Monotonic');
  expect(r!.errors).toEqual([]);
});

it('with WAIT 1: no generation twice, every outcome agrees with the keyspace, unconfirmed calls unknown', async () => {
  const r = await failoverDrill(topology, scripts, { community: 'rwait', confirm: SHIPPED_REMEDY });
  expect(r).not.toBeNull();
  expect(r!.broken, JSON.stringify(r)).toEqual([]);
  expect(r!.monotonicBreaks).toBe(0);
  expect(r!.findings, JSON.stringify(r)).toEqual([]);
  expect(r!.errors, JSON.stringify(r)).toEqual([]);
  expect(r!.duplicates).toBe(0);
  expect(r!.appliedAfterCut).toBe(0);
  expect(r!.unconfirmed).toBeGreaterThan(0);
  // Not vacuous: the shard confirmed and issued generations again once it had a replica.
  expect(r!.redundancyRestored).toBe(true);
  expect(r!.appliedAfterTakeover).toBeGreaterThan(0);
});

it('broken remedy: WAIT 0 (no replica counted) → generations issued twice (red)', async () => {
  const r = await failoverDrill(topology, scripts, { community: 'rwait0', confirm: SHIPPED_REMEDY, patch: WAIT_ZERO });
  expect(r).not.toBeNull();
  expect(r!.duplicates, JSON.stringify(r)).toBeGreaterThan(0);
  expect(r!.broken).toContain('Inv_Monotonic');
});
