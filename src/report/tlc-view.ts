/**
 * The TLC block of the human report: where the figures come from, the spec, config and dump hashes
 * (what parity and the evidence are pinned to), TLC's version and what its flags mean in words —
 * deadlock checking off is said, never left to the reader of a command line.
 */
import { tlcFlagRows } from './tlc-flags.js';
import type { TlcDump, VerifyReport } from './verify-doc.js';
import type { Block, Section, Tone } from './view.js';
import { formatDuration } from '../core/format.js';

export function tlcSection(r: VerifyReport, tone: (status: string) => Tone, statusText: (o: VerifyReport['stages'][number]) => string): Section {
  const tlc = r.stages.find((o) => o.stage === 'tlc');
  const blocks: Block[] = [];
  if (tlc) blocks.push({ kind: 'p', text: `TLC stage: ${statusText(tlc)}${tlc.status === 'passed' ? '' : ` — ${tlc.reason ?? tlc.summary}`}`, tone: tone(tlc.status) });
  else blocks.push({ kind: 'p', text: 'TLC stage not selected.', tone: 'muted' });
  const s = r.tlc;
  if (!s) {
    blocks.push({ kind: 'p', text: 'No TLC figures: neither a live TLC run nor the evidence stage reported them.', tone: 'warn' });
    return { id: 'tlc', title: 'TLC report', blocks };
  }
  const known = (v: number | undefined) => (v !== undefined ? String(v) : '?');
  blocks.push({
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
  });
  if (s.command) blocks.push({ kind: 'p', text: 'TLC command line (as recorded):' }, { kind: 'code', text: s.command });
  return { id: 'tlc', title: 'TLC report', blocks };
}

function dumpText(d: TlcDump | undefined, what: string): string {
  if (!d) return '?';
  const about = [d.count !== undefined ? `${d.count} ${what}` : '', d.file ?? ''].filter(Boolean);
  return about.length > 0 ? `${d.sha256} (${about.join(', ')})` : d.sha256;
}

export function boundsText(b: unknown): string {
  if (b === undefined) return '?';
  const o = b as { pods?: unknown; maxGen?: unknown };
  if (Array.isArray(o.pods) && typeof o.maxGen === 'number') return `Pods = {${o.pods.join(', ')}}, MaxGen = ${o.maxGen}`;
  return JSON.stringify(b);
}
