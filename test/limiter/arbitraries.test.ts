// The generated limiter cases are replayable: every decision (row, allow/deny, expiry) is the same for
// any real elapsed time within CASE_TIME_BOUND_MS. Checked on the model alone (no Valkey): each case
// is simulated the way harness.ts drives it, with the least and with arbitrary real-time noise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, expireIfIdle, step, type Stored } from '../../models/limiter/index.js';
import { bucketSpec } from '../../src/systems/limiter/index.js';
import { CASE_TIME_BOUND_MS, HORIZON_MARGIN_MS, limiterCaseArb, timeGridViolations, type LimiterCase } from '../../properties/limiter/arbitraries.js';
import { initialStored, ORDER } from '../../properties/limiter/harness.js';

const T0 = 1_800_000_000_000;

/**
 * Rows and decisions of a case when command i runs `offset(i)` ms of real time after the setup
 * (non-decreasing; calls strictly after the last write, as the harness waits).
 */
function decisions(c: LimiterCase, offset: (i: number) => number): string[] {
  const specs = [bucketSpec(c.specs[0]), bucketSpec(c.specs[1])] as const;
  const model: Stored[] = [initialStored(c.initial[0], T0, specs[0]), initialStored(c.initial[1], T0, specs[1])];
  const out: string[] = [];
  c.commands.forEach((cmd, i) => {
    const now = T0 + offset(i);
    if (cmd.op === 'advance') for (const k of [0, 1]) model[k] = advance(model[k]!, cmd.ms, now + HORIZON_MARGIN_MS);
    if (cmd.op !== 'call' && cmd.op !== 'drop-call') return;
    for (const k of [0, 1]) model[k] = expireIfIdle(advance(model[k]!, 0, now + HORIZON_MARGIN_MS), now);
    const idx = ORDER[cmd.order];
    // Whether an uncapped refill would pass capacity: what a refill-cap bug (L5) shows or not.
    const over = idx.map((k) => {
      const m = model[k]!;
      return m.kind === 'bucket' && m.tokens + Math.max(0, now - m.ts) * specs[k]!.refillMicroPerMs > specs[k]!.capacityMicro ? '+' : '';
    });
    const s = step(now, { spec: specs[idx[0]!]!, stored: model[idx[0]!]! }, idx[1] === undefined ? undefined : { spec: specs[idx[1]]!, stored: model[idx[1]]! });
    idx.forEach((k, j) => (model[k] = s.after[j]!));
    out.push(`${s.row}:${s.outcome.kind === 'decision' ? s.outcome.decision : s.outcome.code}${over.join('/')}`);
  });
  return out;
}

/** Strictly increasing offsets in [1, bound) from arbitrary non-negative gaps. */
function offsets(gaps: readonly number[], bound: number): (i: number) => number {
  const sums = gaps.map((_, i) => gaps.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const total = Math.max(1, sums.at(-1) ?? 1);
  const room = bound - 1 - gaps.length;
  return (i) => 1 + i + Math.floor(((sums[i] ?? 0) * room) / total);
}

describe('limiter arbitraries', () => {
  it('every generated case lies on the time grid', () => {
    for (const faults of [false, true]) {
      for (const c of fc.sample(limiterCaseArb(faults), 2000)) expect(timeGridViolations(c), JSON.stringify(c)).toEqual([]);
    }
  });

  it('no decision (nor a refill reaching past capacity) depends on real elapsed time below the bound', () => {
    const gaps = fc.array(fc.nat({ max: 1000 }), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(limiterCaseArb(true), gaps, (c, g) => {
        expect(decisions(c, offsets(g, CASE_TIME_BOUND_MS))).toEqual(decisions(c, (i) => i + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it('the simulation does see real time: beyond the bound a decision flips', () => {
    const c: LimiterCase = {
      specs: [
        { capacity: 1, refillPerSecond: 0.2, idleTtlMs: 10_000 },
        { capacity: 1, refillPerSecond: 0.2, idleTtlMs: 10_000 },
      ],
      initial: [{ kind: 'bucket', tokens: 0, ageMs: 0 }, { kind: 'absent' }],
      commands: [{ op: 'call', order: 'A' }],
    };
    expect(decisions(c, () => 1)).toEqual(['single-deny:1']);
    expect(decisions(c, () => 5000)).toEqual(['single-allow:0']);
    const expiring: LimiterCase = {
      ...c,
      specs: [{ capacity: 1, refillPerSecond: 0.001, idleTtlMs: 10_000 }, c.specs[1]],
      initial: [{ kind: 'bucket', tokens: 0, ageMs: 0 }, { kind: 'absent' }],
      commands: [
        { op: 'advance', ms: 5000 },
        { op: 'call', order: 'A' },
      ],
    };
    expect(decisions(expiring, (i) => i + 1)).toEqual(['single-deny:1']); // kept: expires 5 s later
    expect(decisions(expiring, (i) => 3000 + i)).toEqual(['single-allow:0']); // deleted within the margin: fresh
  });
});
