// The failover drill's sessions judged by TLC against tla/fencing/failover/ (real 3×1 cluster, a real
// cut link and SIGKILL): with the remedy every session is accepted (Replicate silent, unknown outcomes
// as alternatives); without it (R1's patch) the sessions on the killed primary are rejected where the
// drill's own checks fire — a generation told twice or a released lease back — and the others accepted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkTraces } from '../../src/seam/tracecheck/check.js';
import { failoverDrill } from '../../src/systems/fencing/failover/drill.js';
import { failoverSystem } from '../../src/systems/fencing/failover/system.js';
import { drillTraces, FAILOVER_TRACE_VALIDATION } from '../../src/systems/fencing/failover/tracecheck.js';
import { loadFailoverPatch, SHIPPED_REMEDY } from '../../src/systems/fencing/failover/patch.js';
import { R1_PATCH } from '../../src/systems/fencing/failover/variants.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const sys = failoverSystem();
const FAILOVER = { system: 'failover', spec: sys.spec, config: sys.config, variables: sys.variables, ...FAILOVER_TRACE_VALIDATION };

let topology: Topology;
beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
});
afterAll(async () => {
  await topology?.stop();
});

it.skipIf(!located.ok)(`with the remedy every session is accepted; R1's victim sessions are rejected where the drill's checks fire${why}`, async () => {
  const scripts = loadFencingScripts();
  const base = await failoverDrill(topology, scripts, { community: 'tcwait', confirm: SHIPPED_REMEDY });
  const r1 = await failoverDrill(topology, scripts, { community: 'tcnone', confirm: SHIPPED_REMEDY, patch: await loadFailoverPatch(R1_PATCH) });
  expect(base && r1, 'two primaries with a replica').toBeTruthy();
  expect(r1!.broken).toContain('Inv_Monotonic');
  const traces = [...drillTraces(base!.observed, { id: 'remedy' }), ...drillTraces(r1!.observed, { id: 'R1', mutant: 'R1' })];
  const r = await checkTraces(traces, () => FAILOVER, located.ok ? { tools: located.tools } : {});
  expect(r.batches).toHaveLength(2);
  const remedy = r.verdicts.filter((v) => v.trace.mutant === undefined);
  expect(remedy.filter((v) => !v.accepted).map((v) => `${v.trace.id}: ${v.rejection!.reason}`)).toEqual([]);
  const mutant = r.verdicts.filter((v) => v.trace.mutant === 'R1');
  const victims = new Set(r1!.observed.sessions.filter((s) => s.victim).map((s) => `R1 session ${s.session}`));
  for (const v of mutant) {
    expect({ id: v.trace.id, asPredicted: v.asPredicted, why: v.rejection?.reason }).toEqual({ id: v.trace.id, asPredicted: true, why: v.rejection?.reason });
    // The sessions on the other shards never failed over: the spec explains them without the remedy too.
    if (!victims.has(v.trace.id!)) expect(v.accepted).toBe(true);
  }
  expect(mutant.filter((v) => !v.accepted).length).toBeGreaterThan(0);
});
