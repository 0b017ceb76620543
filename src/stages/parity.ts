/**
 * The parity stage: each system's XState twin against its TLA+ spec on the bounds TLC ran — the
 * same reachable states, the same labelled state graph, the same action alphabet — and each
 * system's own tables. `fencecheck parity` parses its options, runs this and prints the report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detailsSection } from '../core/details-blocks.js';
import { projectRoot } from '../core/project-root.js';
import type { StageIO } from '../core/stage.js';
import { stageReport, worstStatus, type StageReport, type StageStatus } from '../core/stage-report.js';
import { renderTable } from '../core/table.js';
import { compareAlphabet, specActions, type AlphabetComparison } from '../seam/alphabet.js';
import { readBaseGraph } from '../seam/evidence.js';
import { exploreSystem } from '../seam/explore.js';
import { compareGraphs, type GraphParity } from '../seam/parity.js';
import { boundsLabel, type ParityTable } from '../seam/system.js';
import { twinGraph } from '../seam/tlc/graph.js';
import { selectModels } from '../registry/select.js';

const PARITY_INTRO = "Each XState twin's reachable states and state graph against TLC's, and each system's own tables (fencing: action ↔ event ↔ script).";

export interface ParityInput {
  /** `--system` values (default: every system with a model). */
  readonly systems?: readonly string[];
  /** Differences to print per side. */
  readonly show?: number;
  /** Print each system's own tables first (a person reading the terminal). */
  readonly tables?: boolean;
}

interface SystemParity {
  readonly system: string;
  readonly status: StageStatus;
  readonly reason?: string;
  readonly graph?: GraphParity;
  readonly alphabet?: AlphabetComparison;
  readonly tlcVersion?: string;
  readonly explorationMs?: number;
  readonly tables?: readonly ParityTable[];
}

export async function parityStage(input: ParityInput, io: StageIO): Promise<StageReport> {
  const systems = await selectModels(input.systems);
  const show = input.show ?? 5;
  const startedAt = new Date();
  const out = (line: string) => io.log(line);
  const results: SystemParity[] = [];
  for (const sys of systems) {
    const tables = (await sys.parityTables?.()) ?? [];
    if (input.tables) for (const t of tables) out(`${renderTable(t.columns, t.rows)}\n`);
    let alphabet: AlphabetComparison | undefined;
    if (sys.actions) {
      try {
        alphabet = compareAlphabet(specActions(readFileSync(join(projectRoot, sys.spec), 'utf8'), sys.spec), sys.actions);
      } catch (err) {
        results.push({ system: sys.name, status: 'not-run', reason: (err as Error).message, tables });
        continue;
      }
      if (!alphabet.equal) out(`${sys.name} actions: spec only: ${alphabet.onlySpec.join(', ') || '-'}; twin only: ${alphabet.onlyModel.join(', ') || '-'}`);
    }
    const committed = readBaseGraph(sys.name);
    if ('reason' in committed) {
      results.push({ system: sys.name, status: 'not-run', reason: committed.reason, ...(alphabet && { alphabet }), tables });
      continue;
    }
    const run = exploreSystem(sys, { edges: true });
    const p = compareGraphs(twinGraph(sys, run), committed.graph, show);
    const e = committed.evidence;
    out(
      `${sys.name} (${boundsLabel(sys.bounds)}): twin ${run.distinct} distinct / ${p.generated.model} generated (${Math.round(run.durationMs)} ms); TLC (${e.tlcVersion}) ${e.distinct} distinct / ${p.generated.tlc} generated (${e.durationMs ?? e.wallMs} ms)`,
    );
    // The labels are compared where the system's are TLC's; else only which state leads to which.
    out(`  edges: twin ${p.edges.modelCount}, TLC ${p.edges.tlcCount}; self-loops ${p.selfLoops.model}/${p.selfLoops.tlc}; ${e.edges?.labelled ? 'labels' : 'successors'} compared`);
    for (const [what, c] of [
      ['states', p.states],
      ['edges', p.edges],
    ] as const) {
      if (c.onlyModelCount > 0) out(`  only the twin has ${c.onlyModelCount} ${what}, first:\n${c.onlyModel.map((k) => `    ${k}`).join('\n')}`);
      if (c.onlyTlcCount > 0) out(`  only TLC has ${c.onlyTlcCount} ${what}, first:\n${c.onlyTlc.map((k) => `    ${k}`).join('\n')}`);
    }
    const ok = p.equal && (alphabet?.equal ?? true);
    const why = [
      ...(p.states.equal ? [] : ['the state sets differ']),
      ...(p.edges.equal ? [] : ['the edge sets differ']),
      ...(p.generated.equal ? [] : [`generated: twin ${p.generated.model}, TLC ${p.generated.tlc}`]),
      ...(alphabet && !alphabet.equal ? ['the action alphabets differ'] : []),
    ];
    results.push({
      system: sys.name,
      status: ok ? 'passed' : 'failed',
      ...(ok ? {} : { reason: why.join('; ') }),
      graph: p,
      ...(alphabet && { alphabet }),
      tlcVersion: e.tlcVersion,
      explorationMs: Math.round(run.durationMs),
      tables,
    });
  }
  const status: StageStatus = worstStatus(results.map((r) => r.status));
  const line = (r: SystemParity) =>
    r.status === 'passed'
      ? `${r.system}: the twin reaches exactly TLC's ${r.graph!.states.tlcCount} states and takes its ${r.graph!.edges.tlcCount} edges (${r.graph!.selfLoops.tlc} self-loops)${r.alphabet ? '; every spec action is one event' : ''}`
      : `${r.system}: ${r.status === 'not-run' ? 'not run' : 'broken'}: ${r.reason}`;
  const summary = `parity: ${results.map(line).join('; ')}`;
  const counts: Record<string, number> = {};
  for (const r of results) {
    if (!r.graph) continue;
    const k = results.length > 1 ? `${r.system}.` : '';
    Object.assign(counts, {
      [`${k}machineDistinct`]: r.graph.states.modelCount,
      [`${k}tlcDistinct`]: r.graph.states.tlcCount,
      [`${k}machineGenerated`]: r.graph.generated.model,
      [`${k}tlcGenerated`]: r.graph.generated.tlc,
      [`${k}onlyMachine`]: r.graph.states.onlyModelCount,
      [`${k}onlyTlc`]: r.graph.states.onlyTlcCount,
      [`${k}machineEdges`]: r.graph.edges.modelCount,
      [`${k}tlcEdges`]: r.graph.edges.tlcCount,
      [`${k}machineSelfLoops`]: r.graph.selfLoops.model,
      [`${k}tlcSelfLoops`]: r.graph.selfLoops.tlc,
      [`${k}onlyMachineEdges`]: r.graph.edges.onlyModelCount,
      [`${k}onlyTlcEdges`]: r.graph.edges.onlyTlcCount,
      [`${k}explorationMs`]: r.explorationMs ?? 0,
    });
  }
  const reasons = results.filter((r) => r.reason).map((r) => `${r.system}: ${r.reason}`);
  return stageReport({
    stage: 'parity',
    status,
    ...(reasons.length > 0 && status !== 'passed' ? { reason: reasons.join('; ') } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    counts,
    details: { systems: results, sections: [detailsSection({ id: 'stage-parity', title: 'Parity report', intro: PARITY_INTRO, counts, details: { systems: results } })] },
  });
}
