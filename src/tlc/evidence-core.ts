/**
 * The fields every TLC evidence record has, whatever the system (fencing's evidence/tlc/fencing/*.json and
 * each system's evidence/tlc/<system>/*.json): what ran, the hashes of the spec and config TLC read,
 * TLC's version, outcome and counts. Each record adds its own parts (bounds, edges, traces).
 */
import { join } from 'node:path';
import { sha256File } from '../core/hash.js';
import type { TlcRun } from './run.js';

export const EVIDENCE_SCHEMA = 'fencecheck.tlc-evidence/1' as const;

export interface EvidenceCore {
  readonly schema: typeof EVIDENCE_SCHEMA;
  /** `base` or a mutant id. */
  readonly run: string;
  readonly spec: string;
  readonly specSha256: string;
  readonly config: string;
  readonly configSha256: string;
  /** TLC's version line as it printed it. */
  readonly tlcVersion: string;
  readonly bounds: unknown;
  /** The config's INVARIANTS. */
  readonly invariants: readonly string[];
  readonly command: string;
  readonly outcome: string;
  readonly generated?: number;
  readonly distinct?: number;
  readonly depth?: number;
  /** TLC's own "Finished in" time. */
  readonly durationMs?: number;
  readonly wallMs: number;
  readonly recordedAt: string;
  /** Base only: the sorted canonical keys of every distinct state. */
  readonly states?: { readonly file: string; readonly sha256: string; readonly count: number };
  /** Mutants only. */
  readonly mutant?: { readonly id: string; readonly target: string; readonly expectedInvariant: string };
}

export interface CoreInput {
  readonly name: string;
  readonly run: TlcRun;
  readonly spec: string;
  readonly config: string;
  readonly bounds: unknown;
  readonly invariants: readonly string[];
  readonly command: string;
  readonly root: string;
}

export function evidenceCore(i: CoreInput): EvidenceCore {
  const r = i.run.kind === 'completed' ? i.run.result : undefined;
  return {
    schema: EVIDENCE_SCHEMA,
    run: i.name,
    spec: i.spec,
    specSha256: sha256File(join(i.root, i.spec)),
    config: i.config,
    configSha256: sha256File(join(i.root, i.config)),
    tlcVersion: r?.version ?? 'unknown (TLC did not finish)',
    bounds: i.bounds,
    invariants: i.invariants,
    command: i.command,
    outcome: i.run.kind === 'timeout' ? 'timeout' : r!.outcome,
    ...(r?.generated !== undefined && { generated: r.generated }),
    ...(r?.distinct !== undefined && { distinct: r.distinct }),
    ...(r?.depth !== undefined && { depth: r.depth }),
    ...(r?.durationMs !== undefined && { durationMs: r.durationMs }),
    wallMs: i.run.wallMs,
    recordedAt: new Date().toISOString(),
  };
}
