/**
 * What the tour checks beyond the state graph, on the real keyspace: the TTL rules after every
 * attempt and the read-side rules in every state. Each check names the small bug that turns it red.
 */
import { fencingClient } from '../clients/index.js';
import type { KeyRole } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import { NONE, type FencingBounds, type FencingState, type Lease, type Pod } from '../state.js';
import { expectedKnown, expectedLookup } from '../../../../properties/fencing/checks.js';
import type { RealStep, StateCheckResult, TourCheckFailure } from '../../../seam/tour/system.js';
import type { Decision } from './attempts.js';
import type { FencingInstance, FencingObservation } from './execute.js';
import type { TourRig } from './rig.js';

const live = (l: Lease) => l.owner !== NONE;

/**
 * TTL rules: a live lease always has 0 < PTTL ≤ the pods' TTL (a lease written without PX: red);
 * a counter never has a TTL (a counter written with one: red); a lease just acquired or migrated,
 * and the key a renewal names, has the full TTL again (renewing the wrong key leaves the named one
 * at the injected, shorter TTL: red).
 */
export function ttlFailure(step: RealStep<FencingState, Decision, FencingObservation>, leaseTtlMs: number, injectedTtlMs: number): TourCheckFailure | null {
  const fresh = injectedTtlMs + (leaseTtlMs - injectedTtlMs) / 2;
  const { state } = step;
  const { ttl } = step.observation;
  const leaseKeys: [KeyRole, Lease][] = [
    ['oldLease', state.oldLease],
    ['newLease', state.newLease],
  ];
  for (const [role, lease] of leaseKeys) {
    if (!live(lease)) continue;
    const t = ttl[role];
    if (!(t > 0 && t <= leaseTtlMs)) return { check: 'TTL', message: `${role} ${lease.owner}/${lease.gen} has PTTL ${t}, want 0 < PTTL ≤ ${leaseTtlMs}` };
  }
  for (const role of ['oldGen', 'newGen'] as const) {
    if (ttl[role] >= 0) return { check: 'TTL', message: `${role} has PTTL ${ttl[role]}: a generation counter must never expire` };
  }
  const d = step.decision;
  let renewed: KeyRole | null = null;
  if (d.kind === 'renewed') renewed = d.where === 'old' ? 'oldLease' : 'newLease';
  if (d.kind === 'transition') {
    const t = d.event.type;
    if (t === 'AcquireO' || t === 'AcquireA') renewed = 'oldLease';
    if (t === 'AcquireB' || t === 'AcquireC' || t === 'MigrateB') renewed = 'newLease';
  }
  if (renewed !== null && !(ttl[renewed] > fresh)) {
    return { check: 'TTL', message: `after ${d.kind === 'transition' ? d.event.type : 'renew'}, ${renewed} has PTTL ${ttl[renewed]}, want the full TTL (> ${fresh} of ${leaseTtlMs})` };
  }
  return null;
}

const showLease = (l: Lease | null) => (l && live(l) ? `${l.owner}/${l.gen}` : 'none');

/**
 * The read-side rules in state s, for every version that runs in it (only C after the door), on a
 * fresh session put into s: lookup and known_generation follow the table; validate_fenced_header
 * passes the holder's frame exactly when it is not below the known generation, never passes a
 * frame below the last issued generation, and never passes another pod's frame with the holder's
 * generation (a validate without its owner check: red). Read-only scripts: the session stays in s.
 */
export async function readSideFailure(rig: TourRig, scripts: FencingScripts, s: FencingState, inst: FencingInstance, bounds: FencingBounds): Promise<StateCheckResult> {
  const { session } = inst;
  // Every answer, also those no rule judges (a validate's reason): the observed digest covers them.
  const answers: string[] = [];
  const conn = rig.conns[s.mode];
  const versions = [...new Set(Object.values(s.version))].filter((v) => s.mode === 'disabled' || v === 'C').sort();
  for (const v of versions) {
    const c = fencingClient(v, { conn, scripts, session });
    // Sent behind the injection's writes (which they run after); its errors surface here.
    const [, found, known] = await Promise.all([inst.injected, c.lookup(), c.knownGeneration()]);
    const want = expectedLookup(v, s);
    const got = found.kind === 'lease' ? { owner: found.owner as Lease['owner'], gen: found.gen } : null;
    answers.push(`${v}: lookup ${showLease(got)}, known ${known}`);
    if (showLease(got) !== showLease(want)) return { check: 'ReadSide', message: `${v}/lookup returned ${showLease(got)}, the table says ${showLease(want)}` };
    if (known !== expectedKnown(v, s)) return { check: 'ReadSide', message: `${v}/known_generation returned ${known}, the table says ${expectedKnown(v, s)}` };
    const checks: Promise<string | null>[] = [];
    if (want) {
      checks.push(
        c
          .validate(want.owner, want.gen)
          .then(
            (r) => (
              answers.push(`${v}: validate ${showLease(want)} ${r.valid} ${r.reason}`),
              r.valid !== want.gen >= known ? `${v}/validate_fenced_header(${showLease(want)}) = ${r.reason} with known generation ${known}` : null
            ),
          ),
      );
      const other = bounds.pods.find((p) => p !== want.owner) as Pod | undefined;
      if (other)
        checks.push(
          c
            .validate(other, want.gen)
            .then(
              (r) => (
                answers.push(`${v}: validate ${other}/${want.gen} ${r.valid} ${r.reason}`),
                r.valid ? `${v}/validate_fenced_header passed ${other}/${want.gen}, a frame of a pod that does not hold the lease (${showLease(want)})` : null
              ),
            ),
        );
    }
    if (s.lastIssued >= 1) {
      const owner = want?.owner ?? bounds.pods[0]!;
      const stale = s.lastIssued - 1;
      checks.push(
        c
          .validate(owner, stale)
          .then(
            (r) => (
              answers.push(`${v}: validate ${owner}/${stale} ${r.valid} ${r.reason}`),
              r.valid ? `${v}/validate_fenced_header passed a stale frame ${owner}/${stale} (last issued ${s.lastIssued})` : null
            ),
          ),
      );
    }
    const bad = (await Promise.all(checks)).find((m) => m !== null);
    if (bad) return { check: 'ReadSide', message: bad };
  }
  // The validates answer in any order: sorted, the answers are the same on every run.
  return { answers: answers.sort().join('; ') };
}

/** The TTL class of a key: none (no key), persistent, full (just set or renewed) or running down. */
function ttlClass(pttl: number, fresh: number): string {
  return pttl === -2 ? 'none' : pttl === -1 ? 'persistent' : pttl > fresh ? 'full' : 'running';
}

/**
 * What an attempt showed beyond its decision and successor (the observed digest's line): its reply
 * with the session's key names as their roles (each instance has its own session), and each key's
 * TTL class and raw value.
 */
export function observedLine(step: RealStep<FencingState, Decision, FencingObservation>, leaseTtlMs: number, injectedTtlMs: number): string {
  const fresh = injectedTtlMs + (leaseTtlMs - injectedTtlMs) / 2;
  const { ttl, values, keys } = step.observation;
  const roles = Object.keys(ttl) as KeyRole[];
  let note = step.note;
  for (const role of roles) note = note.split(keys[role]).join(`<${role}>`);
  // The new pair's hash tag is the session (`community:session`), which gate reasons name alone.
  const tag = /\{([^}]+)\}/.exec(keys.newLease)?.[1];
  if (tag) note = note.split(tag).join('<session>');
  const keyspace = roles
    .sort()
    .map((role) => `${role}=${values[role] ?? '-'}@${ttlClass(ttl[role], fresh)}`)
    .join(' ');
  return `${note}|${keyspace}`;
}

/** After every attempt: the TTL rules, then T3 on the wire (a CROSSSLOT, an old key among a script's KEYS after the door). */
export function stepFailure(step: RealStep<FencingState, Decision, FencingObservation>, leaseTtlMs: number, injectedTtlMs: number): TourCheckFailure | null {
  const ttl = ttlFailure(step, leaseTtlMs, injectedTtlMs);
  if (ttl) return ttl;
  const { breaches } = step.observation;
  return breaches.length > 0 ? { check: 'T3_SlotBreach', message: breaches.join('; ') } : null;
}
