/**
 * The parser on real TLC output captured from the project's own test specs (test/tlc/specs/, see
 * fixtures/captures.json): intervals and every other value kind, a value that cannot be read,
 * temporal property names, lasso traces, config errors, and TLC's exit status. Offline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { sha256File } from '../../src/systems/fencing/tlc/config.js';
import { reconcileExit } from '../../src/tlc/exit-status.js';
import { formatTlaValue, parseTlaValue } from '../../src/core/tla-value.js';
import { toTlaTrace } from '../../src/tlc/to-itf.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { tlcTrace } from '../../src/seam/trace.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { fixturePath, readCaptureIndex } from './captures.js';

const out = (name: string) => readFileSync(fixturePath(`${name}.out`), 'utf8');
const index = readCaptureIndex();
const exitOf = (name: string) => index.captures.find((c) => c.name === name)!.tlcExit!;
const parsed = (name: string) => reconcileExit(parseToolOutput(out(name)), exitOf(name), { continued: index.captures.find((c) => c.name === name)!.flags.includes('-continue') });

describe('captured fixtures', () => {
  it('are pinned to the current test specs and configs, and to the TLC build that made them', () => {
    expect(index.captures.length).toBeGreaterThanOrEqual(7);
    for (const c of index.captures) {
      expect(sha256File(join(projectRoot, c.spec)), `${c.name}: ${c.spec} changed since the capture (rerun test/tlc/capture-fixtures.ts)`).toBe(c.specSha256);
      expect(sha256File(join(projectRoot, c.config)), `${c.name}: ${c.config} changed since the capture`).toBe(c.configSha256);
      // Local builds of the same sources (tlaplus/tlaplus at rev cc6b616cf); the captures of users' material come from an earlier one.
      expect(c.tlcVersion).toMatch(/^TLC2 Version 2026\.\d\d\.\d\d\.\d{6} \(rev: cc6b616cf\)$/);
    }
  });
});

describe('a warning beside a violation, and SANY errors with their whole text', () => {
  it('liveness-warning.out: a liveness violation beside warning 2259 is a property violation that agrees with exit 13 (it was a config error, DISAGREES)', () => {
    const r = parsed('liveness-warning');
    expect(r).toMatchObject({ outcome: 'property-violation', violated: 'SettlesAt1', violationKind: 'temporal-property', exit: { code: 13, agrees: true }, loop: { kind: 'stuttering' } });
    // The warning is not an error of the run.
    expect(r.errors.some((e) => /absence of a fairness constraint/.test(e))).toBe(false);
  });

  it('the exit status decides even when the messages are misread: the same output with the warning taken for a config error', () => {
    const misread = { ...parseToolOutput(out('liveness-warning')), outcome: 'config-error' as const };
    expect(reconcileExit(misread, 13)).toMatchObject({ outcome: 'property-violation', violated: 'SettlesAt1', exit: { code: 13, agrees: false, decided: true } });
  });

  it('missing-module.out: "Cannot find source file for module NoSuchModule imported in module MissingModule." whole, in its file', () => {
    expect(parsed('missing-module')).toMatchObject({ outcome: 'parse-error', exit: { code: 150, agrees: true } });
    expect(parsed('missing-module').sany).toEqual([{ file: 'MissingModule.tla', line: 0, column: 0, message: 'Cannot find source file for module NoSuchModule imported in module MissingModule.' }]);
  });

  it('parse-expecting.out: the parse error keeps "Was expecting", "Encountered" and where the definition began', () => {
    const [d] = parsed('parse-expecting').sany;
    expect(d).toMatchObject({ file: 'ParseExpecting.tla', line: 6, column: 9 });
    expect(d!.message).toBe('Was expecting "Expression or Instance" Encountered "Beginning of definition" at line 6, column 9 and token "==" (Definition starting at line 6, column 1)');
  });
});

describe('TLC values (values.out: Values.tla)', () => {
  it('reads a state holding an interval, with the outcome, counts and every variable', () => {
    const r = parsed('values');
    expect(r).toMatchObject({ outcome: 'invariant-violation', violated: 'Small', violationKind: 'invariant', generated: 3, distinct: 3, depth: 3 });
    expect(r.unreadable).toBeUndefined();
    expect(r.trace).toHaveLength(3);
    const [s1, s2, s3] = r.trace.map((s) => s.vars);
    expect(s1!.i).toEqual({ kind: 'interval', lo: 1, hi: 3 });
    expect(s2!.i).toEqual({ kind: 'interval', lo: 2, hi: 5 });
    expect(s3!.i).toEqual({ kind: 'set', items: [] }); // TLC prints the empty interval 1..0 as {}
  });

  it('reads every other value kind TLC printed: sets, sequences, records, :> @@ functions, strings with escapes, model values, nesting', () => {
    const [s1, s2] = parsed('values').trace.map((s) => s.vars);
    expect(s1!.s).toEqual({ kind: 'set', items: [] });
    expect(s2!.s).toEqual({ kind: 'set', items: [{ kind: 'int', value: -1 }] });
    expect(s1!.q).toEqual({ kind: 'seq', items: [] });
    expect(formatTlaValue(s2!.q!)).toBe('<<[p |-> a, v |-> -7]>>');
    expect(s1!.f).toEqual({
      kind: 'fn',
      entries: [
        [
          { kind: 'mv', name: 'a' },
          { kind: 'int', value: 1 },
        ],
        [
          { kind: 'mv', name: 'b' },
          { kind: 'int', value: 2 },
        ],
      ],
    });
    expect(formatTlaValue(s1!.g!)).toBe('<<10, 20>>');
    expect(s1!.mv).toEqual({ kind: 'mv', name: 'a' });
    expect(s2!.str).toEqual({ kind: 'str', value: 'quote " backslash \\ end' });
    expect(formatTlaValue(s1!.nested!)).toBe('[k |-> {<<1, "x">>}, m |-> (a :> {a, b}), e |-> {}, t |-> TRUE]');
    // SUBSET, [S -> T] and [a : S] arrive enumerated; an interval nested in a set stays an interval.
    expect(formatTlaValue(s1!.lz!)).toBe('<<{{}, {1}}, {<<2>>}, {[u |-> 1]}, (0 :> "z"), "line\\nbreak", {1..2}>>');
  });

  it('keeps the outcome and counts when a value cannot be read, naming the variable and the step', () => {
    const broken = out('values').replace('/\\ r = [x |-> 2, y |-> "two"]', '/\\ r = [x |-> 2, y |-> ]');
    const r = parseToolOutput(broken);
    expect(r).toMatchObject({ outcome: 'invariant-violation', violated: 'Small', generated: 3, distinct: 3, depth: 3 });
    expect(r.unreadable).toEqual([{ step: 2, variable: 'r', message: expect.stringMatching(/cannot parse TLA\+ value/) }]);
    expect(r.trace[1]!.vars.r).toMatchObject({ kind: 'unreadable', text: '[x |-> 2, y |-> ]' });
    expect(r.trace[1]!.vars.i).toEqual({ kind: 'interval', lo: 2, hi: 5 });
    // As the fencing system's trace, that state keeps TLC's text and is judged by no invariant; the others are read.
    const m1 = parseToolOutput(readFileSync(fixturePath('violation-M1.out'), 'utf8').replace('/\\ oldGen = 1', '/\\ oldGen = {{'));
    expect(m1.outcome).toBe('invariant-violation');
    expect(m1.unreadable?.[0]).toMatchObject({ variable: 'oldGen' });
    const t = tlcTrace(fencingSystem(), m1)!;
    const bad = m1.unreadable![0]!.step - 1;
    expect(t.steps[bad]!.state.oldGen).toEqual({ '#unserializable': '{{' });
    expect(t.steps[bad]!.broken).toBeUndefined();
    expect(t.steps[0]!.broken).toEqual([]);
  });

  it('parses intervals anywhere a value goes, and prints them back', () => {
    expect(parseTlaValue('{1..3, -2..0}')).toEqual({
      kind: 'set',
      items: [
        { kind: 'interval', lo: 1, hi: 3 },
        { kind: 'interval', lo: -2, hi: 0 },
      ],
    });
    expect(formatTlaValue(parseTlaValue('[a |-> 1..2]'))).toBe('[a |-> 1..2]');
    // Every escape TLC's StringValue.PrintVersion writes.
    expect(parseTlaValue('"q\\" b\\\\ t\\t n\\n f\\f r\\r"')).toEqual({ kind: 'str', value: 'q" b\\ t\t n\n f\f r\r' });
  });
});

describe('temporal properties and lassos (Liveness.tla)', () => {
  it('names the violated temporal property and reads the back-loop: target state and closing action', () => {
    const r = parsed('liveness-loop');
    expect(r).toMatchObject({ outcome: 'property-violation', violated: 'Reaches3', violationKind: 'temporal-property', generated: 4, distinct: 3 });
    expect(r.trace.map((s) => s.action)).toEqual(['Init', 'Step', 'Step']);
    expect(r.loop).toEqual({ kind: 'back-to-state', toIndex: 1, action: 'Step', args: ['1'] });
    const t = toTlaTrace(r, 'Liveness.tla')!;
    expect(t).toMatchObject({ system: 'tla', loop: 0, loopAction: { action: 'Step', params: { arg0: { '#bigint': '1' } } }, violated: 'Reaches3' });
    expect(t.steps.map((s) => s.state.x)).toEqual([{ '#bigint': '0' }, { '#bigint': '1' }, { '#bigint': '2' }]);
  });

  it('reads a stuttering end as a loop on the last state', () => {
    const r = parsed('liveness-stutter');
    expect(r).toMatchObject({ outcome: 'property-violation', violated: 'Reaches3' });
    expect(r.trace).toHaveLength(1);
    expect(r.loop).toEqual({ kind: 'stuttering', toIndex: 1 });
    expect(toTlaTrace(r)).toMatchObject({ loop: 0, loopAction: { action: 'Stuttering' } });
  });

  it('names several violated temporal properties (MP.java: "Temporal properties A, B, and C were violated.")', () => {
    const two = out('liveness-loop').replace('Temporal property Reaches3 was violated.', 'Temporal properties Reaches3 and Reaches4 were violated.');
    expect(parseToolOutput(two).violated).toBe('Reaches3, Reaches4');
    const three = out('liveness-loop').replace('Temporal property Reaches3 was violated.', 'Temporal properties A, B, and C were violated.');
    expect(parseToolOutput(three).violated).toBe('A, B, C');
  });

  it("carries a lasso into a system's trace: loop index and closing action", () => {
    const r = parseToolOutput(readFileSync(fixturePath('violation-M1.out'), 'utf8'));
    const t = tlcTrace(fencingSystem(), { ...r, trace: r.trace.slice(0, 2), loop: { kind: 'back-to-state', toIndex: 1, action: 'ExpireOld', args: [] } });
    expect(t).toMatchObject({ system: 'fencing', loop: 0, loopAction: { action: 'ExpireOld', params: {} } });
    expect(() => tlcTrace(fencingSystem(), { ...r, trace: r.trace.slice(0, 2), loop: { kind: 'back-to-state', toIndex: 5, action: 'ExpireOld', args: [] } })).toThrow(
      /back to state 5, but the trace has 2/,
    );
  });
});

describe('config errors and deadlocks', () => {
  it('reports a config naming an undefined invariant as config-error (TLC exit 151), not a crash', () => {
    const r = parsed('config-undefined');
    expect(r.outcome).toBe('config-error');
    expect(r.errors[0]).toMatch(/The invariant NoSuchInvariant specified in the configuration file/);
    expect(r.exit).toEqual({ code: 151, meaning: 'config parse error', agrees: true });
  });

  it('reads a .cfg syntax error, whose message TLC nests mid-line inside message 1000 (exit 255)', () => {
    const r = parsed('config-syntax');
    expect(r.outcome).toBe('config-error');
    expect(r.errors.join('\n')).toMatch(/TLC found an error in the configuration file at line 4/);
    expect(r.exit).toMatchObject({ code: 255, agrees: true });
  });

  it('reads a deadlock with its trace (exit 11)', () => {
    const r = parsed('deadlock-small');
    expect(r).toMatchObject({ outcome: 'deadlock', exit: { code: 11, agrees: true } });
    expect(r.trace.map((s) => formatTlaValue(s.vars.n!))).toEqual(['0', '1', '2']);
  });
});

describe('-continue (continue.out: Deadlock.tla / Continue.cfg)', () => {
  it('keeps the first of several error traces and counts the others; exit 0 is what TLC gives then', () => {
    const r = parsed('continue');
    expect(r).toMatchObject({ outcome: 'invariant-violation', violated: 'Below1', laterTraces: 1, exit: { code: 0, agrees: true } });
    expect(r.trace.map((s) => formatTlaValue(s.vars.n!))).toEqual(['0', '1']);
    // Without -continue, exit 0 beside a violation is a disagreement.
    expect(reconcileExit(parseToolOutput(out('continue')), 0).exit?.agrees).toBe(false);
  });
});

describe("TLC's exit status, cross-checked with the parsed outcome", () => {
  it('agrees on every captured run', () => {
    for (const c of index.captures) expect(parsed(c.name).exit, c.name).toMatchObject({ code: c.tlcExit, agrees: true });
  });

  it('where messages and exit status disagree, a status that names one outcome decides; never a pass', () => {
    const ok = reconcileExit(parseToolOutput(readFileSync(fixturePath('success.out'), 'utf8')), 12);
    expect(ok.outcome).toBe('invariant-violation');
    expect(ok.violated).toBeUndefined();
    expect(ok.exit).toEqual({ code: 12, meaning: 'safety violation', agrees: false, decided: true });
    expect(ok.errors.at(-1)).toMatch(/TLC's messages read as ok; its exit status 12 \(safety violation\) decides: invariant-violation/);
    const v = reconcileExit(parseToolOutput(out('values')), 13);
    expect(v).toMatchObject({ outcome: 'property-violation', exit: { agrees: false, decided: true } });
    // An invariant's name is not a temporal property's.
    expect(v.violated).toBeUndefined();
    // A status that names no outcome (255) or says success (0) never decides: not a pass, not checked.
    const any = reconcileExit(parseToolOutput(readFileSync(fixturePath('success.out'), 'utf8')), 255);
    expect(any).toMatchObject({ outcome: 'crash', exit: { code: 255, agrees: false } });
    expect(any.exit?.decided).toBeUndefined();
    const zero = reconcileExit(parseToolOutput(out('values')), 0);
    expect(zero).toMatchObject({ outcome: 'invariant-violation', exit: { code: 0, agrees: false } });
    expect(zero.exit?.decided).toBeUndefined();
  });

  it('lets TLC name an outcome its messages did not show', () => {
    expect(reconcileExit({ outcome: 'crash', trace: [], sany: [], errors: [] }, 151).outcome).toBe('config-error');
    expect(reconcileExit({ outcome: 'crash', trace: [], sany: [], errors: [] }, 150).outcome).toBe('parse-error');
    expect(reconcileExit({ outcome: 'crash', trace: [], sany: [], errors: [] }, 1).outcome).toBe('crash');
  });
});
