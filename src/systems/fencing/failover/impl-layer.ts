/**
 * The replication system's implementation layer (src/seam/impl-runner.ts): the failover drill
 * (drill.ts) on a real 3×1 cluster of native valkey-servers. The base is the drill with the remedy as
 * it ships (SHIPPED_REMEDY); it must break no check (checks.ts) or every result is `invalid`. Each
 * entry's patch (mutants/failover/impl/Rx.ts, a FailoverPatch) runs through the same drill;
 * the checks that fired are the spec's names, so `killed` = the entry's expectedInvariant among them.
 * One topology serves consecutive drills (each kills a primary and moves a replica); a fresh one is
 * started when no primary has a replica left. About 3.5 s per drill, plus ≈3 s per topology.
 */
import type { LayerRunOptions } from '../../../seam/layer-runner.js';
import type { MutantEntry } from '../../../core/manifest.js';
import type { SystemImplRunner } from '../../../seam/impl-runner.js';
import type { MutantResult } from '../../../core/verdict.js';
import { NotOwnedError, startTopology, ValkeyUnavailableError, type Topology } from '../../../valkey/index.js';
import { valkeyBinary } from '../../../valkey/binary.js';
import { asInfrastructureFault } from '../../../valkey/fault.js';
import { loadFencingScripts, type FencingScripts } from '../scripts.js';
import { failoverDrill, type FailoverDrillResult } from './drill.js';
import { DRILL_CHECKS, type DrillCheck } from './checks.js';
import { loadFailoverPatch, SHIPPED_REMEDY, type FailoverPatch } from './patch.js';

/** A fault (Valkey lost or missing, a timeout outside the drill's own kill): could not run, never a verdict. */
function faultReason(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

/** Drills on one topology while it has a primary with a replica; then on a fresh one. */
class DrillWorld {
  private topology: Topology | null = null;
  private runs = 0;
  constructor(private readonly scripts: FencingScripts, private readonly log: (l: string) => void) {}

  async drill(patch?: FailoverPatch): Promise<FailoverDrillResult> {
    for (let fresh = false; ; fresh = true) {
      const topology = await this.open(fresh);
      const r = await failoverDrill(topology, this.scripts, { community: `impl${Date.now()}x${this.runs++}`, confirm: SHIPPED_REMEDY, ...(patch ? { patch } : {}), log: this.log });
      if (r) return r;
      if (fresh) throw new ValkeyUnavailableError('the replication drill: a fresh 3×1 topology has no primary with an online replica');
    }
  }

  private async open(fresh: boolean): Promise<Topology> {
    if (this.topology && !fresh) return this.topology;
    await this.close();
    this.topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
    if (!this.topology.owned) throw new NotOwnedError('the replication drill', 'it cuts a replication link and kills a primary');
    return this.topology;
  }

  async close(): Promise<void> {
    const t = this.topology;
    this.topology = null;
    await t?.stop();
  }
}

/** What the drill's figures say about the run, in one line. */
function figures(r: FailoverDrillResult): string {
  return `${r.calls} calls (${r.outcomes.applied} applied, ${r.outcomes.refused} refused, ${r.outcomes.unknown} unknown), ${r.monotonicBreaks} acquire(s) told a generation not above an earlier one, ${r.duplicates} generation(s) issued twice, ${r.releasedLeasesBack} released lease(s) back, ${r.findings.length} judge finding(s)`;
}

/** Why a run cannot be judged (null: it can): the sessions did not resume, or a call failed as no fault does. */
function unjudgeable(r: FailoverDrillResult): { verdict: 'not-run' | 'invalid'; reason: string } | null {
  if (r.resumeMs === null) return { verdict: 'not-run', reason: r.errors.join('; ') };
  if (r.errors.length > 0) return { verdict: 'invalid', reason: `the drill's calls failed: ${r.errors.slice(0, 3).join('; ')}` };
  return null;
}

async function runOne(entry: MutantEntry, world: DrillWorld, log: (l: string) => void): Promise<MutantResult> {
  const head = { id: entry.id, layer: 'impl' as const, expectedInvariant: entry.expectedInvariant };
  if (!(DRILL_CHECKS as readonly string[]).includes(entry.expectedInvariant)) return { ...head, verdict: 'invalid', reason: `the drill checks ${DRILL_CHECKS.join(', ')}, not ${entry.expectedInvariant}` };
  const file = entry.layers.impl?.patch;
  if (!file) return { ...head, verdict: 'invalid', reason: `${entry.id} names no impl patch` };
  const started = Date.now();
  let patch: FailoverPatch;
  try {
    patch = await loadFailoverPatch(file);
  } catch (err) {
    return { ...head, verdict: 'invalid', reason: `patch: ${(err as Error).message}` };
  }
  let r: FailoverDrillResult;
  try {
    r = await world.drill(patch);
  } catch (err) {
    const why = faultReason(err);
    if (why !== null) return { ...head, verdict: 'not-run', reason: why, durationMs: Date.now() - started };
    return { ...head, verdict: 'invalid', reason: (err as Error).message, durationMs: Date.now() - started };
  }
  const durationMs = Date.now() - started;
  const bad = unjudgeable(r);
  if (bad) return { ...head, ...bad, durationMs };
  const replay = `replay: fencecheck mutants --layer impl --only ${entry.id}`;
  if (r.broken.length === 0) return { ...head, verdict: 'survived', reason: `every check held: ${figures(r)}`, durationMs };
  const expected = r.broken.find((c) => c === entry.expectedInvariant);
  const violated: DrillCheck = expected ?? r.broken[0]!;
  const common = { ...head, violated, alsoBroken: r.broken.filter((c) => c !== violated), durationMs };
  const what = `${violated} broke in the failover drill (${r.victim} killed, ${r.newPrimary} took over): ${figures(r)}; ${replay}`;
  log(`[impl ${entry.id}] ${what}`);
  return expected ? { ...common, verdict: 'killed', reason: what } : { ...common, verdict: 'wrong-invariant', reason: what };
}

export const implRunner: SystemImplRunner = {
  system: 'failover',
  async unavailable() {
    try {
      valkeyBinary();
      return null;
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) return err.message;
      throw err;
    }
  },
  async run(mutants: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> {
    const selected = mutants.filter((m) => m.system === 'failover' && (!options.only || options.only.includes(m.id)));
    if (selected.length === 0) return [];
    const log = options.log ?? (() => {});
    const every = (verdict: 'not-run' | 'invalid', reason: string): MutantResult[] =>
      selected.map((m) => ({ id: m.id, layer: 'impl', verdict, expectedInvariant: m.expectedInvariant, reason }));
    const drills = selected.length + 1;
    const world = new DrillWorld(loadFencingScripts(), log);
    try {
      // A kill means something only when the remedy as it ships passes the same drill.
      log('[impl replication] the drill with the remedy as it ships');
      options.onProgress?.(0, drills, 'drills', 'the shipped remedy');
      let base: FailoverDrillResult;
      try {
        base = await world.drill();
      } catch (err) {
        const why = faultReason(err);
        if (why !== null) return every('not-run', why);
        throw err;
      }
      const bad = unjudgeable(base);
      if (bad) return every(bad.verdict, `the shipped remedy's drill: ${bad.reason}`);
      if (base.broken.length > 0) return every('invalid', `the shipped remedy fails its own drill (${base.broken.join(', ')}): ${figures(base)}; ${base.findings.slice(0, 3).join('; ')}`);
      log(`[impl replication] the shipped remedy: every check held: ${figures(base)}, ${base.unconfirmed} unknown (not confirmed by WAIT)`);
      const results: MutantResult[] = [];
      for (const [i, m] of selected.entries()) {
        options.onProgress?.(i + 1, drills, 'drills', m.id);
        log(`[impl ${m.id}] the drill with ${m.layers.impl?.patch}`);
        const r = await runOne(m, world, log);
        log(`[impl ${m.id}] ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}`);
        results.push(r);
      }
      options.onProgress?.(drills, drills, 'drills');
      return results;
    } finally {
      await world.close();
    }
  },
};
