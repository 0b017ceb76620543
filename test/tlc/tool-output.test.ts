import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenInvariants } from '../../src/systems/fencing/invariants.js';
import { canonicalKey, initialState } from '../../src/systems/fencing/state.js';
import { verdictOf } from '../../src/seam/tlc/mutant-judge.js';
import { dumpToSystemKeys } from '../../src/seam/tlc/graph.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { toFencingState } from '../../src/systems/fencing/tlc/state.js';
import { readCfg } from '../../src/systems/fencing/tlc/config.js';
import { parseStateDumpWith } from '../../src/tlc/dump.js';

const parseStateDump = (text: string) => parseStateDumpWith(text, toFencingState);
import { TlcOutputError } from '../../src/tlc/errors.js';
import type { TlcRun } from '../../src/tlc/run.js';
import { parseTlaValue } from '../../src/core/tla-value.js';
import { parseToolOutput, splitToolOutput } from '../../src/tlc/tool-output.js';
import { stateFromItf, tlcTrace } from '../../src/seam/trace.js';
import { mutantsFor } from '../../src/core/manifest.js';
import { loadSystemManifest } from '../../src/registry/systems.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const BOUNDS = { pods: ['p1', 'p2', 'p3'] as const, maxGen: 4 };
const bounds = { pods: [...BOUNDS.pods], maxGen: BOUNDS.maxGen };
const completed = (raw: string): TlcRun => ({ kind: 'completed', result: parseToolOutput(raw), exitCode: 0, wallMs: 1, raw });

describe('TLC -tool output parser (real captured outputs)', () => {
  it('reads a successful run: version, counts, depth, duration', () => {
    const r = parseToolOutput(fixture('success.out'));
    expect(r.outcome).toBe('ok');
    expect(r.version).toBe('TLC2 Version 2026.04.29.170100 (rev: cc6b616c)');
    expect(r).toMatchObject({ generated: 15637, distinct: 4117, left: 0, depth: 28 });
    expect(r.durationMs).toBeGreaterThan(0);
    expect(r.trace).toEqual([]);
    expect(r.violated).toBeUndefined();
  });

  it("reads an invariant violation and its full trace as the fencing system's trace, with actions and params", () => {
    const r = parseToolOutput(fixture('violation-M1.out'));
    expect(r.outcome).toBe('invariant-violation');
    expect(r.violated).toBe('Inv_SingleAuthority');
    expect(r.trace).toHaveLength(9);
    const sys = fencingSystem();
    const t = tlcTrace(sys, r, { mutant: 'M1' })!;
    expect(t).toMatchObject({ schema: 'fencecheck.trace/2', system: 'fencing', mutant: 'M1', violated: 'Inv_SingleAuthority' });
    expect(t.steps[0]!.action).toBe('Init');
    expect(canonicalKey(stateFromItf(sys, t.steps[0]!.state))).toBe(canonicalKey(initialState()));
    expect(t.steps[1]).toMatchObject({ action: 'AcquireO', params: { p: 'p1' } });
    expect(t.steps[8]).toMatchObject({ action: 'AcquireB', params: { p: 'p1' } });
    const last = stateFromItf(sys, t.steps[8]!.state);
    expect(last.oldLease.owner).toBe('p1');
    expect(last.newLease).toEqual({ owner: 'p1', gen: 2 });
    // The TS predicates agree with TLC about the last state.
    expect(brokenInvariants(last, bounds)).toContain('Inv_SingleAuthority');
    expect(t.brokenAtEnd).toEqual(['Inv_SingleAuthority']);
  });

  it('infers the pod from the state change when an older TLC prints actions without arguments', async () => {
    const old = fixture('violation-M1.out').replace(/<(\w+)\(p\d\) line/g, '<$1 line');
    expect(old).not.toMatch(/AcquireB\(p1\)/);
    // The last step is M1's own (AcquireB while the old lease is held): only M1's twin explains it.
    const m1 = mutantsFor(loadSystemManifest(), 'model', 'fencing').find((m) => m.id === 'M1')!;
    const a = tlcTrace(fencingSystem(), parseToolOutput(old), { twin: await mutatedSystem(fencingSystem(), m1) })!;
    const b = tlcTrace(fencingSystem(), parseToolOutput(fixture('violation-M1.out')))!;
    expect(a.steps.map((s) => [s.action, s.params])).toEqual(b.steps.map((s) => [s.action, s.params]));
  });

  it('reads a deadlock with its trace', () => {
    const r = parseToolOutput(fixture('deadlock.out'));
    expect(r.outcome).toBe('deadlock');
    expect(r.trace.length).toBeGreaterThan(1);
    const t = tlcTrace(fencingSystem(), r)!;
    expect(t.steps[0]!.action).toBe('Init');
    expect(t.brokenAtEnd).toEqual([]);
  });

  it('reports a SANY parse error with file, line and column', () => {
    const r = parseToolOutput(fixture('parse-error.out'));
    expect(r.outcome).toBe('parse-error');
    expect(r.sany).toHaveLength(1);
    expect(r.sany[0]).toMatchObject({ file: 'ParseError.tla', line: 6, column: 1 });
    expect(r.sany[0]!.message).toMatch(/Encountered "====" at line 6, column 1/);
    expect(verdictOf(completed(fixture('parse-error.out')), 'Inv_SingleAuthority')).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/ParseError\.tla:6:1/) });
  });

  it('reports a SANY semantic error with file, line and column', () => {
    const r = parseToolOutput(fixture('semantic-error.out'));
    expect(r.outcome).toBe('parse-error');
    expect(r.sany).toEqual([{ file: 'SemanticError.tla', line: 6, column: 14, message: "Unknown operator: `y'." }]);
  });

  it("reports an evaluation error as eval-error with TLC's message, never as a pass", () => {
    const r = parseToolOutput(fixture('eval-error.out'));
    expect(r.outcome).toBe('eval-error');
    expect(r.errors.join('\n')).toMatch(/CHOOSE x \\in S: P/);
    expect(verdictOf(completed(fixture('eval-error.out')), 'Inv_Monotonic').verdict).toBe('invalid');
  });

  it('reports a failed ASSUME (a misspelt mutant target) as invalid', () => {
    const r = parseToolOutput(fixture('assumption-false.out'));
    expect(r.outcome).toBe('assumption-false');
    expect(verdictOf(completed(fixture('assumption-false.out')), 'Inv_SingleAuthority').verdict).toBe('invalid');
  });

  it('gives each TLC outcome its own verdict: killed only for the expected invariant', () => {
    const m1 = completed(fixture('violation-M1.out'));
    expect(verdictOf(m1, 'Inv_SingleAuthority').verdict).toBe('killed');
    expect(verdictOf(m1, 'Inv_Monotonic')).toMatchObject({ verdict: 'wrong-invariant', reason: expect.stringMatching(/Inv_SingleAuthority/) });
    expect(verdictOf(completed(fixture('success.out')), 'Inv_Monotonic').verdict).toBe('survived');
    expect(verdictOf({ kind: 'timeout', wallMs: 5000, timeoutMs: 5000, raw: '' }, 'Inv_Monotonic').verdict).toBe('timeout');
  });

  it('rejects malformed or foreign output with a TlcOutputError', () => {
    const truncated = fixture('violation-M1.out').split('\n').slice(0, 40).join('\n');
    expect(() => parseToolOutput(truncated)).toThrow(TlcOutputError);
    expect(() => parseToolOutput(truncated)).toThrow(/never ends/);
    expect(() => parseToolOutput('Error: Could not find or load main class tlc2.TLC\n')).toThrow(/not TLC -tool output/);
    expect(() => splitToolOutput('@!@!@STARTMSG 2262:0 @!@!@\nx\n@!@!@ENDMSG 2199 @!@!@\n')).toThrow(/closes message 2262/);
    // A bad value no longer loses the whole result (test/tlc/captured.test.ts): the system's trace keeps TLC's text.
    const badState = fixture('violation-M1.out').replace('/\\ oldGen = 1', '/\\ oldGen = {{');
    expect(JSON.stringify(tlcTrace(fencingSystem(), parseToolOutput(badState)))).toContain('{"#unserializable":"{{"}');
  });
});

describe('TLA+ values and state dumps', () => {
  it('parses the value forms TLC prints', () => {
    expect(parseTlaValue('(p1 :> "O" @@ p2 :> "A")')).toEqual({
      kind: 'fn',
      entries: [
        [
          { kind: 'mv', name: 'p1' },
          { kind: 'str', value: 'O' },
        ],
        [
          { kind: 'mv', name: 'p2' },
          { kind: 'str', value: 'A' },
        ],
      ],
    });
    expect(parseTlaValue('[owner |-> None, gen |-> 0]')).toEqual({ kind: 'record', fields: { owner: { kind: 'mv', name: 'None' }, gen: { kind: 'int', value: 0 } } });
    expect(parseTlaValue('<<1, "a\\"b", {TRUE}>>')).toEqual({
      kind: 'seq',
      items: [
        { kind: 'int', value: 1 },
        { kind: 'str', value: 'a"b' },
        { kind: 'set', items: [{ kind: 'bool', value: true }] },
      ],
    });
    expect(() => parseTlaValue('[owner |-> ')).toThrow(TlcOutputError);
  });

  it('converts a real -dump file into sorted canonicalKey() lines, one per distinct state', () => {
    const text = fixture('tiny.dump');
    const states = parseStateDump(text);
    expect(states).toHaveLength(parseToolOutput(fixture('tiny-dump.out')).distinct!);
    const lines = dumpToSystemKeys(fencingSystem({ pods: ['p1'], maxGen: 1 }), text);
    expect(lines).toHaveLength(82);
    expect([...lines].sort()).toEqual(lines);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toContain(canonicalKey(initialState({ pods: ['p1'], maxGen: 1 })));
    expect(() => parseStateDump('hello\nState 1:\n')).toThrow(/not a TLC state dump/);
  });

  it('reads bounds, invariants and dropped guards from a config', () => {
    const cfg = readCfg(readFileSync(join(import.meta.dirname, 'fixtures/specs/Misspelt.cfg'), 'utf8'));
    expect(cfg).toEqual({ bounds: { pods: ['p1', 'p2'], maxGen: 2 }, invariants: ['TypeOK'], dropped: ['AcquireB_OldLeaseFreee'] });
  });
});
