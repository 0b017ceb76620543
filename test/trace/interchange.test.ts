/**
 * Trace interchange: TLC's -dumpTrace json (real files from test/tlc/fixtures/, captured with the
 * parser fixtures) and ITF, imported into fencecheck.trace/1, exported back as ITF, shown by the CLI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { toFencingTrace } from '../../src/systems/fencing/tlc/trace.js';
import { toItf } from '../../src/trace/export-itf.js';
import type { FencingTrace, TlaTrace } from '../../src/core/trace-format.js';
import { foreignFormat, importTrace } from '../../src/trace/import.js';
import { unrollLassoOnce } from '../../src/trace/lasso.js';
import { TraceFormatError, validateAnyTrace, validateTrace } from '../../src/trace/load.js';
import { runCli } from '../verify/run-cli.js';
import { fixturePath } from '../tlc/captures.js';
import { m1Trace } from './fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const json = (name: string): unknown => JSON.parse(readFileSync(fixturePath(name), 'utf8'));
const tmp = (name: string, content: unknown) => {
  const p = join(ownedTempDir('itf'), name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
/** An ITF file as Apalache writes one: no actions, model values as strings, every integer #bigint. */
function bareItf(t: FencingTrace): Record<string, unknown> {
  const itf = JSON.parse(JSON.stringify(toItf(t))) as { '#meta': unknown; states: Record<string, unknown>[] };
  for (const [i, s] of itf.states.entries()) s['#meta'] = { index: i };
  itf['#meta'] = { format: 'ITF', source: 'RedisClusterFencingMigration.tla' };
  return itf;
}

describe('trace import: TLC -dumpTrace json', () => {
  it('turns the M1 counterexample into the same fencing trace as the -tool output of the same run', () => {
    const raw = json('mutant-M1.dumptrace.json');
    expect(foreignFormat(raw)).toBe('tlc-json');
    const t = importTrace(raw, { mutant: 'M1' }) as FencingTrace;
    expect(t.system).toBe('fencing');
    const fromTool = toFencingTrace(parseToolOutput(readFileSync(fixturePath('mutant-M1.out'), 'utf8')).trace, { pods: ['p1', 'p2', 'p3'], maxGen: 4 });
    expect(t.steps.map((s) => [s.action, s.params, s.state])).toEqual(fromTool.steps.map((s) => [s.action, s.params, s.state]));
    expect(t).toMatchObject({ source: 'tlc', mutant: 'M1', bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 }, brokenAtEnd: ['Inv_SingleAuthority'], imported: { format: 'tlc-json' } });
  });

  it('keeps any other spec as a system "tla" trace, and reads a lasso and a stuttering end', () => {
    const v = importTrace(json('values.dumptrace.json')) as TlaTrace;
    expect(v).toMatchObject({ system: 'tla', vars: ['i', 's', 'q', 'r', 'f', 'g', 'str', 'mv', 'nested', 'lz'] });
    expect(v.steps[0]!.state.i).toEqual([{ '#bigint': '1' }, { '#bigint': '2' }, { '#bigint': '3' }]); // TLC's JSON writes sets as arrays
    const loop = importTrace(json('liveness-loop.dumptrace.json')) as TlaTrace;
    expect(loop.steps).toHaveLength(3);
    expect(loop).toMatchObject({ loop: 0, loopAction: { action: 'Step', params: { k: { '#bigint': '1' } } } });
    expect(importTrace(json('liveness-stutter.dumptrace.json'))).toMatchObject({ loop: 0, loopAction: { action: 'Stuttering' } });
  });
});

describe('trace import/export: ITF', () => {
  it('round-trips a fencing trace through ITF (actions in #meta, bounds and mutant in the trace #meta)', () => {
    const t = validateTrace(JSON.parse(JSON.stringify(m1Trace())));
    const itf = toItf(t);
    expect(itf['#meta']).toMatchObject({ format: 'ITF' });
    expect(itf.states[8]).toMatchObject({ '#meta': { index: 8, action: 'AcquireB', params: { p: 'p1' } }, newGen: { '#bigint': '2' }, version: { '#map': [['p1', 'B'], ['p2', 'A'], ['p3', 'A']] } });
    const back = importTrace(JSON.parse(JSON.stringify(itf))) as FencingTrace;
    expect(back).toMatchObject({ source: 'itf', mutant: 'M1', bounds: t.bounds, violated: 'Inv_SingleAuthority' });
    expect(back.steps.map((s) => [s.action, s.params, s.state])).toEqual(t.steps.map((s) => [s.action, s.params, s.state]));
  });

  it('infers the actions of an ITF file that names none with the XState model, and says so', () => {
    const t = importTrace(bareItf(m1Trace()), { mutant: 'M1' }) as FencingTrace;
    expect(t.steps.map((s) => [s.action, s.params])).toEqual(m1Trace().steps.map((s) => [s.action, s.params]));
    expect(t.imported!.notes.join('\n')).toMatch(/actions of step\(s\) 1, 2, 3, 4, 5, 6, 7, 8 inferred from the state changes with the XState model/);
    expect(t.imported!.notes.join('\n')).toMatch(/MaxGen is not in the trace/);
  });

  it('reads Apalache/Quint conventions: "p1_OF_POD" model values, mbt::actionTaken and mbt::nondetPicks', () => {
    const itf = bareItf(m1Trace()) as { vars: string[]; states: Record<string, unknown>[] };
    itf.vars.push('mbt::actionTaken', 'mbt::nondetPicks');
    const steps = m1Trace().steps;
    itf.states.forEach((s, i) => {
      s['mbt::actionTaken'] = i === 0 ? 'init' : steps[i]!.action;
      s['mbt::nondetPicks'] = steps[i]!.params.p ? { p: { tag: 'Some', value: `${steps[i]!.params.p}_OF_POD` } } : { p: { tag: 'None', value: {} } };
      (s.oldLease as { owner: string }).owner = `${(s.oldLease as { owner: string }).owner}_OF_POD`.replace('None_OF_POD', 'None');
    });
    const t = importTrace(itf) as FencingTrace;
    expect(t.steps.map((s) => [s.action, s.params])).toEqual(steps.map((s) => [s.action, s.params]));
    expect(t.imported!.notes.join()).not.toMatch(/inferred/);
    expect(t.steps[8]!.state.oldLease).toEqual({ owner: 'p2', gen: 1 });
  });

  it('carries a lasso: ITF loop, the closing action in #meta, inferred when absent', () => {
    const base = validateTrace(JSON.parse(JSON.stringify(m1Trace())));
    const lasso: FencingTrace = { ...base, steps: base.steps.slice(0, 2), loop: 0, loopAction: { action: 'RollbackPhase', params: {} } };
    const itf = toItf(lasso);
    expect(itf.loop).toBe(0);
    expect(importTrace(JSON.parse(JSON.stringify(itf)))).toMatchObject({ loop: 0, loopAction: { action: 'RollbackPhase' } });
    const bare = { ...bareItf(lasso), loop: 0 };
    const t = importTrace(bare) as FencingTrace;
    expect(t).toMatchObject({ loop: 0, loopAction: { action: 'RollbackPhase', params: {} } });
    expect(t.imported!.notes.join()).toMatch(/closing action inferred/);
    const once = unrollLassoOnce(lasso);
    expect(once.trace.steps.map((s) => s.action)).toEqual(['Init', 'AdvanceTarget', 'RollbackPhase']);
    expect(once.trace.steps[2]!.state).toEqual(lasso.steps[0]!.state);
    expect(once.note).toMatch(/stem and the loop once/);
  });

  it('refuses malformed input, naming the place', () => {
    const bad = (mutate: (x: Record<string, unknown>) => void) => {
      const x = bareItf(m1Trace());
      mutate(x);
      return () => importTrace(x);
    };
    expect(bad((x) => ((x.states as Record<string, unknown>[])[2]!.oldGen = { '#bigint': '1.5' }))).toThrow(/states\[2\]\.oldGen: #bigint must be a string of digits/);
    expect(bad((x) => ((x.states as Record<string, unknown>[])[1]!.mode = { '#foo': 1 }))).toThrow(/unknown ITF tag #foo/);
    expect(bad((x) => (x.loop = 42))).toThrow(/loop must index a state/);
    expect(bad((x) => delete (x.states as Record<string, unknown>[])[3]!.target)).toThrow(/states\[3\] lacks variable target/);
    expect(bad((x) => ((x.states as Record<string, unknown>[])[4]!.oldGen = { '#bigint': '3' }))).toThrow(/step 4 names no action, and no action of the fencing model/);
    expect(() => importTrace({ hello: 1 })).toThrow(TraceFormatError);
  });

  it('validates loop fields in fencecheck.trace/1', () => {
    const t = JSON.parse(JSON.stringify(m1Trace())) as Record<string, unknown>;
    expect(() => validateAnyTrace({ ...t, loop: 9 })).toThrow(/loop must be the index of a state of the trace \(0\.\.8\)/);
    expect(() => validateAnyTrace({ ...t, loopAction: { action: 'X', params: {} } })).toThrow(/loopAction needs loop/);
    expect(validateAnyTrace({ ...t, loop: 3, loopAction: { action: 'X', params: {} } })).toMatchObject({ loop: 3 });
  });
});

describe('fencecheck trace show / import / export', () => {
  it('shows a -dumpTrace json file and an ITF file directly, with the lasso line', async () => {
    const m1 = await runCli(['trace', 'show', fixturePath('mutant-M1.dumptrace.json'), '--no-color']);
    expect(m1.code).toBe(0);
    expect(m1.stdout).toMatch(/imported from tlc-json/);
    expect(m1.stdout).toMatch(/^8\s+AcquireB\s+p1\b.*Inv_SingleAuthority$/m);
    const live = await runCli(['trace', 'show', fixturePath('liveness-loop.dumptrace.json'), '--no-color']);
    expect(live.stdout).toMatch(/lasso: after step 2, Step\(1\) goes back to state 0/);
    const itf = await runCli(['trace', 'show', tmp('m1.itf.json', bareItf(m1Trace())), '--json']);
    expect(itf.code).toBe(0);
    expect((JSON.parse(itf.stdout) as { steps: { action: string }[] }).steps[8]!.action).toBe('AcquireB');
  });

  it('imports to a file and exports ITF; bad input exits 3, usage 64', async () => {
    const out = join(ownedTempDir('imp'), 'm1.json');
    const imp = await runCli(['trace', 'import', fixturePath('mutant-M1.dumptrace.json'), '--mutant', 'M1', '-o', out]);
    expect(imp.code).toBe(0);
    expect(imp.stderr).toMatch(/converted from TLC -dumpTrace json/);
    expect(validateTrace(JSON.parse(readFileSync(out, 'utf8')))).toMatchObject({ mutant: 'M1' });
    const exp = await runCli(['trace', 'export', out, '--itf']);
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout)).toMatchObject({ '#meta': { format: 'ITF' }, vars: expect.arrayContaining(['version']) });
    expect((await runCli(['trace', 'import', out])).stderr).toMatch(/already a fencecheck.trace\/1 trace/);
    expect((await runCli(['trace', 'import', tmp('x.json', '{"vars":[],"states":[]}')])).code).toBe(3);
    expect((await runCli(['trace', 'export', out])).code).toBe(64);
    expect((await runCli(['trace', 'import', out, '--max-gen', 'x'])).code).toBe(64);
    const replayTla = await runCli(['trace', 'replay', fixturePath('values.dumptrace.json')]);
    expect(replayTla.code).toBe(3);
    expect(replayTla.stderr).toMatch(/a trace of another spec \(system "tla"\): only the fencing system's traces replay/);
  });
});
