/**
 * Committed TLC evidence of any ModelSystem (evidence/tlc/<system>/): TLC's counts, its reachable
 * states as the system's canonical keys (base.states.txt) and each mutant's violated invariant and
 * trace length, pinned to the SHA-256 of the spec and config TLC ran. Same schema as the fencing
 * evidence (src/systems/fencing/tlc/evidence.ts) minus its fencing-only parts (edges, traces).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFencingSystemEvidence } from '../systems/fencing/seam-evidence.js';
import { projectRoot } from '../core/project-root.js';
import { sha256File, sha256Text } from '../systems/fencing/tlc/config.js';
import { parseStateDumpWith } from '../tlc/dump.js';
import { TlcOutputError } from '../tlc/errors.js';
import { tlcArgs, type TlcRun } from '../tlc/run.js';
import { EVIDENCE_SCHEMA, evidenceCore, type EvidenceCore } from '../tlc/evidence-core.js';
import type { MutantEntry } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import type { ModelSystem, SystemMutant } from './system.js';

/** One schema for every system's evidence. */
export const SYSTEM_EVIDENCE_SCHEMA = EVIDENCE_SCHEMA;

/** A system's record: the common fields (src/tlc/evidence-core.ts) plus the system and the mutant's verdict. */
export interface SystemEvidence extends EvidenceCore {
  readonly system: string;
  readonly violated?: string;
  /** States in TLC's error trace, Init included. */
  readonly traceLength?: number;
}

export const systemEvidenceDir = (system: string): string => `evidence/tlc/${system}`;
export const systemEvidencePath = (system: string, run: string): string => `${systemEvidenceDir(system)}/${run}.json`;

/** The INVARIANT(S) a TLC config lists. */
export function cfgInvariants(text: string): string[] {
  const body = text.replace(/\\\*.*$/gm, '').replace(/\(\*[\s\S]*?\*\)/g, '');
  const inv = /\bINVARIANTS?\b([\s\S]*?)(?=\n\s*[A-Z_]{4,}\b(?!_)|$)/.exec(body);
  return inv ? inv[1]!.split(/\s+/).filter((s) => /^[A-Za-z_]\w*$/.test(s)) : [];
}

/** The printable command of a run (paths from the project root, the jar as `tla2tools.jar`). */
export function systemCommandLine(spec: string, config: string, dump: boolean): string {
  return ['java', ...tlcArgs('tla2tools.jar', config, spec, { metadir: '<tmp>', ...(dump && { dumpPath: '<tmp>/states.dump' }) })].join(' ');
}

/** The sorted, de-duplicated canonical keys of a TLC dump, read through the system's own mapping. */
export function dumpToSystemKeys<S, E>(sys: ModelSystem<S, E>, dumpText: string): string[] {
  return [...new Set(parseStateDumpWith(dumpText, (v) => sys.key(sys.fromTlc(v))))].sort();
}

function common<S, E>(sys: ModelSystem<S, E>, name: string, config: string, run: TlcRun, dump: boolean, root: string): SystemEvidence {
  const core = evidenceCore({ name, run, spec: sys.spec, config, bounds: sys.bounds, invariants: cfgInvariants(readFileSync(join(root, config), 'utf8')), command: systemCommandLine(sys.spec, config, dump), root });
  // `system` second, as every committed record has it.
  const { schema, ...rest } = core;
  return { schema, system: sys.name, ...rest };
}

/**
 * The base run's evidence and, when TLC finished without a violation and dumped, its canonical state
 * lines (a violated or cut-short run records its outcome and counts, never a partial state list).
 */
export function baseSystemEvidence<S, E>(sys: ModelSystem<S, E>, run: TlcRun, root = projectRoot): { evidence: SystemEvidence; states?: string[] } {
  const evidence = common(sys, 'base', sys.config, run, true, root);
  if (run.kind !== 'completed' || run.result.outcome !== 'ok') return { evidence };
  if (run.dumpText === undefined) throw new TlcOutputError(`${sys.name}: the base run left no state dump`);
  const states = dumpToSystemKeys(sys, run.dumpText);
  const file = `${systemEvidenceDir(sys.name)}/base.states.txt`;
  return { evidence: { ...evidence, states: { file, sha256: sha256Text(`${states.join('\n')}\n`), count: states.length } }, states };
}

export function mutantSystemEvidence<S, E>(sys: ModelSystem<S, E>, m: SystemMutant, config: string, run: TlcRun, root = projectRoot): SystemEvidence {
  const r = run.kind === 'completed' ? run.result : undefined;
  return {
    ...common(sys, m.id, config, run, false, root),
    mutant: { id: m.id, target: m.target, expectedInvariant: m.expected },
    ...(r?.violated !== undefined && { violated: r.violated, traceLength: r.trace.length }),
  };
}

export function writeSystemEvidence(evidence: SystemEvidence, states?: readonly string[], root = projectRoot): string[] {
  const write = (rel: string, text: string): string => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
    return rel;
  };
  const out = [write(systemEvidencePath(evidence.system, evidence.run), `${JSON.stringify(evidence, null, 2)}\n`)];
  if (states && evidence.states) out.push(write(evidence.states.file, `${states.join('\n')}\n`));
  return out;
}

export type Freshness = { readonly fresh: true } | { readonly fresh: false; readonly reason: string };

/** Committed evidence of one run, or why it cannot be used: missing, or the spec/config changed since TLC ran. */
export function readSystemEvidence(system: string, run: string, root = projectRoot): { evidence?: SystemEvidence; freshness: Freshness } {
  // Fencing's evidence stays where its own TLC runner writes it (evidence/tlc/fencing/, no system field).
  if (system === 'fencing') return readFencingSystemEvidence(run, root);
  const path = join(root, systemEvidencePath(system, run));
  if (!existsSync(path)) return { freshness: { fresh: false, reason: `no evidence ${systemEvidencePath(system, run)}` } };
  const evidence = JSON.parse(readFileSync(path, 'utf8')) as SystemEvidence;
  if (evidence.schema !== SYSTEM_EVIDENCE_SCHEMA || evidence.system !== system || evidence.run !== run) {
    throw new TlcOutputError(`${systemEvidencePath(system, run)}: not ${system}'s ${run} evidence`);
  }
  for (const [file, sha] of [[evidence.spec, evidence.specSha256], [evidence.config, evidence.configSha256]] as const) {
    if (!existsSync(join(root, file))) return { evidence, freshness: { fresh: false, reason: `${file} is gone` } };
    if (sha256File(join(root, file)) !== sha) return { evidence, freshness: { fresh: false, reason: `${file} changed since TLC ran (stale evidence)` } };
  }
  if (evidence.states) {
    const states = join(root, evidence.states.file);
    if (!existsSync(states) || sha256File(states) !== evidence.states.sha256) return { evidence, freshness: { fresh: false, reason: `${evidence.states.file} is missing or does not match its hash` } };
  }
  return { evidence, freshness: { fresh: true } };
}

/**
 * The tla-layer verdicts a seam system's committed evidence records, for a reader without Java
 * (verify's `evidence` fallback): `killed` only when the record is fresh and its violated invariant
 * is the entry's expected one; stale or missing evidence is `not-run`, said why.
 */
export function evidenceMutantResults(entries: readonly MutantEntry[], root = projectRoot): MutantResult[] {
  return entries.map((m): MutantResult => {
    const base = { id: m.id, layer: 'tla' as const, expectedInvariant: m.expectedInvariant };
    const { evidence, freshness } = readSystemEvidence(m.system, m.id, root);
    if (!evidence || !freshness.fresh) return { ...base, verdict: 'not-run', reason: freshness.fresh ? 'no evidence' : freshness.reason };
    if (evidence.config !== m.layers.tla?.config) return { ...base, verdict: 'not-run', reason: `${systemEvidencePath(m.system, m.id)} was made with ${evidence.config}, the manifest names ${m.layers.tla?.config}` };
    const tracePath = systemEvidencePath(m.system, m.id);
    if (evidence.violated === undefined) return { ...base, verdict: evidence.outcome === 'ok' ? 'survived' : 'invalid', reason: `TLC ${evidence.outcome} (${tracePath})` };
    return evidence.violated === m.expectedInvariant
      ? { ...base, verdict: 'killed', violated: evidence.violated, ...(evidence.traceLength !== undefined && { traceLength: evidence.traceLength }), ...(evidence.durationMs !== undefined && { durationMs: evidence.durationMs }) }
      : { ...base, verdict: 'wrong-invariant', violated: evidence.violated, reason: `TLC reported ${evidence.violated}, expected ${m.expectedInvariant}` };
  });
}
