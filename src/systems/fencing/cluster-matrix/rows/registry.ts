/**
 * Row "registry": peer discovery on a 3-shard cluster against a known population of runtimes with
 * heartbeats, expiring records, deaths, restarts and corrupt records. The design under test is the
 * variant; a SCAN discoverer reads the same population as a negative control, and must be found
 * partial by the same checker — otherwise the checker is blind and the row says so.
 */
import { randomBytes } from 'node:crypto';
import { closeClient, type ValkeyClient } from '../../../../valkey/index.js';
import { discover, DISCOVERY_DESIGNS, type DiscoveryDesign } from '../registry/designs.js';
import { judgeDiscovery, type DiscoveryCall, type Judgement } from '../registry/judge.js';
import { planPopulation, runPopulation, type PopulationTiming } from '../registry/population.js';
import { INDEX_KEY } from '../registry/record.js';
import { mean, pct, percentile, sleep } from '../stats.js';
import { verdictOf, type MatrixRow } from '../types.js';

export const REGISTRY_TIMING: PopulationTiming = { heartbeatMs: 300, ttlMs: 900, durationMs: 3300 };
const DISCOVER_EVERY_MS = 100;

interface Discoverer {
  readonly calls: DiscoveryCall[];
  readonly errors: string[];
  pruned: number;
}

async function discoverLoop(design: DiscoveryDesign, client: ValkeyClient, secret: string, until: number): Promise<Discoverer> {
  const d: Discoverer = { calls: [], errors: [], pruned: 0 };
  while (Date.now() < until) {
    const t0 = Date.now();
    try {
      const r = await discover(design, client, secret);
      d.calls.push({ t0, t1: Date.now(), returned: r.records.map((x) => x.runtime) });
      d.pruned += r.pruned;
    } catch (err) {
      d.errors.push(`discovery: ${(err as Error).message}`);
    }
    await sleep(DISCOVER_EVERY_MS);
  }
  return d;
}

function completenessFigures(prefix: string, j: Judgement): Record<string, number> {
  return {
    [`${prefix} completeness min %`]: pct(Math.min(...j.completeness)),
    [`${prefix} completeness mean %`]: pct(mean(j.completeness)),
    [`${prefix} distinct result sets`]: j.distinctSets,
  };
}

export const registryRow: MatrixRow<DiscoveryDesign> = {
  name: 'registry',
  surface: 'Registry index (mesh peer discovery)',
  topology: { kind: 'cluster', shards: 3 },
  variants: DISCOVERY_DESIGNS,
  async run(ctx, design) {
    const t = REGISTRY_TIMING;
    const secret = randomBytes(16).toString('hex');
    const plans = planPopulation(t);
    const writer = ctx.topology.client();
    const readers = [ctx.topology.client(), ctx.topology.client()];
    try {
      const pop = runPopulation(writer, plans, t, secret);
      const until = pop.startedAt + t.durationMs;
      const [dut, control] = await Promise.all([discoverLoop(design, readers[0]!, secret, until), discoverLoop('scan', readers[1]!, secret, until)]);
      await pop.done;
      // Everyone is dead now: once every record expired, discovery must return nobody and the index be pruned.
      await sleep(t.ttlMs + t.heartbeatMs);
      const t0 = Date.now();
      const last = await discover(design, readers[0]!, secret);
      const afterDeath: DiscoveryCall = { t0, t1: Date.now(), returned: last.records.map((r) => r.runtime) };
      const leftScores = await readers[0]!.zcard(INDEX_KEY);

      const j = judgeDiscovery([...dut.calls, afterDeath], pop.truth, t.heartbeatMs);
      const jc = judgeDiscovery(control.calls, pop.truth, t.heartbeatMs);
      const silent = [...j.forbidden, ...j.missed];
      if (leftScores > 0) silent.push(`${leftScores} dead scores left in the index after every runtime died (not pruned)`);
      if (jc.missed.length === 0) silent.push('control: the checker found the SCAN discoverer complete; it cannot see partial discovery');
      const honest = plans.filter((p) => p.kind === 'honest');
      const figures = {
        runtimes: plans.length,
        'honest / corrupt / forged': `${honest.length}/${plans.filter((p) => p.kind === 'garbage').length}/${plans.filter((p) => p.kind === 'forged').length}`,
        'deaths / restarts': `${honest.filter((p) => p.lives.length > 1 || p.lives[0]!.endMs !== undefined).length}/${honest.filter((p) => p.lives.length > 1).length}`,
        'heartbeat ms': t.heartbeatMs,
        'discovery calls': j.completeness.length,
        ...completenessFigures(design, j),
        [`${design} discoverable within ms (max)`]: j.latenciesMs.length ? Math.max(...j.latenciesMs) : Number.NaN,
        [`${design} discoverable within ms (p50)`]: percentile(j.latenciesMs, 50),
        'missed live runtimes': j.missed.length,
        'forbidden records returned': j.forbidden.length,
        'dead scores pruned': dut.pruned + last.pruned,
        ...completenessFigures('scan control', jc),
      };
      const notes = [`the SCAN control returned ${jc.distinctSets} different sets over ${control.calls.length} calls with ${control.errors.length} errors`];
      return { errors: verdictOf([...pop.errors, ...dut.errors]), silentlyWrong: verdictOf(silent), figures, notes };
    } finally {
      await Promise.all([writer, ...readers].map((c) => closeClient(c)));
    }
  },
};
