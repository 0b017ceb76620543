/**
 * The rehearsal's checks on what really happened: T1 on the real keyspace all along (never a live
 * lease on both keys of one session), T2 on every generation a pod was issued (never twice for a
 * session, increasing for each owner), E1 on the pods running, and the old-keyspace census the gate
 * saw before C. Each violation is named by its invariant.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import { delay } from '../../../valkey/wait.js';
import { decodeLease } from '../encoding.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { PHASES, type Phase } from '../state.js';

/** The violations found so far, each named by its invariant. */
export class Violations {
  private readonly found: string[] = [];
  add(v: string): void {
    this.found.push(v);
  }
  get count(): number {
    return this.found.length;
  }
  /** Each distinct violation once, in the order first seen. */
  list(): string[] {
    return [...new Set(this.found)];
  }
}

/** T2: every generation issued, per session and per owner. */
export class GenerationLedger {
  private readonly issued = new Map<string, Set<number>>();
  private readonly lastByOwner = new Map<string, number>();
  constructor(private readonly violations: Violations) {}

  issue(session: string, gen: number, owner: string): void {
    const seen = this.issued.get(session) ?? new Set<number>();
    if (seen.has(gen)) this.violations.add(`T2: generation ${gen} of ${session} issued twice (again to ${owner})`);
    seen.add(gen);
    this.issued.set(session, seen);
    const last = this.lastByOwner.get(`${owner}@${session}`);
    if (last !== undefined && gen <= last) this.violations.add(`T2: ${owner} was issued ${gen} for ${session} after ${last}`);
    this.lastByOwner.set(`${owner}@${session}`, gen);
  }
}

export interface KeyspaceWatch {
  /** Stops reading and disconnects its client. */
  stop(): Promise<void>;
}

/** T1 on the real keyspace every 50 ms, through its own client (`reader`, disconnected on stop). */
export function watchT1(reader: ValkeyClient, sessions: readonly SessionRef[], violations: Violations, onRead: () => void): KeyspaceWatch {
  let watching = true;
  const loop = (async () => {
    while (watching) {
      try {
        const keys = sessions.flatMap((s) => [sessionKeys(s).oldLease, sessionKeys(s).newLease]);
        const vals = await reader.mget(...keys);
        onRead();
        sessions.forEach((s, i) => {
          const o = decodeLease(vals[2 * i] ?? null);
          const n = decodeLease(vals[2 * i + 1] ?? null);
          if (o && n) violations.add(`T1: ${s.community}:${s.session} has live leases on both keys: old ${o.owner}:${o.gen}, new ${n.owner}:${n.gen}`);
        });
      } catch {
        /* a read lost to the teardown */
      }
      await delay(50);
    }
    reader.disconnect();
  })();
  return {
    async stop() {
      watching = false;
      await loop;
    },
  };
}

/** The drain, judged after the run: C must have been allowed only on an observed old-keyspace count of 0. */
export function checkCensusBeforeC(oldCensusBeforeC: number | null, violations: Violations): void {
  if (oldCensusBeforeC !== null && oldCensusBeforeC !== 0) violations.add(`OldKeyspaceDrainedBeforeC: C was allowed with ${oldCensusBeforeC} live old-keyspace lease(s) observed`);
}

/**
 * E1, the assumption the gate discharges, on the pods really running: the fleet spans at most two
 * adjacent phases (a RollingUpdate's old and new). A pod two phases from another means the gate
 * let an image change through that the rollout had not earned.
 */
export function checkAdjacentPhases(running: readonly { readonly pod: string; readonly phase: Phase }[], violations: Violations): void {
  const ranks = [...new Set(running.map((p) => PHASES.indexOf(p.phase)))].sort();
  if (ranks.length <= 1 || (ranks.length === 2 && ranks[1]! - ranks[0]! === 1)) return;
  const by = ranks.map(
    (r) =>
      `${PHASES[r]} (${running
        .filter((p) => p.phase === PHASES[r])
        .map((p) => p.pod)
        .join(', ')})`,
  );
  violations.add(`E1_AdjacentPhases: the fleet runs ${by.join(' and ')}`);
}
