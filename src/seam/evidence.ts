/**
 * Committed TLC evidence of any system (evidence/tlc/<system>/): what TLC reported for the base config
 * and each mutant config, pinned to the SHA-256 of the spec and config it ran. The base record names
 * its reachable states as the system's canonical keys (base.states.txt) and its labelled state graph
 * (base.edges.txt, src/seam/tlc/graph.ts); a mutant record holds its verdict, violated invariant and
 * TLC's counterexample. Reading it needs no Java.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256File, sha256Text } from '../core/hash.js';
import type { MutantEntry } from '../core/manifest.js';
import { projectRoot } from '../core/project-root.js';
import type { MutantResult, Verdict } from '../core/verdict.js';
import { EVIDENCE_SCHEMA, evidenceCore, type EvidenceCore } from '../tlc/evidence-core.js';
import { TlcOutputError } from '../tlc/errors.js';
import { tlcArgs, type TlcRun } from '../tlc/run.js';
import type { ModelSystem } from './system.js';
import { edgesToIndexedText, indexedTextToEdges, linesSha256, type StateGraph } from './tlc/graph.js';

export const SYSTEM_EVIDENCE_SCHEMA = EVIDENCE_SCHEMA;

/** base.edges.txt: the labelled state graph TLC dumped. */
export interface EdgeEvidence {
  readonly file: string;
  readonly sha256: string;
  /** Distinct edge lines, self-loops included. */
  readonly count: number;
  readonly selfLoops: number;
  /** SHA-256 of the sorted `key|label|key` lines (src/seam/tlc/graph.ts), recomputable from the twin. */
  readonly canonicalSha256: string;
  /** Edges TLC generated, repeats included; with `initialStates`, TLC's "states generated". */
  readonly generatedEdges: number;
  readonly initialStates: number;
  /** Whether labels are the action instances (the system's `tlcLabels`) or `*`. */
  readonly labelled: boolean;
}

/** One record: the common fields (src/tlc/evidence-core.ts), the system, and the run's own parts. */
export interface SystemEvidence extends EvidenceCore {
  readonly system: string;
  readonly edges?: EdgeEvidence;
  readonly verdict?: Verdict;
  readonly violated?: string;
  readonly alsoBroken?: readonly string[];
  /** States in TLC's error trace, Init included. */
  readonly traceLength?: number;
  /** TLC's counterexample as a trace (docs/trace-format.md). */
  readonly trace?: unknown;
  /**
   * The same counterexample's states exactly as TLC printed them (each variable's value in TLA+,
   * src/core/tla-value.ts): what a reader parses back through a system's `fromTlc` without the
   * trace format's losses (ITF has no model values).
   */
  readonly tlcStates?: readonly Readonly<Record<string, string>>[];
  readonly reason?: string;
}

export const systemEvidenceDir = (system: string): string => `evidence/tlc/${system}`;
export const systemEvidencePath = (system: string, run: string): string => `${systemEvidenceDir(system)}/${run}.json`;
export const RERUN = 'rerun `fencecheck tlc --system NAME --mutants --write-evidence` where TLC is available';

/** The INVARIANT(S) a TLC config lists. */
export function cfgInvariants(text: string): string[] {
  const body = text.replace(/\\\*.*$/gm, '').replace(/\(\*[\s\S]*?\*\)/g, '');
  const inv = /\bINVARIANTS?\b([\s\S]*?)(?=\n\s*[A-Z_]{4,}\b(?!_)|$)/.exec(body);
  return inv ? inv[1]!.split(/\s+/).filter((s) => /^[A-Za-z_]\w*$/.test(s)) : [];
}

/** The printable command of a run (paths from the project root, the jar as `tla2tools.jar`). */
export function systemCommandLine(spec: string, config: string, dump: 'none' | 'states' | 'graph'): string {
  const o = dump === 'graph' ? { dotPath: '<tmp>/states.dot' } : dump === 'states' ? { dumpPath: '<tmp>/states.dump' } : {};
  return ['java', ...tlcArgs('tla2tools.jar', config, spec, { metadir: '<tmp>', ...o })].join(' ');
}

function common<S, E>(sys: ModelSystem<S, E>, name: string, config: string, run: TlcRun, dump: 'none' | 'states' | 'graph', root: string): SystemEvidence {
  const core = evidenceCore({
    name,
    run,
    spec: sys.spec,
    config,
    bounds: sys.bounds,
    invariants: cfgInvariants(readFileSync(join(root, config), 'utf8')),
    command: systemCommandLine(sys.spec, config, dump),
    root,
  });
  // `system` second, as every committed record has it.
  const { schema, ...rest } = core;
  return { schema, system: sys.name, ...rest };
}

/** The base run's record; with its graph (TLC finished without a violation), the states and edges it names. */
export function baseSystemEvidence<S, E>(sys: ModelSystem<S, E>, run: TlcRun, graph: StateGraph | undefined, root = projectRoot): { evidence: SystemEvidence; edgesText?: string } {
  const evidence = common(sys, 'base', sys.config, run, 'graph', root);
  if (!graph) return { evidence };
  const dir = systemEvidenceDir(sys.name);
  const edgesText = edgesToIndexedText(graph.edges, graph.states);
  return {
    evidence: {
      ...evidence,
      states: { file: `${dir}/base.states.txt`, sha256: sha256Text(`${graph.states.join('\n')}\n`), count: graph.states.length },
      edges: {
        file: `${dir}/base.edges.txt`,
        sha256: sha256Text(edgesText),
        count: graph.edges.length,
        selfLoops: graph.selfLoops,
        canonicalSha256: linesSha256(graph.edges),
        generatedEdges: graph.generatedEdges,
        initialStates: graph.initialStates,
        labelled: sys.tlcLabels === true,
      },
    },
    edgesText,
  };
}

export interface MutantRunFields {
  readonly verdict: Verdict;
  readonly violated?: string;
  readonly alsoBroken?: readonly string[];
  readonly traceLength?: number;
  readonly trace?: unknown;
  readonly tlcStates?: readonly Readonly<Record<string, string>>[];
  readonly reason?: string;
}

export function mutantSystemEvidence<S, E>(
  sys: ModelSystem<S, E>,
  m: Pick<MutantEntry, 'id' | 'target' | 'expectedInvariant'>,
  config: string,
  run: TlcRun,
  fields: MutantRunFields,
  root = projectRoot,
): SystemEvidence {
  return {
    ...common(sys, m.id, config, run, 'none', root),
    mutant: { id: m.id, target: m.target, expectedInvariant: m.expectedInvariant },
    verdict: fields.verdict,
    ...(fields.violated !== undefined && { violated: fields.violated }),
    ...(fields.alsoBroken && fields.alsoBroken.length > 0 && { alsoBroken: fields.alsoBroken }),
    ...(fields.traceLength !== undefined && { traceLength: fields.traceLength }),
    ...(fields.reason !== undefined && fields.reason !== '' && { reason: fields.reason }),
    ...(fields.trace !== undefined && { trace: fields.trace }),
    ...(fields.tlcStates !== undefined && { tlcStates: fields.tlcStates }),
  };
}

/** Writes the record and, for a base with its graph, base.states.txt and base.edges.txt. */
export function writeSystemEvidence(evidence: SystemEvidence, graph?: StateGraph, edgesText?: string, root = projectRoot): string[] {
  const write = (rel: string, text: string): string => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
    return rel;
  };
  const out = [write(systemEvidencePath(evidence.system, evidence.run), `${JSON.stringify(evidence, null, 2)}\n`)];
  if (graph && evidence.states) out.push(write(evidence.states.file, `${graph.states.join('\n')}\n`));
  if (edgesText !== undefined && evidence.edges) out.push(write(evidence.edges.file, edgesText));
  return out;
}

export type Freshness = { readonly fresh: true } | { readonly fresh: false; readonly reason: string };

/** Committed evidence of one run, or why it cannot be used: missing, malformed, or made from another spec/config/dump. */
export function readSystemEvidence(system: string, run: string, root = projectRoot): { evidence?: SystemEvidence; freshness: Freshness } {
  const rel = systemEvidencePath(system, run);
  const path = join(root, rel);
  if (!existsSync(path)) return { freshness: { fresh: false, reason: `no evidence ${rel}` } };
  let evidence: SystemEvidence;
  try {
    evidence = JSON.parse(readFileSync(path, 'utf8')) as SystemEvidence;
  } catch (err) {
    return { freshness: { fresh: false, reason: `${rel} is not valid JSON: ${(err as Error).message}` } };
  }
  if (evidence.schema !== SYSTEM_EVIDENCE_SCHEMA || evidence.system !== system || evidence.run !== run) {
    throw new TlcOutputError(`${rel}: not ${system}'s ${run} evidence`);
  }
  for (const [file, sha] of [
    [evidence.spec, evidence.specSha256],
    [evidence.config, evidence.configSha256],
  ] as const) {
    if (!existsSync(join(root, file))) return { evidence, freshness: { fresh: false, reason: `${file} is gone` } };
    if (sha256File(join(root, file)) !== sha) return { evidence, freshness: { fresh: false, reason: `${file} changed since TLC ran (stale evidence): ${RERUN}` } };
  }
  for (const f of [evidence.states, evidence.edges]) {
    if (!f) continue;
    const p = join(root, f.file);
    if (!existsSync(p) || sha256File(p) !== f.sha256) return { evidence, freshness: { fresh: false, reason: `${f.file} is missing or does not match its hash in ${rel}` } };
  }
  return { evidence, freshness: { fresh: true } };
}

/** A committed canonical state list (one key a line, sorted, no duplicates); throws TlcOutputError otherwise. */
export function readCanonicalStateList(path: string, root = projectRoot): string[] {
  const lines = readFileSync(join(root, path), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  for (let i = 1; i < lines.length; i++) if (!(lines[i - 1]! < lines[i]!)) throw new TlcOutputError(`${path}: line ${i + 1} is not sorted after line ${i} (or repeats it)`);
  if (lines.length === 0) throw new TlcOutputError(`${path}: no states`);
  return lines;
}

/** The base run's graph as committed (states and edges resolved and checked against the record), or why not. */
export function readBaseGraph(system: string, root = projectRoot): { graph: StateGraph; evidence: SystemEvidence } | { reason: string } {
  const { evidence, freshness } = readSystemEvidence(system, 'base', root);
  if (!evidence || !freshness.fresh) return { reason: freshness.fresh ? 'no base evidence' : freshness.reason };
  if (!evidence.states) return { reason: `${systemEvidencePath(system, 'base')} names no state list` };
  if (!evidence.edges) return { reason: `${systemEvidencePath(system, 'base')} names no edge list: ${RERUN}` };
  try {
    const states = readCanonicalStateList(evidence.states.file, root);
    if (states.length !== evidence.states.count || (evidence.distinct !== undefined && states.length !== evidence.distinct))
      return { reason: `${evidence.states.file} holds ${states.length} states, the record says ${evidence.distinct}` };
    const edges = indexedTextToEdges(readFileSync(join(root, evidence.edges.file), 'utf8'), states, evidence.edges.file);
    const e = evidence.edges;
    if (edges.length !== e.count) return { reason: `${e.file} holds ${edges.length} edges, the record says ${e.count}` };
    if (linesSha256(edges) !== e.canonicalSha256) return { reason: `the edge lines of ${e.file} do not match canonicalSha256` };
    if (evidence.generated !== undefined && evidence.generated !== e.initialStates + e.generatedEdges)
      return { reason: `TLC generated ${evidence.generated} states, but ${e.initialStates} initial + ${e.generatedEdges} edges were dumped` };
    const selfLoops = edges.filter((l) => l.slice(0, l.indexOf('|')) === l.slice(l.lastIndexOf('|') + 1)).length;
    return { evidence, graph: { states, edges, selfLoops, generatedEdges: e.generatedEdges, initialStates: e.initialStates } };
  } catch (err) {
    return { reason: (err as Error).message };
  }
}

/**
 * The tla-layer verdicts the committed evidence records, for a reader without Java (verify's
 * `evidence` fallback): `killed` only when the record is fresh and its violated invariant is the
 * entry's expected one; stale or missing evidence is `not-run`, said why.
 */
export function evidenceMutantResults(entries: readonly MutantEntry[], root = projectRoot): MutantResult[] {
  return entries.map((m): MutantResult => {
    const base = { id: m.id, layer: 'tla' as const, expectedInvariant: m.expectedInvariant };
    const { evidence, freshness } = readSystemEvidence(m.system, m.id, root);
    if (!evidence || !freshness.fresh) return { ...base, verdict: 'not-run', reason: freshness.fresh ? 'no evidence' : freshness.reason };
    if (evidence.config !== m.layers.tla?.config)
      return { ...base, verdict: 'not-run', reason: `${systemEvidencePath(m.system, m.id)} was made with ${evidence.config}, the manifest names ${m.layers.tla?.config}` };
    if (evidence.mutant?.target !== m.target || evidence.mutant.expectedInvariant !== m.expectedInvariant)
      return { ...base, verdict: 'not-run', reason: `${systemEvidencePath(m.system, m.id)} was made for another manifest entry` };
    const tracePath = systemEvidencePath(m.system, m.id);
    const extra = {
      ...(evidence.traceLength !== undefined && { traceLength: evidence.traceLength }),
      ...(evidence.durationMs !== undefined && { durationMs: evidence.durationMs }),
      ...(evidence.trace !== undefined && { tracePath }),
    };
    if (evidence.violated === undefined) return { ...base, verdict: evidence.outcome === 'ok' ? 'survived' : 'invalid', reason: `TLC ${evidence.outcome} (${tracePath})` };
    return evidence.violated === m.expectedInvariant
      ? { ...base, verdict: 'killed', violated: evidence.violated, ...(evidence.alsoBroken && { alsoBroken: evidence.alsoBroken }), ...extra }
      : { ...base, verdict: 'wrong-invariant', violated: evidence.violated, reason: `TLC reported ${evidence.violated}, expected ${m.expectedInvariant}`, ...extra };
  });
}

/** A per-run JSON result under reports/tlc/ (ignored by git): what `fencecheck tlc` saw this time. */
export function writeRunReport(name: string, value: unknown, root = projectRoot): string {
  const rel = `reports/tlc/${name}.json`;
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), `${JSON.stringify(value, null, 2)}\n`);
  return rel;
}
