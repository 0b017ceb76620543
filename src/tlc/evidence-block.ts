/**
 * A TLC evidence record (fencecheck.tlc-evidence/1: the committed evidence/tlc/<system>/base.json,
 * or a live run's record under reports/tlc/) as the TLC block a stage's report carries
 * (src/core/report-details.ts TlcModelBlock): one per model, whatever the system.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TlcDump, TlcModelBlock } from '../core/report-details.js';
import type { EvidenceCore } from './evidence-core.js';

/** The fields of an evidence record the block needs; a base record may add its labelled edge list. */
export type EvidenceRecord = Pick<
  EvidenceCore,
  'spec' | 'specSha256' | 'config' | 'configSha256' | 'tlcVersion' | 'bounds' | 'invariants' | 'command' | 'outcome' | 'generated' | 'distinct' | 'depth' | 'durationMs' | 'states'
> & {
  readonly edges?: { readonly file?: string; readonly sha256: string; readonly count?: number };
};

const dump = (d: { readonly file?: string; readonly sha256: string; readonly count?: number }): TlcDump => ({
  sha256: d.sha256,
  ...(d.file !== undefined ? { file: d.file } : {}),
  ...(d.count !== undefined ? { count: d.count } : {}),
});

export function tlcModelBlock(e: EvidenceRecord, from: TlcModelBlock['from']): TlcModelBlock {
  const dumps = { ...(e.states ? { states: dump(e.states) } : {}), ...(e.edges ? { edges: dump(e.edges) } : {}) };
  return {
    model: basename(e.spec, '.tla'),
    from,
    spec: e.spec,
    specSha256: e.specSha256,
    config: e.config,
    configSha256: e.configSha256,
    tlcVersion: e.tlcVersion,
    bounds: e.bounds,
    invariants: e.invariants,
    command: e.command,
    outcome: e.outcome,
    ...(e.generated !== undefined ? { generated: e.generated } : {}),
    ...(e.distinct !== undefined ? { distinct: e.distinct } : {}),
    ...(e.depth !== undefined ? { depth: e.depth } : {}),
    ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
    ...(Object.keys(dumps).length > 0 ? { dumps } : {}),
  };
}

/** A record written by a run (JSON), as a block; undefined when it is missing or not a record. */
export function readTlcModelBlock(path: string, from: TlcModelBlock['from']): TlcModelBlock | undefined {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<EvidenceRecord>;
    if (typeof raw.spec !== 'string' || typeof raw.specSha256 !== 'string') return undefined;
    return tlcModelBlock(raw as EvidenceRecord, from);
  } catch {
    return undefined;
  }
}
