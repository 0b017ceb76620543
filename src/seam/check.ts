/**
 * The model layer of one system on the seam, judged against TLC's committed evidence: the twin's
 * exhaustive exploration (every invariant holds), state-set parity with TLC's dump (same count and
 * set, and TLC's "generated"), and every mutant the manifest lists for the system
 * (mutants/manifest.json, its model patch provided to the machine) killed by its expected invariant
 * with TLC's counterexample length (evidence/tlc/<system>/<id>.json). Missing or stale evidence is
 * "not run", never passed.
 */
import { worstStatus, type StageStatus } from '../core/stage-report.js';
import { loadManifest, type MutantEntry } from '../core/manifest.js';
import { runSeamModelMutant } from './model-mutant.js';
import { projectRoot } from '../core/project-root.js';
import { readBaseGraph, readSystemEvidence } from './evidence.js';
import { exploreSystem } from './explore.js';
import { compareGraphs } from './parity.js';
import type { AnySystem } from './package.js';
import { twinGraph } from './tlc/graph.js';

export type CheckStatus = StageStatus;

export interface SystemCheckRow {
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

export interface SystemCheck {
  readonly system: string;
  readonly status: CheckStatus;
  readonly distinct: number;
  readonly generated: number;
  readonly tlc?: { readonly distinct?: number; readonly generated?: number; readonly version: string };
  readonly rows: readonly SystemCheckRow[];
  readonly durationMs: number;
}

export function overall(rows: readonly { status: CheckStatus }[]): CheckStatus {
  return worstStatus(
    rows.map((r) => r.status),
    'not-run',
  );
}

/** The manifest's model-layer entries of one system, in manifest order. */
export function systemMutants(system: string): MutantEntry[] {
  return loadManifest().mutants.filter((m) => m.system === system && m.layers.model !== undefined);
}

/** `mutants` default to the manifest's; evidence is read under `root`. */
export async function checkSystem(sys: AnySystem, root = projectRoot, mutants: readonly MutantEntry[] = systemMutants(sys.name)): Promise<SystemCheck> {
  const t0 = performance.now();
  const rows: SystemCheckRow[] = [];
  const run = exploreSystem(sys, { edges: true });
  for (const v of run.verdicts)
    rows.push({ check: `invariant ${v.name}`, status: v.holds ? 'passed' : 'failed', detail: v.holds ? `holds in all ${run.distinct} states` : `broken in ${v.violatingStates} states` });
  const base = readSystemEvidence(sys.name, 'base', root);
  const committed = readBaseGraph(sys.name, root);
  if ('reason' in committed) {
    rows.push({ check: 'parity with TLC', status: 'not-run', detail: committed.reason });
  } else {
    const p = compareGraphs(twinGraph(sys, run), committed.graph);
    rows.push({
      check: 'parity with TLC',
      status: p.equal ? 'passed' : 'failed',
      detail: p.equal
        ? `the twin reaches exactly TLC's ${run.distinct} states and takes its ${committed.graph.edges.length} ${committed.evidence.edges?.labelled ? 'labelled ' : ''}edges (${run.generated} generated, as TLC counts)`
        : `twin ${run.distinct} distinct / ${p.generated.model} generated / ${p.edges.modelCount} edges, TLC ${p.states.tlcCount} / ${p.generated.tlc} / ${p.edges.tlcCount}; only the twin: ${[...p.states.onlyModel, ...p.edges.onlyModel].slice(0, 2).join(' · ') || '-'}; only TLC: ${[...p.states.onlyTlc, ...p.edges.onlyTlc].slice(0, 2).join(' · ') || '-'}`,
    });
  }
  for (const m of mutants) {
    const name = `mutant ${m.id} (${m.target}) → ${m.expectedInvariant}`;
    // The model layer's own rule (TypeOK with the expected invariant, equivalence, wrong invariant).
    const r = await runSeamModelMutant(m, sys, run);
    if (r.verdict !== 'killed') {
      rows.push({ check: name, status: 'failed', detail: `${r.verdict === 'invalid' ? 'invalid patch' : r.verdict}: ${r.reason ?? '-'}` });
      continue;
    }
    const length = r.traceLength!;
    const ev = readSystemEvidence(sys.name, m.id, root);
    const tlcLength = ev.freshness.fresh ? ev.evidence?.traceLength : undefined;
    // Killed, but "as TLC" is a comparison that needs fresh evidence: without it the row is not run.
    rows.push({
      check: name,
      status: tlcLength === undefined ? 'not-run' : tlcLength === length ? 'passed' : 'failed',
      detail: `killed after ${length} states${tlcLength === undefined ? ` (no fresh TLC evidence to compare: ${ev.freshness.fresh ? 'no trace length' : ev.freshness.reason})` : tlcLength === length ? ', as TLC' : `, TLC's trace has ${tlcLength}`}`,
    });
  }
  return {
    system: sys.name,
    status: overall(rows),
    distinct: run.distinct,
    generated: run.generated,
    ...(base.evidence
      ? {
          tlc: {
            ...(base.evidence.distinct !== undefined ? { distinct: base.evidence.distinct } : {}),
            ...(base.evidence.generated !== undefined ? { generated: base.evidence.generated } : {}),
            version: base.evidence.tlcVersion,
          },
        }
      : {}),
    rows,
    durationMs: performance.now() - t0,
  };
}
