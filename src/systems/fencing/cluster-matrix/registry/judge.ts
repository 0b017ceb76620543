/**
 * Judges discovery calls against the known population — never by the absence of errors:
 * - complete: every runtime live for at least one heartbeat interval before the call started, and
 *   still alive when it ended, is returned (bounded discoverability);
 * - sound: no corrupt or forged record is returned, and no record of a runtime that died and whose
 *   last record had expired before the call started.
 * A dead runtime whose record has not expired yet may be returned: the registry is a hint.
 */
import type { RuntimeTruth } from './population.js';

export interface DiscoveryCall {
  readonly t0: number;
  readonly t1: number;
  readonly returned: readonly string[];
}

export interface Judgement {
  readonly missed: string[];
  readonly forbidden: string[];
  /** found / required per call (calls with nothing required are left out). */
  readonly completeness: number[];
  readonly distinctSets: number;
  /** Per life: ms from live to the end of the first call that returned it. */
  readonly latenciesMs: number[];
}

/** Clock slack between the harness's Date.now() and the server's TTL start (same machine). */
const SLACK_MS = 50;

export function judgeDiscovery(calls: readonly DiscoveryCall[], truth: readonly RuntimeTruth[], heartbeatMs: number): Judgement {
  const missed: string[] = [];
  const forbidden: string[] = [];
  const completeness: number[] = [];
  const sets = new Set<string>();
  const byId = new Map(truth.map((r) => [r.id, r] as const));
  for (const [n, c] of calls.entries()) {
    const got = new Set(c.returned);
    sets.add([...got].sort().join(','));
    let required = 0;
    let found = 0;
    for (const r of truth) {
      if (r.kind !== 'honest') continue;
      const needed = r.lives.some((l) => l.liveAt !== undefined && l.liveAt <= c.t0 - heartbeatMs && (l.diedAt === undefined || l.diedAt > c.t1));
      if (!needed) continue;
      required++;
      if (got.has(r.id)) found++;
      else missed.push(`call ${n + 1} missed live runtime ${r.id}`);
    }
    if (required > 0) completeness.push(found / required);
    for (const id of got) {
      const r = byId.get(id);
      if (!r) forbidden.push(`call ${n + 1} returned ${id}, which never ran`);
      else if (r.kind !== 'honest') forbidden.push(`call ${n + 1} returned ${id}, whose record is ${r.kind === 'garbage' ? 'undecodable' : 'not attested'}`);
      else {
        const present = r.lives.some((l) => l.firstSentAt !== undefined && l.firstSentAt <= c.t1 && (l.diedAt === undefined || (l.lastExpiry ?? 0) + SLACK_MS >= c.t0));
        if (!present) forbidden.push(`call ${n + 1} returned ${id}, whose record had expired`);
      }
    }
  }
  const latenciesMs: number[] = [];
  for (const r of truth) {
    if (r.kind !== 'honest') continue;
    for (const l of r.lives) {
      if (l.liveAt === undefined) continue;
      const first = calls.find((c) => c.t0 >= l.liveAt! && c.returned.includes(r.id));
      if (first) latenciesMs.push(first.t1 - l.liveAt);
    }
  }
  return { missed, forbidden, completeness, distinctSets: sets.size, latenciesMs };
}
