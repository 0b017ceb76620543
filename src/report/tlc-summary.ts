/**
 * Gathers the TLC report (spec and config hashes, the dump hashes, TLC version and flags, bounds,
 * states, depth, invariants, time) from the
 * tlc stage when TLC ran here, else from the evidence stage (the committed evidence). The stages own
 * their `details` shapes, so fields are looked up by their usual names, a few levels deep.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';
import { tlcFlags } from './tlc-flags.js';
import type { StageOutcome, TlcDump, TlcSummary } from './verify-doc.js';

type Obj = Record<string, unknown>;

const NAMES = {
  specSha256: ['specSha256', 'specHash', 'specSHA256', 'sha256'],
  tlcVersion: ['tlcVersion', 'version'],
  bounds: ['bounds', 'constants'],
  generated: ['generated', 'statesGenerated', 'states_generated'],
  distinct: ['distinct', 'distinctStates', 'states_distinct'],
  depth: ['depth', 'diameter'],
  invariants: ['invariants', 'checkedInvariants'],
  durationMs: ['durationMs', 'timeMs', 'elapsedMs'],
  outcome: ['outcome', 'result'],
  config: ['config', 'configFile', 'cfg'],
  configSha256: ['configSha256', 'configHash', 'cfgSha256'],
  command: ['command', 'commandLine', 'cmd'],
} as const;

/** Per-run records the TLC engineer's code writes: the live run's, and the committed evidence. */
export const LIVE_BASE_RECORD = 'reports/tlc/base.json';
export const EVIDENCE_BASE_RECORD = 'evidence/tlc/fencing/base.json';

export function tlcSummary(outcomes: readonly StageOutcome[], root = projectRoot): TlcSummary | null {
  const tlc = outcomes.find((o) => o.stage === 'tlc');
  if (tlc?.report && (tlc.status === 'passed' || tlc.status === 'failed')) {
    const s = extract('live', merge(readRecord(root, LIVE_BASE_RECORD), tlc.report.details), tlc.report.counts);
    if (s) return s;
  }
  const evidence = outcomes.find((o) => o.stage === 'evidence');
  // Only evidence the stage has just checked (fresh hashes) is quoted.
  if (evidence?.report && (evidence.status === 'passed' || evidence.status === 'failed'))
    return extract('evidence', merge(readRecord(root, EVIDENCE_BASE_RECORD), evidence.report.details), evidence.report.counts);
  return null;
}

function readRecord(root: string, path: string): Obj | undefined {
  try {
    const raw: unknown = JSON.parse(readFileSync(resolve(root, path), 'utf8'));
    return isObj(raw) ? raw : undefined;
  } catch {
    return undefined;
  }
}

function merge(record: Obj | undefined, details: unknown): Obj {
  return { ...(record ?? {}), ...(isObj(details) ? details : {}) };
}

function extract(from: TlcSummary['from'], details: unknown, counts: Readonly<Record<string, number>> | undefined): TlcSummary | null {
  // Prefer the base run's block when the details hold one (base + mutants).
  const plain: Obj = isObj(details) ? details : {};
  const root: Obj = { ...plain, ...(counts ?? {}) };
  const scope = [pick(root, ['base', 'baseRun', 'baseResult']), root].filter(isObj);
  const find = (names: readonly string[], ok: (v: unknown) => boolean) => {
    for (const s of scope) {
      const v = deepFind(s, names, ok, 3);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const str = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const summary: Record<string, unknown> = {
    from,
    specSha256: find(NAMES.specSha256, (v) => str(v) && /^[0-9a-f]{16,}$/i.test(v)),
    tlcVersion: find(NAMES.tlcVersion, str),
    bounds: find(NAMES.bounds, isObj),
    generated: find(NAMES.generated, num),
    distinct: find(NAMES.distinct, num),
    depth: find(NAMES.depth, num),
    invariants: find(NAMES.invariants, (v) => Array.isArray(v) && v.every(str)),
    durationMs: find(NAMES.durationMs, num),
    outcome: find(NAMES.outcome, str),
    config: find(NAMES.config, (v) => str(v) && /\.cfg$/.test(v)),
    configSha256: find(NAMES.configSha256, (v) => str(v) && /^[0-9a-f]{16,}$/i.test(v)),
    // Not from `root`: the stage's counts (`edges`: a number) would hide the record's blocks.
    dumps: dumpsOf([pick(plain, ['base', 'baseRun', 'baseResult']), plain].filter(isObj)),
    command: find(NAMES.command, (v) => str(v) && /tlc2\.TLC/.test(v)),
  };
  if (typeof summary.command === 'string') summary.flags = tlcFlags(summary.command);
  for (const k of Object.keys(summary)) if (summary[k] === undefined) delete summary[k];
  return Object.keys(summary).length > 1 ? (summary as unknown as TlcSummary) : null;
}

/** `states` and `edges` blocks holding a sha256 (the record's dump files); counts of the same name are numbers and skipped. */
function dumpsOf(scope: readonly Obj[]): TlcSummary['dumps'] {
  const dump = (name: string): TlcDump | undefined => {
    for (const s of scope) {
      const v = s[name];
      if (isObj(v) && typeof v.sha256 === 'string')
        return { sha256: v.sha256, ...(typeof v.file === 'string' ? { file: v.file } : {}), ...(typeof v.count === 'number' ? { count: v.count } : {}) };
    }
    return undefined;
  };
  const states = dump('states');
  const edges = dump('edges');
  return states || edges ? { ...(states ? { states } : {}), ...(edges ? { edges } : {}) } : undefined;
}

function pick(o: Obj, names: readonly string[]): unknown {
  for (const n of names) if (o[n] !== undefined) return o[n];
  return undefined;
}

function deepFind(o: Obj, names: readonly string[], ok: (v: unknown) => boolean, depth: number): unknown {
  for (const n of names) if (ok(o[n])) return o[n];
  if (depth === 0) return undefined;
  for (const v of Object.values(o)) {
    if (isObj(v)) {
      const found = deepFind(v, names, ok, depth - 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
