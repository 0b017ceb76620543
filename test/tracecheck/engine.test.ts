// The trace-validation engine (src/seam/tracecheck/) on real TLC, with traces written by hand against
// the fencing and failover specs: a trace the spec explains is accepted; one that skips an action, or
// holds a value no action can produce, is rejected at that step with the claimed action and the
// variables that disagree (what the spec gives there); unobserved variables are the spec's to choose;
// silent actions may happen between lines; every trace of a system and constants goes to one TLC run.
import { describe, expect, it } from 'vitest';
import { checkTraces, type TraceCheckResult } from '../../src/seam/tracecheck/check.js';
import { ObservedTraceError, type ObservedStep, type ObservedTrace } from '../../src/seam/tracecheck/format.js';
import type { TraceTarget } from '../../src/seam/tracecheck/target.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { failoverSystem } from '../../src/systems/fencing/failover/system.js';
import { FAILOVER_TRACE_VALIDATION } from '../../src/systems/fencing/failover/tracecheck.js';
import { locateTlc } from '../../src/tlc/locate.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const tools = located.ok ? located.tools : undefined;

const fencing = fencingSystem();
const FENCING: TraceTarget = { system: 'fencing', spec: fencing.spec, config: fencing.config, variables: fencing.variables };
const failover = failoverSystem();
const FAILOVER: TraceTarget = { system: 'failover', spec: failover.spec, config: failover.config, variables: failover.variables, ...FAILOVER_TRACE_VALIDATION };

const V0 = { version: '(p1 :> "O" @@ p2 :> "O" @@ p3 :> "O")', target: '"O"', oldLease: '[owner |-> None, gen |-> 0]', oldGen: '0', mode: '"disabled"' };
const trace = (id: string, steps: ObservedStep[], extra: Partial<ObservedTrace> = {}): ObservedTrace => ({ system: 'fencing', source: 'test', id, steps: [{ vars: V0 }, ...steps], ...extra });
const acquireO = (p: string, gen: number): ObservedStep => ({
  action: { name: 'AcquireO', args: [p] },
  vars: { oldLease: `[owner |-> ${p}, gen |-> ${gen}]`, oldGen: String(gen), lastIssued: String(gen) },
});

async function check(traces: ObservedTrace[], target: TraceTarget = FENCING): Promise<TraceCheckResult> {
  return checkTraces(traces, () => target, { ...(tools && { tools }) });
}
const verdict = (r: TraceCheckResult, id: string) => r.verdicts.find((v) => v.trace.id === id)!;

describe('trace validation against the fencing spec', () => {
  it.skipIf(!located.ok)(`accepts what the spec explains and rejects, at the step, what it cannot; all in one TLC run${why}`, async () => {
    const r = await check([
      trace('explained', [acquireO('p1', 1), { action: { name: 'ExpireOld' }, vars: { oldLease: '[owner |-> None, gen |-> 0]', oldGen: '1' } }, { action: [], stutter: true, vars: { oldGen: '1' } }]),
      // Skips UpgradePod(p1): p1 acquires on the A script while the spec still runs it on O.
      trace(
        'skips an action',
        [
          { action: { name: 'AdvanceTarget' }, vars: { target: '"A"' } },
          { action: { name: 'AcquireA', args: ['p1'] }, vars: { version: '(p1 :> "A" @@ p2 :> "O" @@ p3 :> "O")', oldLease: '[owner |-> p1, gen |-> 1]' } },
        ],
        { predicted: { step: 2, by: 'hand' } },
      ),
      // No action gives a first generation of 7.
      trace('impossible value', [{ action: { name: 'AcquireO', args: ['p1'] }, vars: { oldLease: '[owner |-> p1, gen |-> 1]', oldGen: '7' } }]),
      trace('two owners', [acquireO('p1', 1), acquireO('p2', 2)]),
      trace('a stutter that changed something', [{ action: [], stutter: true, vars: { oldGen: '1' } }]),
      trace('only some variables observed', [{ action: { name: 'AcquireO', args: ['p2'] }, vars: { lastIssued: '1' } }, { vars: { target: '"A"' } }, { views: { 'Rank(target)': '2' } }]),
      trace('alternatives', [
        {
          action: [
            { name: 'AcquireA', args: ['p3'] },
            { name: 'AcquireO', args: ['p3'] },
          ],
          vars: { oldLease: '[owner |-> p3, gen |-> 1]' },
        },
      ]),
      trace('a view no action gives', [{ action: { name: 'AdvanceTarget' }, views: { 'Rank(target)': '3' } }]),
      { system: 'fencing', source: 'test', id: 'bad initial state', steps: [{ vars: { oldGen: '3' } }] },
    ]);
    expect(r.batches).toHaveLength(1);
    expect(r.traces).toBe(9);
    expect(r.steps).toBe(3 + 2 + 1 + 2 + 1 + 3 + 1 + 1);
    expect(verdict(r, 'explained')).toMatchObject({ accepted: true, asPredicted: true });
    expect(verdict(r, 'only some variables observed').accepted).toBe(true);
    expect(verdict(r, 'alternatives').accepted).toBe(true);

    const skip = verdict(r, 'skips an action');
    expect(skip).toMatchObject({ accepted: false, asPredicted: true, rejection: { step: 2, claimed: 'AcquireA(p1)', successors: 0 } });
    expect(skip.rejection!.reason).toMatch(/step 2: AcquireA\(p1\) is not enabled in any state the log leads to/);

    const value = verdict(r, 'impossible value');
    expect(value).toMatchObject({ accepted: false, asPredicted: false, rejection: { step: 1, claimed: 'AcquireO(p1)', successors: 1 } });
    expect(value.rejection!.disagree).toEqual([{ name: 'oldGen', observed: '7', spec: '1' }]);

    expect(verdict(r, 'two owners').rejection).toMatchObject({ step: 2, claimed: 'AcquireO(p2)', successors: 0 });
    const stutter = verdict(r, 'a stutter that changed something').rejection!;
    expect(stutter).toMatchObject({ step: 1, claimed: 'stutter', disagree: [{ name: 'oldGen', observed: '1', spec: '0' }] });
    // Another action of Next (AcquireO of some pod) gives oldGen = 1: the step is explained, just not by its claim.
    expect(stutter.otherActions).toBeGreaterThan(0);
    expect(verdict(r, 'a view no action gives').rejection).toMatchObject({ step: 1, claimed: 'AdvanceTarget', disagree: [{ name: 'Rank(target)', observed: '3', spec: '2' }] });
    expect(verdict(r, 'bad initial state').rejection).toMatchObject({ step: 0, claimed: 'Init', disagree: [{ name: 'oldGen', observed: '3', spec: '0' }] });
  });

  it.skipIf(!located.ok)(`traces with other constants go to their own TLC run; a generation past the base MaxGen needs them${why}`, async () => {
    const long = (id: string, constants?: Record<string, string>) =>
      trace(
        id,
        [1, 2, 3, 4, 5].flatMap((g) => [acquireO('p1', g), { action: { name: 'ExpireOld' }, vars: { oldLease: '[owner |-> None, gen |-> 0]' } }]),
        constants ? { constants } : {},
      );
    const r = await check([long('base constants'), long('MaxGen 6', { MaxGen: '6' }), trace('short', [acquireO('p2', 1)])]);
    expect(r.batches).toHaveLength(2);
    expect(verdict(r, 'base constants').rejection).toMatchObject({ step: 9, claimed: 'AcquireO(p1)', successors: 0 });
    expect(verdict(r, 'MaxGen 6').accepted).toBe(true);
    expect(verdict(r, 'short').accepted).toBe(true);
  });

  it('refuses traces it cannot judge: an unknown variable, a value that is an expression, the mutation constant, an unknown constant', async () => {
    const bad = async (t: ObservedTrace) =>
      check([t]).then(
        () => 'accepted',
        (e: unknown) => e,
      );
    await expect(bad(trace('x', [{ vars: { leases: '1' } }]))).resolves.toEqual(expect.objectContaining({ name: 'ObservedTraceError', message: expect.stringMatching(/leases is not a variable/) }));
    await expect(bad(trace('x', [{ vars: { oldGen: 'oldGen + 1' } }]))).resolves.toBeInstanceOf(ObservedTraceError);
    await expect(bad(trace('x', [], { constants: { Dropped: '{"AcquireB_OldLeaseFree"}' } }))).resolves.toEqual(
      expect.objectContaining({ message: expect.stringMatching(/judged against the real spec \(Dropped = \{\}\)/) }),
    );
    await expect(bad(trace('x', [], { constants: { Pod: '{p1}' } }))).resolves.toEqual(expect.objectContaining({ message: expect.stringMatching(/constant Pod is not set by/) }));
  });
});

describe('trace validation against the failover spec', () => {
  const FREE = '[owner |-> None, gen |-> 0]';
  const acked = (id: string): ObservedTrace => ({
    system: 'failover',
    source: 'test',
    id,
    steps: [
      { vars: { failovers: '0' } },
      { action: { name: 'Acquire', args: ['p1'] }, vars: { primary: '[lease |-> [owner |-> p1, gen |-> 1], gen |-> 1]' } },
      // Told "applied": the spec's WaitAcked needs the replica to hold generation 1, which only a Replicate (not logged) gives.
      { action: { name: 'WaitAcked', args: [null] }, views: { 'held[p1]': '1' } },
      { action: { name: 'Release', args: ['p1'] }, views: { 'primary.lease': FREE, 'held[p1]': '0' } },
      { action: { name: 'Failover' }, vars: { failovers: '1' } },
      // The new primary lost the release (the replica had not had it): the lease is back, the counter kept.
      { action: [], stutter: true, views: { 'primary.lease': '[owner |-> p1, gen |-> 1]' } },
    ],
  });

  it.skipIf(!located.ok)(`a silent action (Replicate) may happen between lines; without it the acknowledgement is rejected${why}`, async () => {
    const withSilent = await check([acked('silent Replicate')], FAILOVER);
    expect(withSilent.verdicts[0]).toMatchObject({ accepted: true });
    const without = await check([acked('no silent action')], { ...FAILOVER, silent: [] });
    expect(without.verdicts[0]!.rejection).toMatchObject({ step: 2, claimed: 'WaitAcked(_)', successors: 0 });
  });
});
