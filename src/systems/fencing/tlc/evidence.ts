import { EVIDENCE_SCHEMA, type EvidenceCore } from '../../../tlc/evidence-core.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FencingBounds } from '../state.js';
import { loadManifest, mutantsFor, type MutantEntry } from '../../../core/manifest.js';
import type { Verdict } from '../../../core/verdict.js';
import { projectRoot } from '../../../core/project-root.js';
import type { FencingTrace } from '../../../core/trace-format.js';
import { BASE_CONFIG_PATH, SPEC_PATH, sha256File } from './config.js';
import { canonicalEdgesSha256, indexedTextToEdges, isSelfLoop, type PodParameterSource } from './edges.js';

/**
 * Committed TLC evidence (evidence/tlc/fencing/): what TLC reported for the base config and each mutant
 * config, pinned to the SHA-256 of the spec and of the config it ran. Reading it needs no Java.
 */
export const EVIDENCE_DIR = 'evidence/tlc/fencing';
export const BASE_EVIDENCE = `${EVIDENCE_DIR}/base.json`;
export const BASE_STATES = `${EVIDENCE_DIR}/base.states.txt`;
export const BASE_EDGES = `${EVIDENCE_DIR}/base.edges.txt`;
export { EVIDENCE_SCHEMA };
export const RERUN = 'rerun `fencecheck tlc --mutants --write-evidence`';

/** Fencing's record: the common fields (src/tlc/evidence-core.ts) plus its bounds, edges and traces. */
export interface RunEvidence extends EvidenceCore {
  readonly bounds: FencingBounds;
  /** Base only: the labelled state graph (`-dump dot,actionlabels`), see EdgeEvidence. */
  readonly edges?: EdgeEvidence;
  readonly verdict?: Verdict;
  readonly violated?: string;
  readonly alsoBroken?: readonly string[];
  readonly traceLength?: number;
  readonly reason?: string;
  readonly trace?: FencingTrace;
  /** TLC printed a trace that could not be read: which step and variable (the outcome and counts still stand). */
  readonly traceProblem?: string;
}

/**
 * evidence/tlc/fencing/base.edges.txt: one line `FROM<TAB>Action(p)<TAB>TO` per labelled edge, FROM/TO the
 * 1-based line numbers of the states in base.states.txt. `sha256` is the file's; `canonicalSha256` is
 * that of the sorted `canonicalKey(from)|Action(p)|canonicalKey(to)` lines (src/systems/fencing/tlc/edges.ts), which
 * the XState side can recompute without the file.
 */
export interface EdgeEvidence {
  readonly file: string;
  readonly sha256: string;
  /** Distinct labelled edges, self-loops included. */
  readonly count: number;
  /** Edges whose successor is the state itself (Backfill once backfilled, ReverseMerge with oldGen >= newGen). */
  readonly selfLoops: number;
  readonly canonicalSha256: string;
  /** Edge lines TLC wrote (duplicates included); `generated` = initial states + this. */
  readonly dotEdges: number;
  readonly initialStates: number;
  readonly podParameter: PodParameterSource;
}

export type EvidenceStatus = { ok: true } | { ok: false; reason: string };

export interface StateDump {
  readonly states: readonly string[];
  readonly specSha256: string;
  readonly tlcVersion: string;
  readonly generated: number;
  readonly distinct: number;
  readonly durationMs: number;
  readonly bounds: FencingBounds;
}

/** The base run's labelled edges (sorted canonical lines) and their recorded figures. */
export interface EdgeDump {
  readonly edges: readonly string[];
  readonly evidence: EdgeEvidence;
  readonly tlcVersion: string;
  readonly generated: number;
  readonly bounds: FencingBounds;
}

export function mutantEvidencePath(id: string): string {
  return `${EVIDENCE_DIR}/${id}.json`;
}

class EvidenceProblem extends Error {}

const stale = (detail: string) => new EvidenceProblem(`stale TLC evidence: ${RERUN} (${detail})`);
const missing = (detail: string) => new EvidenceProblem(`no TLC evidence (${detail}): run \`fencecheck tlc --mutants --write-evidence\` where TLC is available`);

function readEvidence(root: string, rel: string): RunEvidence {
  const path = join(root, rel);
  if (!existsSync(path)) throw missing(`${rel} is missing`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw stale(`${rel} is not valid JSON: ${(err as Error).message}`);
  }
  const e = raw as Partial<RunEvidence>;
  if (e.schema !== EVIDENCE_SCHEMA) throw stale(`${rel} has schema ${JSON.stringify(e.schema)}, expected ${EVIDENCE_SCHEMA}`);
  for (const k of ['spec', 'specSha256', 'config', 'configSha256', 'tlcVersion', 'outcome'] as const) {
    if (typeof e[k] !== 'string' || e[k] === '') throw stale(`${rel} lacks ${k}`);
  }
  return e as RunEvidence;
}

/** Recomputes the spec's and config's hashes and compares them with the evidence's. */
function checkHashes(root: string, rel: string, e: RunEvidence, config: string): void {
  if (e.spec !== SPEC_PATH) throw stale(`${rel} was made for ${e.spec}, not ${SPEC_PATH}`);
  if (e.config !== config) throw stale(`${rel} was made with ${e.config}, the manifest names ${config}`);
  if (!existsSync(join(root, SPEC_PATH))) throw stale(`${SPEC_PATH} is missing`);
  if (sha256File(join(root, SPEC_PATH)) !== e.specSha256) throw stale(`${SPEC_PATH} changed since ${rel} was made`);
  if (!existsSync(join(root, config))) throw stale(`${config} is missing`);
  if (sha256File(join(root, config)) !== e.configSha256) throw stale(`${config} changed since ${rel} was made`);
}

function checkBase(root: string): RunEvidence {
  const base = readEvidence(root, BASE_EVIDENCE);
  checkHashes(root, BASE_EVIDENCE, base, BASE_CONFIG_PATH);
  if (!base.states) throw stale(`${BASE_EVIDENCE} names no state dump`);
  const statesPath = join(root, base.states.file);
  if (!existsSync(statesPath)) throw missing(`${base.states.file} is missing`);
  if (sha256File(statesPath) !== base.states.sha256) throw stale(`${base.states.file} does not match the hash in ${BASE_EVIDENCE}`);
  if (!base.edges) throw stale(`${BASE_EVIDENCE} names no labelled edge list (${BASE_EDGES})`);
  const edgesPath = join(root, base.edges.file);
  if (!existsSync(edgesPath)) throw missing(`${base.edges.file} is missing`);
  if (sha256File(edgesPath) !== base.edges.sha256) throw stale(`${base.edges.file} does not match the hash in ${BASE_EVIDENCE}`);
  return base;
}

function readStateLines(root: string, base: RunEvidence): string[] {
  const states = readFileSync(join(root, base.states!.file), 'utf8').split('\n').filter((l) => l !== '');
  if (states.length !== base.states!.count || (base.distinct !== undefined && states.length !== base.distinct)) {
    throw stale(`${base.states!.file} holds ${states.length} states, ${BASE_EVIDENCE} says ${base.distinct}`);
  }
  return states;
}

/** The edge file resolved against the state list, its count, self-loops and canonical hash checked. */
function readEdgeLines(root: string, base: RunEvidence, states: readonly string[]): string[] {
  const e = base.edges!;
  let edges: string[];
  try {
    edges = indexedTextToEdges(readFileSync(join(root, e.file), 'utf8'), states, e.file);
  } catch (err) {
    throw stale((err as Error).message);
  }
  if (edges.length !== e.count) throw stale(`${e.file} holds ${edges.length} edges, ${BASE_EVIDENCE} says ${e.count}`);
  const loops = edges.filter(isSelfLoop).length;
  if (loops !== e.selfLoops) throw stale(`${e.file} holds ${loops} self-loops, ${BASE_EVIDENCE} says ${e.selfLoops}`);
  if (canonicalEdgesSha256(edges) !== e.canonicalSha256) throw stale(`the canonical edge list of ${e.file} does not match canonicalSha256 in ${BASE_EVIDENCE}`);
  if (base.generated !== undefined && base.generated !== e.initialStates + e.dotEdges) {
    throw stale(`${BASE_EVIDENCE}: TLC generated ${base.generated} states, but ${e.initialStates} initial + ${e.dotEdges} edges were dumped`);
  }
  return edges;
}

function checkMutant(root: string, m: MutantEntry): RunEvidence {
  const rel = mutantEvidencePath(m.id);
  const e = readEvidence(root, rel);
  const config = m.layers.tla?.config;
  if (!config) throw stale(`${m.id} has no tla config in the manifest`);
  checkHashes(root, rel, e, config);
  if (e.mutant?.id !== m.id || e.mutant.target !== m.target || e.mutant.expectedInvariant !== m.expectedInvariant) {
    throw stale(`${rel} was made for another manifest entry (${JSON.stringify(e.mutant)})`);
  }
  if (!e.verdict) throw stale(`${rel} records no verdict`);
  if ((e.verdict === 'killed' || e.verdict === 'wrong-invariant') && (!e.trace || e.trace.steps.length === 0)) {
    throw stale(`${rel} records a ${e.verdict} verdict without its trace`);
  }
  return e;
}

/** Every evidence file the manifest calls for, checked; the first problem throws. */
export function loadAllEvidence(root = projectRoot): { base: RunEvidence; mutants: RunEvidence[] } {
  const base = checkBase(root);
  readEdgeLines(root, base, readStateLines(root, base));
  const manifest = loadManifest(join(root, 'mutants/manifest.json'));
  const mutants = mutantsFor(manifest, 'tla', 'fencing').map((m) => checkMutant(root, m));
  return { base, mutants };
}

/**
 * Fresh and complete: base + every tla-layer mutant of the manifest, each pinned to the current
 * spec and config hashes, each mutant with its verdict (and its trace when TLC produced one).
 */
export function evidenceStatus(root = projectRoot): EvidenceStatus {
  try {
    loadAllEvidence(root);
    return { ok: true };
  } catch (err) {
    if (err instanceof EvidenceProblem) return { ok: false, reason: err.message };
    return { ok: false, reason: `stale TLC evidence: ${RERUN} (${(err as Error).message})` };
  }
}

function asPlainError<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new Error(err instanceof EvidenceProblem ? err.message : `cannot read ${what}: ${(err as Error).message}`);
  }
}

/** The base run's labelled edges (sorted canonical lines), resolved against its state list and checked. */
export function readBaseEdges(root = projectRoot): EdgeDump {
  return asPlainError('the TLC edge list', () => {
    const base = checkBase(root);
    const edges = readEdgeLines(root, base, readStateLines(root, base));
    return { edges, evidence: base.edges!, tlcVersion: base.tlcVersion, generated: base.generated ?? 0, bounds: base.bounds };
  });
}

/** The base run's reachable states (canonicalKey() lines, sorted) and how TLC found them. */
export function readBaseStateDump(root = projectRoot): StateDump {
  const base = asPlainError('the TLC state dump', () => checkBase(root));
  const states = asPlainError('the TLC state dump', () => readStateLines(root, base));
  return {
    states,
    specSha256: base.specSha256,
    tlcVersion: base.tlcVersion,
    generated: base.generated ?? 0,
    distinct: base.distinct ?? states.length,
    durationMs: base.durationMs ?? base.wallMs,
    bounds: base.bounds,
  };
}
