/**
 * The TLC block of the human report, one part per model: where the figures come from, the spec,
 * config and dump hashes (what parity and the evidence are pinned to), TLC's version and what its
 * flags mean in words — deadlock checking off is said, never left to the reader of a command line.
 */
import { formatDuration } from '../core/format.js';
import type { TlcDump } from '../core/report-details.js';
import { tlcFlagRows } from './tlc-flags.js';
import type { TlcSummary, VerifyReport } from './verify-doc.js';
import { stageStatusText, statusTone, type Block, type Section } from './view-types.js';

export function tlcSection(r: VerifyReport): Section {
  const tlc = r.stages.find((o) => o.stage === 'tlc');
  const blocks: Block[] = [];
  if (tlc) blocks.push({ kind: 'p', text: `TLC stage: ${stageStatusText(tlc)}${tlc.status === 'passed' ? '' : ` — ${tlc.reason ?? tlc.summary}`}`, tone: statusTone(tlc.status) });
  else blocks.push({ kind: 'p', text: 'TLC stage not selected.', tone: 'muted' });
  if (r.tlc.length === 0) blocks.push({ kind: 'p', text: 'No TLC figures: neither a live TLC run nor the evidence stage reported them.', tone: 'warn' });
  for (const s of r.tlc) blocks.push(...modelBlocks(s));
  return { id: 'tlc', title: 'TLC report', blocks };
}

function modelBlocks(s: TlcSummary): Block[] {
  const known = (v: number | undefined) => (v !== undefined ? String(v) : '?');
  const blocks: Block[] = [
    { kind: 'heading', text: s.spec !== undefined ? `${s.model} (${s.spec})` : s.model },
    {
      kind: 'kv',
      rows: [
        ['figures from', s.from === 'live' ? 'a TLC run on this machine' : 'the committed evidence (evidence/)'],
        ['spec SHA-256', s.specSha256 ?? '?'],
        ['config', s.config ?? '?'],
        ['config SHA-256', s.configSha256 ?? '?'],
        ['state dump SHA-256', dumpText(s.dumps?.states, 'states')],
        ['edge list SHA-256', dumpText(s.dumps?.edges, 'labelled edges')],
        ['TLC version', s.tlcVersion ?? '?'],
        ['bounds', boundsText(s.bounds)],
        ['states generated', known(s.generated)],
        ['distinct states', known(s.distinct)],
        ['depth', known(s.depth)],
        ['invariants', s.invariants?.join(', ') ?? '?'],
        ['time', s.durationMs !== undefined ? formatDuration(s.durationMs) : '?'],
        ...(s.outcome ? ([['outcome', s.outcome]] as [string, string][]) : []),
        // Unknown flags are said to be unknown: an absent command must not read as "deadlock checking on".
        ...(s.flags ? tlcFlagRows(s.flags) : ([['deadlock checking', 'unknown (no TLC command recorded)']] as [string, string][])),
      ],
    },
  ];
  if (s.command) blocks.push({ kind: 'p', text: 'TLC command line (as recorded):' }, { kind: 'code', text: s.command });
  return blocks;
}

function dumpText(d: TlcDump | undefined, what: string): string {
  if (!d) return '?';
  const about = [d.count !== undefined ? `${d.count} ${what}` : '', d.file ?? ''].filter(Boolean);
  return about.length > 0 ? `${d.sha256} (${about.join(', ')})` : d.sha256;
}

/** The spec's constants as recorded: `pods = {p1, p2, p3}, maxGen = 4` (a list is a TLA+ set). */
export function boundsText(b: unknown): string {
  if (b === undefined) return '?';
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return JSON.stringify(b);
  const value = (v: unknown): string => (Array.isArray(v) ? `{${v.map(value).join(', ')}}` : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  return (
    Object.entries(b)
      .map(([k, v]) => `${k} = ${value(v)}`)
      .join(', ') || '(none)'
  );
}
