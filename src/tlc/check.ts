import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FencingBounds } from '../fencing/state.js';
import type { MutantEntry } from '../mutants/manifest.js';
import type { MutantResult, Verdict } from '../mutants/verdict.js';
import { projectRoot } from '../project-root.js';
import type { FencingTrace } from '../trace/format.js';
import { BASE_CONFIG_PATH, readCfg, sha256Text, SPEC_PATH } from './config.js';
import { dumpToCanonicalLines } from './dump.js';
import { TlcOutputError } from './errors.js';
import { canonicalEdgesSha256, dotToFencingGraph, edgesToIndexedText } from './edges.js';
import { BASE_EDGES, BASE_STATES, type RunEvidence } from './evidence.js';
import { evidenceCore } from './evidence-core.js';
import type { TlcTools } from './locate.js';
import { runTlc, tlcArgs, type TlcRun } from './run.js';
import type { TlcResult } from './tool-output.js';
import { toFencingTrace } from './trace.js';

export interface CheckOptions {
  readonly tools: TlcTools;
  readonly timeoutMs?: number;
  readonly workers?: number;
  readonly root?: string;
}

export interface BaseCheck {
  readonly run: TlcRun;
  readonly evidence: RunEvidence;
  /** Sorted canonicalKey() lines of the reachable states (when TLC completed and dumped). */
  readonly states?: readonly string[];
  /** Sorted canonical edge lines `from|Action(p)|to` of the labelled state graph. */
  readonly edges?: readonly string[];
  /** evidence/tlc/base.edges.txt's text (edges indexed by their states' lines in `states`). */
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

/** How a run dumps: the plain state list (mutants) or the labelled state graph (base). */
type DumpKind = 'states' | 'graph';

/** The printable TLC command of a run (paths from the project root, jar as `tla2tools.jar`). */
function commandLine(config: string, dump: DumpKind): string {
  const o = dump === 'graph' ? { dotPath: '<tmp>/states.dot' } : { dumpPath: '<tmp>/states.dump' };
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

/** The one spec with one of its configs (paths from the root), always dumping the reachable states (or the whole graph). */
function runConfig(config: string, opts: CheckOptions, root: string, dump: DumpKind): Promise<TlcRun> {
  return runTlc({
    spec: join(root, SPEC_PATH),
    config: join(root, config),
    dump: true,
    graph: dump === 'graph',
    tools: opts.tools,
    ...(opts.timeoutMs !== undefined && { timeoutMs: opts.timeoutMs }),
    ...(opts.workers !== undefined && { workers: opts.workers }),
  });
}

/**
 * The base config with its labelled state graph (`-dump dot,actionlabels`): the reachable states are
 * the graph's nodes, the edges every (state, action instance, successor) TLC generated, with the pod
 * of each per-pod action checked against the state change (src/tlc/edges.ts).
 */
export async function checkBase(opts: CheckOptions): Promise<BaseCheck> {
  const root = opts.root ?? projectRoot;
  const run = await runConfig(BASE_CONFIG_PATH, opts, root, 'graph');
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
 * The verdict of one mutant run: killed only when TLC reports the expected invariant; another
 * invariant is wrong-invariant; parse errors, crashes and failed assumptions are invalid.
 */
export function verdictOf(run: TlcRun, expected: string): { verdict: Verdict; reason?: string } {
  if (run.kind === 'timeout') return { verdict: 'timeout', reason: `TLC did not finish in ${Math.round(run.timeoutMs / 1000)} s` };
  const r = run.result;
  switch (r.outcome) {
    case 'invariant-violation':
      return r.violated === expected
        ? { verdict: 'killed' }
        : { verdict: 'wrong-invariant', reason: `TLC reported ${r.violated}, expected ${expected}` };
    case 'ok':
      return { verdict: 'survived', reason: `no invariant violated (${r.distinct ?? '?'} distinct states)` };
    case 'parse-error': {
      const d = r.sany[0];
      return { verdict: 'invalid', reason: d ? `SANY: ${d.file}:${d.line}:${d.column}: ${d.message}` : 'SANY could not parse the spec' };
    }
    case 'assumption-false':
      return { verdict: 'invalid', reason: `an ASSUME failed (a config naming a guard the spec does not have?): ${r.errors[0] ?? ''}`.trim() };
    default:
      return { verdict: 'invalid', reason: `TLC ${r.outcome}: ${r.errors[0]?.split('\n').slice(0, 3).join(' ') ?? 'no message'}` };
  }
}

/**
 * One mutant config, checked alone with TypeOK and its expected invariant (as the config lists).
 * A survivor is compared with the base's reachable states: the same set makes it `equivalent`.
 */
export async function checkMutant(m: MutantEntry, opts: CheckOptions & { baseStates?: readonly string[] }): Promise<MutantCheck> {
  const root = opts.root ?? projectRoot;
  const config = m.layers.tla?.config;
  if (!config) throw new Error(`${m.id}: the manifest names no tla config`);
  const run = await runConfig(config, opts, root, 'states');
  const base = common(m.id, run, config, root, 'states');
  let { verdict, reason } = verdictOf(run, m.expectedInvariant);
  let trace: FencingTrace | undefined;
  let traceProblem: string | undefined;
  if (run.kind === 'completed') {
    ({ trace, traceProblem } = traceOf(run.result, base.bounds, { mutant: m.id, ...(run.result.violated !== undefined && { violated: run.result.violated }) }));
    if (verdict === 'survived' && opts.baseStates && run.dumpText !== undefined) {
      const mine = dumpToCanonicalLines(run.dumpText);
      if (mine.length === opts.baseStates.length && mine.every((s, i) => s === opts.baseStates![i])) {
        verdict = 'equivalent';
        reason = `same ${mine.length} reachable states as the base: ${m.target} is redundant given the other guards`;
      }
    }
  }
  const violated = run.kind === 'completed' ? run.result.violated : undefined;
  const alsoBroken = trace?.brokenAtEnd?.filter((n) => n !== violated);
  const why = [reason, traceProblem].filter((x) => x !== undefined).join('; ');
  const result: MutantResult = {
    id: m.id,
    layer: 'tla',
    verdict,
    expectedInvariant: m.expectedInvariant,
    ...(violated !== undefined && { violated }),
    ...(alsoBroken && { alsoBroken }),
    ...(trace && { traceLength: trace.steps.length }),
    durationMs: run.kind === 'completed' ? (run.result.durationMs ?? run.wallMs) : run.wallMs,
    ...(why !== '' && { reason: why }),
  };
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
