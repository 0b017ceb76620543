/**
 * Trace interchange: TLC's -dumpTrace json (real files from test/tlc/fixtures/, captured with the
 * parser fixtures) and ITF in every action convention the tools write — real Quint files
 * (test/trace/fixtures/itf/: 0.33's mbt::actionTaken/mbt::nondetPicks, 0.22's action_taken/
 * nondet_picks beside the variables, a tagged `lastAction` variable), and a file in Apalache's
 * documented shape (a tagged `action` variable, `name_OF_TYPE` model values) of another system —
 * imported into fencecheck.trace/2, exported back as ITF, shown by the CLI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import type { Trace } from '../../src/core/trace-format.js';
import { loadSystemManifest } from '../../src/registry/systems.js';
import type { ModelSystem } from '../../src/seam/system.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { eventAction, stateFromItf, tlcTrace } from '../../src/seam/trace.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { toItf } from '../../src/trace/export-itf.js';
import { foreignFormat, importTrace } from '../../src/trace/import.js';
import { unrollLassoOnce } from '../../src/trace/lasso.js';
import { TraceFormatError, validateTrace } from '../../src/trace/load.js';
import { runCli } from '../verify/run-cli.js';
import { fixturePath } from '../tlc/captures.js';
import { m1Trace, plain } from './fixtures.js';

const json = (name: string): unknown => JSON.parse(readFileSync(fixturePath(name), 'utf8'));
const itfFixture = (name: string) => join(projectRoot, 'test/trace/fixtures/itf', name);
const itfJson = (name: string): Record<string, unknown> => JSON.parse(readFileSync(itfFixture(name), 'utf8')) as Record<string, unknown>;
// Every file a test writes goes here, removed at the end (also when a test fails).
const scratch = mkdtempSync(join(tmpdir(), 'fencecheck-itf-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tmp = (name: string, content: unknown) => {
  const p = join(mkdtempSync(join(scratch, 'f-')), name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const actions = (t: Trace) => t.steps.map((s) => [s.action, s.params]);

/** An ITF file as Apalache writes one: no actions, model values as strings, every integer #bigint. */
function bareItf(t: Trace): Record<string, unknown> {
  const itf = plain(toItf(t)) as unknown as { '#meta': unknown; states: Record<string, unknown>[] };
  for (const [i, s] of itf.states.entries()) s['#meta'] = { index: i };
  itf['#meta'] = { format: 'ITF', source: 'RedisClusterFencingMigration.tla' };
  return itf as unknown as Record<string, unknown>;
}

/** Every step of the trace is an action instance the twin takes from the state before, to this state. */
function followsTwin<S, E>(twin: ModelSystem<S, E>, t: Trace): void {
  for (let i = 1; i < t.steps.length; i++) {
    const prev = stateFromItf(twin, t.steps[i - 1]!.state);
    const want = twin.key(stateFromItf(twin, t.steps[i]!.state));
    const fits = twin
      .successors(prev)
      .filter((x) => twin.key(x.state) === want)
      .map((x) => eventAction(twin, x.event));
    expect(fits, `step ${i}: ${t.steps[i]!.action}`).toContainEqual({ action: t.steps[i]!.action, params: t.steps[i]!.params });
  }
}

const m1Twin = () => mutatedSystem(fencingSystem(), loadSystemManifest().mutants.find((m) => m.id === 'M1')!);

describe('trace import: TLC -dumpTrace json', () => {
  it("turns the M1 counterexample into the same fencing trace as the seam's reading of the -tool output of the same run", async () => {
    const raw = json('mutant-M1.dumptrace.json');
    expect(foreignFormat(raw)).toBe('tlc-json');
    const t = await importTrace(raw, { mutant: 'M1' });
    const fromTool = tlcTrace(fencingSystem(), parseToolOutput(readFileSync(fixturePath('mutant-M1.out'), 'utf8')))!;
    expect(t.steps.map((s) => [s.action, s.params, s.state, s.broken])).toEqual(fromTool.steps.map((s) => [s.action, s.params, s.state, s.broken]));
    expect(t).toMatchObject({
      system: 'fencing',
      source: 'tlc',
      mutant: 'M1',
      bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 },
      brokenAtEnd: ['Inv_SingleAuthority'],
      imported: { format: 'tlc-json' },
    });
    expect(t.steps[1]!.params).toEqual({ p: 'p1' });
  });

  it('keeps any other spec as a system "tla" trace, and reads a lasso and a stuttering end', async () => {
    const v = await importTrace(json('values.dumptrace.json'));
    expect(v).toMatchObject({ system: 'tla', vars: ['i', 's', 'q', 'r', 'f', 'g', 'str', 'mv', 'nested', 'lz'] });
    expect(v.steps[0]!.state.i).toEqual([{ '#bigint': '1' }, { '#bigint': '2' }, { '#bigint': '3' }]); // TLC's JSON writes sets as arrays
    const loop = await importTrace(json('liveness-loop.dumptrace.json'));
    expect(loop.steps).toHaveLength(3);
    expect(loop).toMatchObject({ loop: 0, loopAction: { action: 'Step', params: { k: { '#bigint': '1' } } } });
    expect(await importTrace(json('liveness-stutter.dumptrace.json'))).toMatchObject({ loop: 0, loopAction: { action: 'Stuttering' } });
  });
});

describe("TLC's `Next` labels (real run of pause P1)", () => {
  const P1_OUT = join(projectRoot, 'test/trace/fixtures/tlc/pause-P1.out');
  const p1Twin = () => mutatedSystem(pauseSystem(), loadSystemManifest().mutants.find((m) => m.id === 'P1')!);

  it("names the action instances TLC labels only Next with the mutant's twin, and says so on the step", async () => {
    const r = parseToolOutput(readFileSync(P1_OUT, 'utf8'));
    expect(r.trace.map((s) => s.action).slice(-3)).toEqual(['Next', 'Next', 'Next']);
    const t = tlcTrace(pauseSystem(), r, { mutant: 'P1', twin: await p1Twin() })!;
    expect(t.steps.map((s) => s.action)).toEqual(['Init', 'Subscribe', 'Load', 'Ready', 'BeginSetPaused', 'BeginSetPaused', 'CommitSetPaused', 'CommitSetPaused', 'Deliver']);
    expect(t.steps[8]).toMatchObject({
      params: { r: 'r1', e: { paused: false, version: { '#bigint': '1' } } },
      broken: ['Inv_NoRevert'],
      note: expect.stringMatching(/^TLC labelled this step Next; Deliver\(r1, /),
    });
    followsTwin(await p1Twin(), t);
    // The base twin does not take P1's last step: it stays as TLC labelled it.
    expect(tlcTrace(pauseSystem(), r)!.steps[8]!.action).toBe('Next');
  });

  it("imports the same run's -dumpTrace json as the pause system's trace, with the same steps", async () => {
    const raw = JSON.parse(readFileSync(join(projectRoot, 'test/trace/fixtures/tlc/pause-P1.dumptrace.json'), 'utf8')) as unknown;
    const t = await importTrace(raw, { mutant: 'P1' });
    const fromTool = tlcTrace(pauseSystem(), parseToolOutput(readFileSync(P1_OUT, 'utf8')), { twin: await p1Twin() })!;
    expect(t.system).toBe('pause');
    expect(t.steps.map((s) => [s.action, s.params, s.state, s.broken])).toEqual(fromTool.steps.map((s) => [s.action, s.params, s.state, s.broken]));
    expect(t.imported!.notes.join('\n')).toMatch(/step\(s\) 6 \(Next\), 7 \(Next\), 8 \(Next\) name no action of the pause model: inferred instead/);
  });
});

describe('trace import/export: ITF', () => {
  it('round-trips a trace through ITF (actions in #meta; system, bounds, mutant and source in the trace #meta)', async () => {
    const t = m1Trace();
    const itf = toItf(t);
    expect(itf['#meta']).toMatchObject({ format: 'ITF', fencecheck: { system: 'fencing', mutant: 'M1' } });
    expect(itf.states[8]).toMatchObject({
      '#meta': { index: 8, action: 'AcquireB', params: { p: 'p1' } },
      newGen: { '#bigint': '2' },
      version: {
        '#map': [
          ['p1', 'B'],
          ['p2', 'A'],
          ['p3', 'A'],
        ],
      },
    });
    const back = await importTrace(plain(itf));
    expect(back).toMatchObject({ system: 'fencing', source: 'model', mutant: 'M1', bounds: t.bounds, violated: 'Inv_SingleAuthority' });
    expect(back.steps.map((s) => [s.action, s.params, s.state, s.broken])).toEqual(t.steps.map((s) => [s.action, s.params, s.state, s.broken]));
  });

  it("infers the actions of an ITF file that names none with the system's twin (the mutant's, else its model mutants'), and says so", async () => {
    const t = await importTrace(bareItf(m1Trace()), { mutant: 'M1' });
    expect(actions(t)).toEqual(actions(m1Trace()));
    expect(t.imported!.notes.join('\n')).toMatch(/actions of step\(s\) 1, 2, 3, 4, 5, 6, 7, 8 inferred from the state changes with the fencing\/M1 model's twin/);
    expect(t.imported!.notes.join('\n')).toMatch(/constants the states do not show are the base config's \(pods=\{p1, p2, p3\} maxGen=4\)/);
    // Without the mutant: the base twin refuses step 8 (AcquireB with the old lease held); a model mutant explains it.
    const without = await importTrace(bareItf(m1Trace()));
    expect(actions(without)).toEqual(actions(m1Trace()));
    expect(without.imported!.notes.join('\n')).toMatch(/with the fencing, fencing\/M1 model's twin/);
  });

  it('Quint ≥ 0.23 (real file): mbt::actionTaken and mbt::nondetPicks, instance qualifiers dropped, every variable kept', async () => {
    const t = await importTrace(itfJson('fencing-M1.quint-0.33.itf.json'), { mutant: 'M1' });
    expect(t.system).toBe('fencing');
    expect(t.vars).toEqual([...fencingSystem().variables, 'mbt::actionTaken', 'mbt::nondetPicks']);
    expect(t.steps[4]).toMatchObject({ action: 'UpgradePod', params: { p: 'p1' } });
    expect(t.steps.at(-1)).toMatchObject({ action: 'AcquireB', params: { p: 'p3' }, broken: ['Inv_SingleAuthority'] });
    expect(t.imported!.notes.join('\n')).toMatch(/actions read from mbt::actionTaken and their parameters from mbt::nondetPicks/);
    expect(t.imported!.notes.join('\n')).toMatch(/instance qualifiers dropped/);
    expect(t.imported!.notes.join('\n')).not.toMatch(/inferred/);
    followsTwin(await m1Twin(), t);
  });

  it('Quint ≤ 0.22 (real file): action_taken and nondet_picks, beside the variables — no step is "?"', async () => {
    const t = await importTrace(itfJson('fencing-M1.quint-0.22.itf.json'), { mutant: 'M1' });
    expect(t.system).toBe('fencing');
    expect(t.vars).toEqual([...fencingSystem().variables]);
    expect(t.imported!.notes.join('\n')).toMatch(/actions read from action_taken and their parameters from nondet_picks/);
    expect(t.imported!.notes.join('\n')).not.toMatch(/inferred/);
    expect(t.steps.at(-1)).toMatchObject({ action: 'AcquireB', broken: ['Inv_SingleAuthority'] });
    followsTwin(await m1Twin(), t);
    // A spec that is no system of the project: the same convention, read as it is.
    const counter = await importTrace(itfJson('counter.quint-0.22.itf.json'));
    expect(counter.system).toBe('tla');
    expect(actions(counter)).toEqual([
      ['Init', {}],
      ['step2', {}],
      ['step', { r: 'r1' }],
      ['step2', {}],
    ]);
  });

  it('a tagged action variable (real Quint file: lastAction = {tag, value}): the action and its parameters, and the variable kept', async () => {
    const t = await importTrace(itfJson('fencing-M1-tagged.quint-0.33.itf.json'), { mutant: 'M1' });
    expect(t.system).toBe('fencing');
    expect(t.vars).toContain('lastAction');
    expect(t.steps[5]).toMatchObject({ action: 'AcquireA', params: { p: 'p1' }, state: { lastAction: { tag: 'AcquireA', value: { p: 'p1' } } } });
    expect(t.imported!.notes.join('\n')).toMatch(/actions read from the variable lastAction \(a tagged record\)/);
    followsTwin(await m1Twin(), t);
  });

  it("another system's file in Apalache's shape (a tagged `action` variable, r1_OF_REPLICA): the pause system's trace, suffixes stripped", async () => {
    const t = await importTrace(itfJson('pause-P1.apalache-shape.itf.json'));
    expect(t.system).toBe('pause');
    expect(t.vars).toEqual([...pauseSystem().variables, 'action']);
    expect(JSON.stringify(t.steps.map((s) => [s.state, s.params]))).not.toMatch(/_OF_/);
    expect(t.steps.at(-1)).toMatchObject({ action: 'Deliver', params: { r: 'r1', e: { paused: false, version: { '#bigint': '1' } } }, broken: ['Inv_NoRevert'] });
    expect(t.steps[6]).toMatchObject({ action: 'CommitSetPaused', params: { c: { by: 'r1' } } });
    expect(t.imported!.notes.join('\n')).toMatch(/value\(s\) lost a type suffix/);
    followsTwin(await mutatedSystem(pauseSystem(), loadSystemManifest().mutants.find((m) => m.id === 'P1')!), t);
    // The same stripping for a spec that is none of the project's (every r1 typed, as Apalache writes
    // a model value: the nondet pick too).
    const counter = JSON.parse(readFileSync(itfFixture('counter.quint-0.22.itf.json'), 'utf8').replaceAll('"r1"', '"r1_OF_OWNER"')) as { states: Record<string, unknown>[] };
    for (const s of counter.states) if (s.owner === 'none') s.owner = 'none_OF_OWNER';
    expect((await importTrace(counter)).steps.map((s) => s.state.owner)).toEqual(['none', 'none', 'r1', 'r1']);
    // Typed in one place and bare in another, r1 names two values: kept as written.
    const partial = itfJson('counter.quint-0.22.itf.json') as { states: Record<string, unknown>[] };
    for (const s of partial.states) s.owner = `${String(s.owner)}_OF_OWNER`;
    const kept = await importTrace(partial);
    expect(kept.steps.map((s) => s.state.owner)).toEqual(['none', 'none', 'r1_OF_OWNER', 'r1_OF_OWNER']);
    expect(kept.imported!.notes.join('\n')).toMatch(/model values kept with their type suffix .*: r1/);
  });

  it('carries a lasso: ITF loop, the closing action in #meta, inferred when absent', async () => {
    const base = m1Trace();
    const lasso: Trace = { ...base, steps: base.steps.slice(0, 2), brokenAtEnd: [], loop: 0, loopAction: { action: 'RollbackPhase', params: {} } };
    const itf = toItf(lasso);
    expect(itf.loop).toBe(0);
    expect(await importTrace(plain(itf))).toMatchObject({ loop: 0, loopAction: { action: 'RollbackPhase' } });
    const t = await importTrace({ ...bareItf(lasso), loop: 0 });
    expect(t).toMatchObject({ loop: 0, loopAction: { action: 'RollbackPhase', params: {} } });
    expect(t.imported!.notes.join()).toMatch(/closing action inferred/);
    const once = unrollLassoOnce(lasso);
    expect(once.trace.steps.map((s) => s.action)).toEqual(['Init', 'AdvanceTarget', 'RollbackPhase']);
    expect(once.trace.steps[2]!.state).toEqual(lasso.steps[0]!.state);
    expect(once.note).toMatch(/stem and the loop once/);
  });

  it('refuses malformed input, naming the place', async () => {
    const bad = (mutate: (x: Record<string, unknown>) => void) => {
      const x = bareItf(m1Trace());
      mutate(x);
      return importTrace(x);
    };
    const states = (x: Record<string, unknown>) => x.states as Record<string, unknown>[];
    await expect(bad((x) => (states(x)[2]!.oldGen = { '#bigint': '1.5' }))).rejects.toThrow(/states\[2\]\.oldGen: #bigint must be a string of digits/);
    await expect(bad((x) => (states(x)[1]!.mode = { '#foo': 1 }))).rejects.toThrow(/unknown ITF tag #foo/);
    await expect(bad((x) => (x.loop = 42))).rejects.toThrow(/loop must index a state/);
    await expect(bad((x) => delete states(x)[3]!.target)).rejects.toThrow(/states\[3\] lacks variable target/);
    await expect(bad((x) => (states(x)[4]!.oldGen = { '#bigint': '3' }))).rejects.toThrow(/step 4 names no action, and no action of the fencing model \(nor of its model mutants\)/);
    await expect(bad((x) => (states(x)[2]!.target = 'Z'))).rejects.toThrow(/state 2 is not a state of the fencing model: target: expected one of/);
    await expect(importTrace({ hello: 1 })).rejects.toThrow(TraceFormatError);
    await expect(importTrace(bareItf(m1Trace()), { system: 'nosuch' })).rejects.toThrow(/no system named nosuch has a model/);
  });

  it('validates loop fields', () => {
    const t = plain(m1Trace()) as unknown as Record<string, unknown>;
    expect(() => validateTrace({ ...t, loop: 9 })).toThrow(/loop must be the index of a state of the trace \(0\.\.8\)/);
    expect(() => validateTrace({ ...t, loopAction: { action: 'X', params: {} } })).toThrow(/loopAction needs loop/);
    expect(validateTrace({ ...t, loop: 3, loopAction: { action: 'X', params: {} } })).toMatchObject({ loop: 3 });
  });
});

describe('fencecheck trace show / import / export / replay of foreign and other systems', () => {
  it('shows a -dumpTrace json file and a Quint ITF file directly, with the lasso line', async () => {
    const m1 = await runCli(['trace', 'show', fixturePath('mutant-M1.dumptrace.json'), '--no-color']);
    expect(m1.code).toBe(0);
    expect(m1.stdout).toMatch(/system=fencing .* imported from tlc-json/);
    expect(m1.stdout).toMatch(/^8\s+AcquireB\(p1\)\s.*Inv_SingleAuthority$/m);
    const live = await runCli(['trace', 'show', fixturePath('liveness-loop.dumptrace.json'), '--no-color']);
    expect(live.stdout).toMatch(/lasso: after step 2, Step\(1\) goes back to state 0/);
    const quint = await runCli(['trace', 'show', itfFixture('fencing-M1.quint-0.22.itf.json'), '--json']);
    expect(quint.code).toBe(0);
    const shown = JSON.parse(quint.stdout) as { system: string; steps: { action: string; broken: string[] }[] };
    expect(shown.system).toBe('fencing');
    expect(shown.steps.at(-1)).toMatchObject({ action: 'AcquireB(p3)', broken: ['Inv_SingleAuthority'] });
  });

  it('imports to a file and exports ITF; bad input exits 3, usage 64; no replay for a foreign spec (exit 2); an imported pause trace replays on the real code', async () => {
    const out = join(mkdtempSync(join(scratch, 'imp-')), 'm1.json');
    const imp = await runCli(['trace', 'import', fixturePath('mutant-M1.dumptrace.json'), '--mutant', 'M1', '-o', out]);
    expect(imp.code).toBe(0);
    expect(imp.stderr).toMatch(/converted from TLC -dumpTrace json/);
    expect(validateTrace(JSON.parse(readFileSync(out, 'utf8')))).toMatchObject({ mutant: 'M1', system: 'fencing' });
    const exp = await runCli(['trace', 'export', out, '--itf']);
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout)).toMatchObject({ '#meta': { format: 'ITF' }, vars: expect.arrayContaining(['version']) });
    expect((await runCli(['trace', 'import', out])).stderr).toMatch(/already a fencecheck trace/);
    expect((await runCli(['trace', 'import', tmp('x.json', '{"vars":[],"states":[]}')])).code).toBe(3);
    expect((await runCli(['trace', 'export', out])).code).toBe(64);
    expect((await runCli(['trace', 'import', out, '--const', 'x'])).code).toBe(64);
    const replayTla = await runCli(['trace', 'replay', fixturePath('values.dumptrace.json')]);
    expect(replayTla.code).toBe(2);
    expect(replayTla.stderr.trim()).toMatch(/^fencecheck trace replay: could not run: system tla has no replay/);
    // An imported pause trace replays on the real code (the unpatched replicas do not break what P1's model did).
    const replayPause = await runCli(['trace', 'replay', itfFixture('pause-P1.apalache-shape.itf.json')]);
    expect(replayPause.code, replayPause.stderr).toBe(0);
    expect(replayPause.stdout).toMatch(/every invariant held on the real system for all 9 of 9 steps; the trace predicted a violation at step 8\./);
  });
});
