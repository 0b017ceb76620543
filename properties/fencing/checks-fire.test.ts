import { describe, expect, it } from 'vitest';
import type { ImplPatch } from '../../src/systems/fencing/patch.js';
import { INVARIANT_NAMES } from '../../src/systems/fencing/invariants.js';
import { ALL_CHECKS, type CheckSet } from './checks.js';
import { formatFailure } from './props.js';
import { runFencingSuite, type SuiteTopology } from './suite.js';
import { openPropsEnv } from './env.js';
import { executeRun } from './run.js';
import type { Intent } from './intents.js';
import { DEFAULT_BOUNDS } from '../../src/systems/fencing/state.js';

// Every check of a property run must be able to fail. Each case runs the ordinary property suite on
// real Valkey against a deliberately broken implementation (an ImplPatch, exactly as an impl mutant
// is applied), with a fixed seed and few runs, and asserts the failure is reported by exactly the
// check the patch was built to trip — not by an invariant, not by another check.

/** Deletes, in every script `pick` selects, the one line containing `marker`; fails loudly if absent. */
function dropLine(pick: (script: string) => boolean, marker: string): NonNullable<ImplPatch['lua']> {
  return (script, source) => {
    if (!pick(script)) return source;
    const lines = source.split('\n');
    const i = lines.findIndex((l) => l.includes(marker));
    if (i < 0) throw new Error(`checks-fire patch: '${marker}' not found in ${script}.lua`);
    lines[i] = `-- checks-fire: removed ${lines[i]!.trim()}`;
    return lines.join('\n');
  };
}

interface FireCase {
  readonly check: string;
  readonly what: string;
  readonly patch: ImplPatch;
  readonly topology: SuiteTopology;
  readonly runs: number;
  readonly seed: number;
  readonly checks: CheckSet;
}

const CASES: readonly FireCase[] = [
  {
    check: 'Conformance',
    what: 'the O, A and C releases delete the lease without the owner+generation check',
    patch: { lua: dropLine((s) => ['O/release', 'A/release', 'C/release'].includes(s), 'if not fc_is(') },
    topology: 'standalone',
    runs: 20,
    seed: 1801,
    checks: ALL_CHECKS,
  },
  {
    check: 'ReadSide',
    what: "B's lookup reads only the old key (the new lease is never returned)",
    patch: { lua: dropLine((s) => s === 'B/lookup', "if newLease then return fc_found(newLease, 'new') end") },
    topology: 'standalone',
    runs: 40,
    seed: 1802,
    checks: ALL_CHECKS,
  },
];

describe('each property check fires on an implementation built to trip it', () => {
  for (const c of CASES) {
    it(`${c.check}: ${c.what}`, async () => {
      const t0 = performance.now();
      const r = await runFencingSuite({ topology: c.topology, runs: c.runs, doorRuns: 0, maxCommands: 60, seed: c.seed, patch: c.patch, checks: c.checks });
      const f = r.failed?.result.failure;
      console.log(`${c.check}: ${f ? formatFailure(f) : (r.failed?.result.error ?? 'passed')} in ${Math.round(performance.now() - t0)} ms`);
      expect(r.notRun, 'an infrastructure fault is not a verdict').toBeUndefined();
      expect(r.failed?.result.error).toBeUndefined();
      expect(r.passed).toBe(false);
      expect(f?.check, f ? formatFailure(f) : 'no failure').toBe(c.check);
    }, 60_000);
  }
});

// T3 on the wire (an old key among a script's KEYS after the door) cannot be the first failure of a
// suite run with every check on: a pod below C after the door already breaks Inv_SlotRulesSafe on the
// observed state of the step that put it there, before any of its calls. And a run that leaves that
// invariant out meets CROSSSLOT on the first two-key B/O/A script, which the driver records as a
// breach; run.ts turns that rejection into a refused step whose breach checkStep reports. So the wire
// check is shown through the same executeRun/checkStep a suite run uses, on fixed histories: a
// single-key O script sending an old key, and a two-key O acquire the cluster rejects with CROSSSLOT;
// every other check stays on.
describe("T3 on the wire fires through the run's own checks after the door", () => {
  it('T3_SlotBreach: the door opens over an O fleet holding an old lease (three EnterCompatible rules dropped); O/release then sends the old key', async () => {
    const t0 = performance.now();
    const patch: ImplPatch = { dropGateRules: ['EnterCompatible_FleetOnC', 'EnterCompatible_Backfilled', 'EnterCompatible_OldLeaseFree'] };
    const env = await openPropsEnv('door', { patch, bounds: DEFAULT_BOUNDS });
    try {
      const intents: Intent[] = [
        { kind: 'acquire', p: 'p1' },
        { kind: 'gate', step: 'EnterCompatible' },
        { kind: 'release', p: 'p1' },
      ];
      const checks: CheckSet = { ...ALL_CHECKS, invariants: INVARIANT_NAMES.filter((n) => n !== 'Inv_SlotRulesSafe') };
      const r = await executeRun({ ...env.ctx, checks }, intents, 'release');
      console.log(`T3_SlotBreach: ${r.failure ? `${r.failure.check} at step ${r.failure.step}: ${r.failure.message}` : 'passed'} in ${Math.round(performance.now() - t0)} ms`);
      expect(r.records.map((x) => `${x.intent}:${x.status}`)).toEqual(['acquire(p1):applied', 'gate(EnterCompatible):applied', 'release(p1):applied']);
      expect(r.crossedDoor).toBe(true);
      expect(r.failure?.check).toBe('T3_SlotBreach');
      expect(r.failure?.step).toBe(2);
      expect(r.failure?.message).toMatch(/O\/release consults old key/);
    } finally {
      await env.close();
    }
  }, 60_000);

  it('T3_SlotBreach: after the same door, O/acquire (old lease and counter: two slots) is rejected with CROSSSLOT — a finding, not a run error', async () => {
    const patch: ImplPatch = { dropGateRules: ['EnterCompatible_FleetOnC', 'EnterCompatible_Backfilled', 'EnterCompatible_OldLeaseFree'] };
    const env = await openPropsEnv('door', { patch, bounds: DEFAULT_BOUNDS });
    try {
      const intents: Intent[] = [
        { kind: 'gate', step: 'EnterCompatible' },
        { kind: 'acquire', p: 'p1' },
      ];
      const checks: CheckSet = { ...ALL_CHECKS, invariants: INVARIANT_NAMES.filter((n) => n !== 'Inv_SlotRulesSafe') };
      const r = await executeRun({ ...env.ctx, checks }, intents, 'release');
      expect(r.records.map((x) => `${x.intent}:${x.status}`)).toEqual(['gate(EnterCompatible):applied', 'acquire(p1):refused']);
      expect(r.failure?.check).toBe('T3_SlotBreach');
      expect(r.failure?.step).toBe(1);
      expect(r.failure?.message).toMatch(/CROSSSLOT/);
    } finally {
      await env.close();
    }
  }, 60_000);
});
