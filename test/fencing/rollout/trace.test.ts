// The rehearsal's observed trace (src/systems/fencing/rollout/trace.ts), built from steps written by
// hand as the pods and the controller report them, and judged by real TLC: each step maps to the
// spec action its reply names; an owner seen on a new image is upgraded; a lease gone with no step
// to remove it is an expiry only when the server's clock had passed its PTTL; a step the server
// counted and nobody reported is any action. A run whose B renew moves the lease without deleting
// the old key is rejected at that MigrateB step, naming oldLease.
import { describe, expect, it } from 'vitest';
import type { ObservedStep } from '../../../src/seam/tracecheck/format.js';
import { judgeTraces } from '../../../src/systems/fencing/rollout/judge.js';
import type { KeyspaceSeen } from '../../../src/systems/fencing/rollout/observed-call.js';
import { type PodOp, rolloutTraces, sessionTrace, type TraceEntry } from '../../../src/systems/fencing/rollout/trace.js';
import type { Phase } from '../../../src/systems/fencing/state.js';
import { locateTlc } from '../../../src/tlc/locate.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

const S = 'rehearsal:s0';
let seq = 0;
let clock = 1_000_000;
/** The session as a step left it; `after` ms on the server's clock since the step before. */
function seen(keys: { oldLease?: string; newLease?: string; oldGen?: number; newGen?: number }, after = 10): KeyspaceSeen {
  clock += after;
  return {
    seq: ++seq,
    atMs: clock,
    oldLease: keys.oldLease ?? null,
    newLease: keys.newLease ?? null,
    oldGen: keys.oldGen !== undefined ? String(keys.oldGen) : null,
    newGen: keys.newGen !== undefined ? String(keys.newGen) : null,
    oldTtlMs: keys.oldLease ? 600 : -2,
    newTtlMs: keys.newLease ? 600 : -2,
  };
}
const pod = (podName: string, phase: Phase, owner: string, op: PodOp, reply: unknown, s: KeyspaceSeen): TraceEntry => ({
  kind: 'pod',
  session: S,
  pod: podName,
  phase,
  owner,
  op,
  reply,
  seen: s,
});
const gate = (step: 'AdvanceTarget' | 'Backfill' | 'RollbackPhase', target: Phase, backfilled: boolean, s: KeyspaceSeen): TraceEntry => ({
  kind: 'gate',
  session: S,
  step,
  target,
  mode: 'disabled',
  backfilled,
  seen: s,
});

/** O → A → B with a hand-over, the backfill and C: what a run of the real scripts reports. */
function goodRun(opts: { keepOldOnMigrate?: boolean } = {}): TraceEntry[] {
  seq = 0;
  const a = 'relay-2-0000/reliable';
  const c = 'relay-4-0002/huddle';
  const out: TraceEntry[] = [];
  out.push(gate('AdvanceTarget', 'A', false, seen({})));
  out.push(pod('relay-2-0000', 'A', a, 'acquire', ['ok', 1], seen({ oldLease: `${a}:1`, oldGen: 1 })));
  out.push(pod('relay-2-0000', 'A', a, 'renew', ['ok', 'old'], seen({ oldLease: `${a}:1`, oldGen: 1 })));
  out.push(pod('relay-2-0000', 'A', a, 'renew', ['ok', 'old'], seen({ oldLease: `${a}:1`, oldGen: 1 })));
  out.push(gate('AdvanceTarget', 'B', false, seen({ oldLease: `${a}:1`, oldGen: 1 })));
  // relay-2-0000 stopped; its lease is handed to a B pod, whose renew migrates it.
  out.push(pod('relay-3-0001', 'B', a, 'renew', ['migrated', 1], seen(opts.keepOldOnMigrate ? { oldLease: `${a}:1`, newLease: `${a}:1`, oldGen: 1 } : { newLease: `${a}:1`, oldGen: 1 })));
  out.push(gate('Backfill', 'B', true, seen({ newLease: `${a}:1`, oldGen: 1 })));
  out.push({ kind: 'backfill', session: S, seen: seen({ newLease: `${a}:1`, oldGen: 1, newGen: 1 }) });
  out.push(gate('AdvanceTarget', 'C', true, seen({ newLease: `${a}:1`, oldGen: 1, newGen: 1 })));
  out.push(pod('relay-4-0002', 'C', 'relay-4-0002/*', 'start', null, seen({ newLease: `${a}:1`, oldGen: 1, newGen: 1 })));
  // The lease expires (its PTTL, 600 ms, has passed); a C pod acquires.
  out.push(pod('relay-4-0002', 'C', c, 'acquire', ['ok', 2], seen({ newLease: `${c}:2`, oldGen: 1, newGen: 2 }, 700)));
  out.push(pod('relay-4-0002', 'C', c, 'release', ['released', 'new'], seen({ oldGen: 1, newGen: 2 })));
  return out;
}

/** A B pod started before the rollback whose first call on this session comes after it: its start step says it runs B. */
function lateAfterRollback(): TraceEntry[] {
  seq = 0;
  const b = 'relay-3-0001/reliable';
  return [
    gate('AdvanceTarget', 'A', false, seen({})),
    pod('relay-2-0000', 'A', 'relay-2-0000/*', 'start', null, seen({})),
    gate('AdvanceTarget', 'B', false, seen({})),
    pod('relay-3-0001', 'B', 'relay-3-0001/*', 'start', null, seen({})),
    gate('RollbackPhase', 'A', false, seen({})),
    pod('relay-3-0001', 'B', b, 'acquire', ['ok', 1], seen({ newLease: `${b}:1`, newGen: 1 })),
    pod('relay-2-0000', 'A', 'relay-2-0000/reliable', 'acquire', ['held', b, 1], seen({ newLease: `${b}:1`, newGen: 1 })),
  ];
}

const claims = (steps: readonly ObservedStep[]) =>
  steps.slice(1).map((s) => {
    const list = Array.isArray(s.action) ? s.action : s.action === undefined ? undefined : [s.action];
    if (list === undefined) return 'any';
    const names = list.map((c: { name: string; args?: readonly unknown[] }) => (c.args?.length ? `${c.name}(${c.args.join(',')})` : c.name));
    return names.length === 0 ? 'stutter' : names.join('|');
  });

describe('the rehearsal as an observed trace of the fencing spec', () => {
  it('maps each reported step to the action its reply names, upgrades owners seen on a new image, and infers expiry only past the PTTL', () => {
    const t = sessionTrace(goodRun(), { id: 'hand' });
    expect(claims(t.steps)).toEqual([
      'AdvanceTarget',
      'UpgradePod(o_relay_2_0000_reliable)',
      'AcquireA(o_relay_2_0000_reliable)',
      'stutter', // two renews that only extend the TTL, with one observation: one line
      'UpgradePod(o_relay_4_0002_huddle)', // an owner not seen since the roll, caught up on the gate's observation
      'AdvanceTarget',
      'UpgradePod(o_relay_2_0000_reliable)', // its lease handed to a B pod
      'MigrateB(o_relay_2_0000_reliable)',
      'stutter', // the gate's yes to the backfill: the merge is its own line
      'UpgradePod(o_relay_4_0002_huddle)',
      'Backfill',
      'AdvanceTarget',
      'UpgradePod(o_relay_4_0002_huddle)', // its pod starts on the C image
      'stutter',
      'ExpireNew', // 700 ms after the line before, past its 600 ms PTTL
      'AcquireC(o_relay_4_0002_huddle)',
      'ExpireNew', // the release
    ]);
    expect(t.constants).toEqual({ Pods: '{o_relay_2_0000_reliable, o_relay_4_0002_huddle}', MaxGen: '2' });
    expect(t.steps[3]!.vars).toMatchObject({ oldLease: '[owner |-> o_relay_2_0000_reliable, gen |-> 1]', lastIssued: '1' });
  });

  it('does not call a lease expired before its PTTL has passed on the server clock, and names a step nobody reported', () => {
    const entries = goodRun();
    // The C pod's acquire 100 ms after the line before: the B lease (PTTL 600 ms) cannot have expired.
    const i = entries.findIndex((e) => e.kind === 'pod' && e.op === 'acquire' && e.phase === 'C');
    const early = entries.map((e, j) => (j === i ? { ...e, seen: { ...e.seen, atMs: entries[j - 1]!.seen.atMs + 100 } } : e));
    expect(claims(sessionTrace(early, { id: 'early' }).steps)).not.toContain('ExpireNew|');
    expect(claims(sessionTrace(early, { id: 'early' }).steps).filter((c) => c === 'ExpireNew')).toHaveLength(1); // the release's only
    const gap = entries.filter((_, j) => j !== 2);
    const t = sessionTrace(gap, { id: 'gap' });
    expect(claims(t.steps)).toContain('any');
    expect(t.steps.slice(1).find((s) => s.action === undefined)!.note).toMatch(/1 step\(s\) the server counted and no one reported/);
  });

  it('gives every session of a run the same constants (one TLC run), and leaves out a session no pod touched', () => {
    const a = goodRun();
    const b = a.map((e) => ({ ...e, session: 'rehearsal:s1' }));
    const idle = a.filter((e) => e.kind === 'gate').map((e) => ({ ...e, session: 'rehearsal:s2' }));
    const ts = rolloutTraces([...a, ...b, ...idle], { id: 'run' });
    expect(ts.map((t) => t.id)).toEqual(['run session rehearsal:s0', 'run session rehearsal:s1']);
    expect(new Set(ts.map((t) => JSON.stringify(t.constants))).size).toBe(1);
  });

  it.skipIf(!located.ok)(`TLC accepts the run of the real scripts and rejects, at its MigrateB, a renew that leaves the old key${why}`, async () => {
    const good = sessionTrace(goodRun(), { id: 'real scripts' });
    const broken = sessionTrace(goodRun({ keepOldOnMigrate: true }), { id: 'renew without the DEL' });
    const j = await judgeTraces([good, broken, sessionTrace(lateAfterRollback(), { id: 'a B pod first seen after the rollback' })]);
    expect(j.verdict).toBe('rejected');
    if (j.verdict === 'not run') return;
    expect(j.accepted).toBe(2);
    expect(j.rejected).toHaveLength(1);
    const r = j.rejected[0]!;
    expect(r.id).toBe('renew without the DEL');
    expect(r.claimed).toBe('MigrateB(o_relay_2_0000_reliable)');
    expect(r.step).toBe(claims(broken.steps).indexOf('MigrateB(o_relay_2_0000_reliable)') + 1);
    expect(r.reason).toMatch(/oldLease = \[owner \|-> None, gen \|-> 0\].*observed oldLease = \[owner \|-> o_relay_2_0000_reliable, gen \|-> 1\]/);
    expect(j.distinctStates).toBeGreaterThan(0);
  });
});
