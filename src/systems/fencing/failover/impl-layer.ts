/**
 * The failover model's implementation layer (src/seam/impl-runner.ts): the failover drill
 * (drill.ts) on a real 3×1 cluster of native valkey-servers. The base is the drill with the remedy as
 * it ships (SHIPPED_REMEDY); it must break no check (checks.ts) or every result is `invalid`. Each
 * entry's patch (mutants/failover/impl/Rx.ts, a FailoverPatch) runs through the same drill;
 * the checks that fired are the spec's names, so `killed` = the entry's expectedInvariant among them.
 * One topology serves consecutive drills (each kills a primary and moves a replica); a fresh one is
 * started when no primary has a replica left. About 3.5 s per drill, plus ≈3 s per topology.
 */
import type { LayerRunOptions } from '../../../seam/layer-runner.js';
import type { MutantEntry } from '../../../core/manifest.js';
import { runImplEntries, type ImplOutcome } from '../../../seam/impl-runner.js';
import type { MutantResult } from '../../../core/verdict.js';
import { NotOwnedError, startTopology, ValkeyUnavailableError, type Topology } from '../../../valkey/index.js';
import { valkeyBinary } from '../../../valkey/binary.js';
import { asInfrastructureFault } from '../../../valkey/fault.js';
import { loadFencingScripts, type FencingScripts } from '../scripts.js';
import { failoverDrill, type FailoverDrillResult } from './drill.js';
import { DRILL_CHECKS } from './checks.js';
import { loadFailoverPatch, SHIPPED_REMEDY, type FailoverPatch } from './patch.js';
import { drillTraces } from './tracecheck.js';
import { writeObserved } from '../../../seam/tracecheck/store.js';

/** A fault (Valkey lost or missing, a timeout outside the drill's own kill): could not run, never a verdict. */
function faultReason(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

/** Drills on one topology while it has a primary with a replica; then on a fresh one. */
class DrillWorld {
  private topology: Topology | null = null;
  private runs = 0;
  constructor(
    private readonly scripts: FencingScripts,
    private readonly log: (l: string) => void,
  ) {}

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

/** One drill as the skeleton's outcome (src/seam/impl-runner.ts). */
function outcomeOf(r: FailoverDrillResult, replay?: string): ImplOutcome {
  const bad = unjudgeable(r);
  if (bad) return { kind: bad.verdict, detail: bad.reason };
  const extra = replay ? { extra: { replay } } : {};
  if (r.broken.length === 0) return { kind: 'held', detail: `every check held: ${figures(r)}, ${r.unconfirmed} unknown (not confirmed by WAIT)`, ...extra };
  return {
    kind: 'violated',
    checks: r.broken,
    detail: `${r.broken.join(', ')} broke in the failover drill (${r.victim} killed, ${r.newPrimary} took over): ${figures(r)}; ${r.findings.slice(0, 3).join('; ')}`,
    ...extra,
  };
}

/** The failover model's impl entries (R1): the drill with the remedy as it ships first, then each patch. */
export function runFailoverEntries(entries: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> {
  const log = options.log ?? (() => {});
  return runImplEntries<DrillWorld, FailoverPatch>(entries, options, {
    unit: 'drills',
    open: async () => new DrillWorld(loadFencingScripts(), log),
    close: (world) => world.close(),
    base: async (world) => {
      const r = await world.drill();
      // What the unpatched drill's sessions did, for trace validation: each expected to be accepted.
      writeObserved('impl-failover-unpatched', drillTraces(r.observed, { id: `drill unpatched (${r.victim} killed)` }));
      return outcomeOf(r);
    },
    loadPatch: async (m) => {
      if (!(DRILL_CHECKS as readonly string[]).includes(m.expectedInvariant)) throw new Error(`the drill checks ${DRILL_CHECKS.join(', ')}, not ${m.expectedInvariant}`);
      const file = m.layers.impl?.patch;
      if (!file) throw new Error(`${m.id} names no impl patch`);
      return loadFailoverPatch(file);
    },
    mutant: async (world, m, patch) => {
      const r = await world.drill(patch);
      const replay = `fencecheck mutants --layer impl --only ${m.id}`;
      // Every session of the mutant's drill, labelled with the mutant (the drill does not know it); each predicts its own verdict.
      writeObserved(`impl-failover-${m.id}`, drillTraces(r.observed, { id: `drill ${m.id} (${r.victim} killed)`, mutant: m.id, replay }));
      return outcomeOf(r, replay);
    },
    fault: faultReason,
  });
}

export const failoverAvailable = async (): Promise<string | null> => {
  try {
    valkeyBinary();
    return null;
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) return err.message;
    throw err;
  }
};
