import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FencingBounds } from '../state.js';
import type { MutantEntry } from '../../../core/manifest.js';
import type { MutantResult } from '../../../core/verdict.js';
import { projectRoot } from '../../../core/project-root.js';
import type { FencingTrace } from '../../../core/trace-format.js';
import { BASE_CONFIG_PATH, readCfg, sha256Text, SPEC_PATH } from './config.js';
import { dumpToCanonicalLines } from '../../../tlc/dump.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { canonicalEdgesSha256, dotToFencingGraph, edgesToIndexedText } from './edges.js';
import { BASE_EDGES, BASE_STATES, type RunEvidence } from './evidence.js';
import { evidenceCore } from '../../../tlc/evidence-core.js';
import { judgeMutant, mutantResult, runConfig, type CheckOptions, type DumpKind } from '../../../seam/tlc/mutant-judge.js';
import { tlcArgs, type TlcRun } from '../../../tlc/run.js';
import type { TlcResult } from '../../../tlc/tool-output.js';
import { toFencingTrace } from './trace.js';

export { verdictOf, type CheckOptions } from '../../../seam/tlc/mutant-judge.js';

export interface BaseCheck {
  readonly run: TlcRun;
  readonly evidence: RunEvidence;
  /** Sorted canonicalKey() lines of the reachable states (when TLC completed and dumped). */
  readonly states?: readonly string[];
  /** Sorted canonical edge lines `from|Action(p)|to` of the labelled state graph. */
  readonly edges?: readonly string[];
  /** evidence/tlc/fencing/base.edges.txt's text (edges indexed by their states' lines in `states`). */
  readonly edgesText?: string;
  readonly trace?: FencingTrace;
  /** TLC printed a trace that could not be read (which step, which variable). */
  readonly traceProblem?: string;
}

export interface MutantCheck {
  readonly result: MutantResult;
  readonly evidence: RunEvidence;
  readonly trace?: FencingTrace;
  readonly traceProblem?: string;
}

/** The printable TLC command of a run (paths from the project root, jar as `tla2tools.jar`). */
function commandLine(config: string, dump: DumpKind): string {
  const o = dump === 'graph' ? { dotPath: '<tmp>/states.dot' } : dump === 'states' ? { dumpPath: '<tmp>/states.dump' } : {};
  return ['java', ...tlcArgs('tla2tools.jar', config, SPEC_PATH, { metadir: '<tmp>', ...o })].join(' ');
}

function common(name: string, run: TlcRun, config: string, root: string, dump: DumpKind): RunEvidence {
  const cfg = readCfg(readFileSync(join(root, config), 'utf8'), config);
  return { ...evidenceCore({ name, run, spec: SPEC_PATH, config, bounds: cfg.bounds, invariants: cfg.invariants, command: commandLine(config, dump), root }), bounds: cfg.bounds };
}

/**
 * The run's counterexample as a fencing trace. A trace TLC printed but that cannot be read (a value
 * the parser does not know, a state outside the fencing model) does not hide the outcome and
 * counts: it is reported as `traceProblem`, naming the step and the variable.
 */
function traceOf(r: TlcResult, bounds: FencingBounds, extra: { mutant?: string; violated?: string }): { trace?: FencingTrace; traceProblem?: string } {
  if (r.trace.length === 0) return {};
  try {
    return { trace: toFencingTrace(r.trace, bounds, { ...extra, ...(r.loop && { loop: r.loop }) }) };
  } catch (err) {
    if (err instanceof TlcOutputError) return { traceProblem: `cannot read TLC's trace: ${err.message}` };
    throw err;
  }
}

/**
 * The base config with its labelled state graph (`-dump dot,actionlabels`): the reachable states are
 * the graph's nodes, the edges every (state, action instance, successor) TLC generated, with the pod
 * of each per-pod action checked against the state change (src/systems/fencing/tlc/edges.ts).
 */
export async function checkBase(opts: CheckOptions): Promise<BaseCheck> {
  const root = opts.root ?? projectRoot;
  const run = await runConfig(SPEC_PATH, BASE_CONFIG_PATH, opts, root, 'graph');
  const base = common('base', run, BASE_CONFIG_PATH, root, 'graph');
  let graph: ReturnType<typeof dotToFencingGraph> | undefined;
  let trace: FencingTrace | undefined;
  let traceProblem: string | undefined;
  if (run.kind === 'completed') {
    if (run.result.outcome === 'ok' && run.dotText !== undefined) graph = dotToFencingGraph(run.dotText);
    ({ trace, traceProblem } = traceOf(run.result, base.bounds, run.result.violated !== undefined ? { violated: run.result.violated } : {}));
  }
  const states = graph?.states;
  const statesText = states ? `${states.join('\n')}\n` : undefined;
  const edgesText = graph ? edgesToIndexedText(graph.edges, graph.states) : undefined;
  const evidence: RunEvidence = {
    ...base,
    ...(statesText !== undefined && { states: { file: BASE_STATES, sha256: sha256Text(statesText), count: states!.length } }),
    ...(graph &&
      edgesText !== undefined && {
        edges: {
          file: BASE_EDGES,
          sha256: sha256Text(edgesText),
          count: graph.edges.length,
          selfLoops: graph.selfLoops,
          canonicalSha256: canonicalEdgesSha256(graph.edges),
          dotEdges: graph.dotEdges,
          initialStates: graph.initial.length,
          podParameter: graph.podParameter,
        },
      }),
    ...(trace && { trace }),
    ...(traceProblem !== undefined && { traceProblem }),
  };
  return {
    run,
    evidence,
    ...(states && { states }),
    ...(graph && { edges: graph.edges }),
    ...(edgesText !== undefined && { edgesText }),
    ...(trace && { trace }),
    ...(traceProblem !== undefined && { traceProblem }),
  };
}

/**
 * One mutant config, checked alone with TypeOK and its expected invariant (as the config lists).
 * A survivor is compared with the base's reachable states: the same set makes it `equivalent`.
 */
export async function checkMutant(m: MutantEntry, opts: CheckOptions & { baseStates?: readonly string[] }): Promise<MutantCheck> {
  const root = opts.root ?? projectRoot;
  const config = m.layers.tla?.config;
  if (!config) throw new Error(`${m.id}: the manifest names no tla config`);
  const run = await runConfig(SPEC_PATH, config, opts, root, 'states');
  const base = common(m.id, run, config, root, 'states');
  const { baseStates } = opts;
  const { verdict, reason } = await judgeMutant(
    run,
    m,
    baseStates && run.kind === 'completed' && run.dumpText !== undefined ? { base: baseStates, states: async () => dumpToCanonicalLines(run.dumpText!) } : undefined,
  );
  let trace: FencingTrace | undefined;
  let traceProblem: string | undefined;
  if (run.kind === 'completed') {
    ({ trace, traceProblem } = traceOf(run.result, base.bounds, { mutant: m.id, ...(run.result.violated !== undefined && { violated: run.result.violated }) }));
  }
  const violated = run.kind === 'completed' ? run.result.violated : undefined;
  const alsoBroken = trace?.brokenAtEnd?.filter((n) => n !== violated);
  const why = [reason, traceProblem].filter((x) => x !== undefined).join('; ');
  const result = mutantResult(m, run, verdict, { ...(violated !== undefined && { violated }), ...(alsoBroken && { alsoBroken }), ...(trace && { traceLength: trace.steps.length }), reason: why });
  const evidence: RunEvidence = {
    ...base,
    mutant: { id: m.id, target: m.target, expectedInvariant: m.expectedInvariant },
    verdict,
    ...(violated !== undefined && { violated }),
    ...(alsoBroken && { alsoBroken }),
    ...(trace && { traceLength: trace.steps.length, trace }),
    ...(traceProblem !== undefined && { traceProblem }),
    ...(reason !== undefined && { reason }),
  };
  return { result, evidence, ...(trace && { trace }), ...(traceProblem !== undefined && { traceProblem }) };
}
