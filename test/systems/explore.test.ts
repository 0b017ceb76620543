import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cfgInvariants, readSystemEvidence, systemEvidencePath, type SystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem, shortestSystemCounterexample, SystemExplorationLimitError } from '../../src/seam/explore.js';
import { compareStateSets } from '../../src/seam/parity.js';
import type { ModelSystem } from '../../src/seam/system.js';
import { sha256Text } from '../../src/systems/fencing/tlc/config.js';
import { TlcOutputError } from '../../src/tlc/errors.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

/** A toy system: x in 0..3, Inc (x < 3), Reset (always, a self-loop at 0), Double (x <= 1). */
type Ev = 'Inc' | 'Reset' | 'Double';
function toy(bad = 3): ModelSystem<number, Ev> {
  const step = (x: number, e: Ev): number | null => (e === 'Inc' ? (x < 3 ? x + 1 : null) : e === 'Reset' ? 0 : x <= 1 ? x * 2 : null);
  return {
    name: 'toy',
    spec: 'Toy.tla',
    config: 'Toy.cfg',
    variables: ['x'],
    bounds: {},
    initialStates: () => [0],
    successors: (x) =>
      (['Inc', 'Reset', 'Double'] as const).flatMap((event) => {
        const state = step(x, event);
        return state === null ? [] : [{ event, state }];
      }),
    key: (x) => `x=${x}`,
    label: (e) => e,
    invariants: { Small: (x) => x < bad, NonNegative: (x) => x >= 0 },
    fromTlc: () => 0,
    toTla: (x) => ({ x: { kind: 'int', value: x } }),
    overridable: {},
    withOverrides: () => {
      throw new RangeError('none');
    },
  };
}

describe('exploreSystem (generic BFS)', () => {
  it('counts distinct, transitions, generated (TLC: initial + one per enabled instance), self-loops and depth', () => {
    const x = exploreSystem(toy(9));
    expect(x.keys).toEqual(['x=0', 'x=1', 'x=2', 'x=3']);
    // 0: Inc, Reset(self), Double(self) · 1: Inc, Reset, Double · 2: Inc, Reset · 3: Reset
    expect(x.transitions).toBe(9);
    expect(x.generated).toBe(10);
    expect(x.selfLoops).toBe(2);
    expect(x.depth).toBe(4); // states on the longest shortest path, as TLC counts its depth
    expect(x.verdicts.every((v) => v.holds)).toBe(true);
  });

  it('reports each broken invariant with a shortest counterexample', () => {
    const x = exploreSystem(toy(2));
    const v = x.verdicts.find((d) => d.name === 'Small')!;
    expect(v).toMatchObject({ holds: false, violatingStates: 2, counterexampleLength: 3 });
    expect(x.counterexample('Small')!.map((p) => [p.event, p.state])).toEqual([
      [null, 0],
      ['Inc', 1],
      ['Inc', 2],
    ]);
    expect(x.counterexample('NonNegative')).toBeNull();
    expect(shortestSystemCounterexample(toy(2), 'Small')!.length).toBe(3);
    expect(shortestSystemCounterexample(toy(9), 'Small')).toBeNull();
  });

  it('stops at the limit and refuses unknown invariants', () => {
    expect(() => exploreSystem(toy(), { limit: 3 })).toThrow(SystemExplorationLimitError);
    expect(() => exploreSystem(toy(), { invariants: ['Nope'] })).toThrow(/no invariant Nope/);
  });
});

describe('compareStateSets', () => {
  it('is equal on equal sets and lists the first differences of each side', () => {
    expect(compareStateSets(['a', 'b'], ['b', 'a']).equal).toBe(true);
    const p = compareStateSets(['a', 'b', 'c'], ['b', 'd'], 1);
    expect(p).toMatchObject({ equal: false, modelCount: 3, tlcCount: 2, onlyModelCount: 2, onlyTlcCount: 1, onlyModel: ['a'], onlyTlc: ['d'] });
  });
});

describe('system evidence', () => {
  it("reads a config's INVARIANTS", () => {
    expect(cfgInvariants('SPECIFICATION Spec\n\\* INVARIANT Nope\nINVARIANTS\n    TypeOK\n    Inv_A\n')).toEqual(['TypeOK', 'Inv_A']);
  });

  it('is stale when the spec changed since TLC ran, and fresh otherwise', () => {
    const root = ownedTempDir('sysev');
    try {
      writeFileSync(join(root, 'Toy.tla'), 'spec v1');
      writeFileSync(join(root, 'Toy.cfg'), 'INVARIANT Small');
      const ev: SystemEvidence = {
        schema: 'fencecheck.tlc-evidence/1',
        system: 'toy',
        run: 'base',
        spec: 'Toy.tla',
        specSha256: sha256Text('spec v1'),
        config: 'Toy.cfg',
        configSha256: sha256Text('INVARIANT Small'),
        tlcVersion: 'x',
        bounds: {},
        invariants: ['Small'],
        command: 'java',
        outcome: 'ok',
        wallMs: 1,
        recordedAt: 'now',
      };
      mkdirSync(dirname(join(root, systemEvidencePath('toy', 'base'))), { recursive: true });
      writeFileSync(join(root, systemEvidencePath('toy', 'base')), JSON.stringify(ev));
      expect(readSystemEvidence('toy', 'base', root).freshness).toEqual({ fresh: true });
      writeFileSync(join(root, 'Toy.tla'), 'spec v2');
      expect(readSystemEvidence('toy', 'base', root).freshness).toEqual({
        fresh: false,
        reason: expect.stringMatching(/^Toy\.tla changed since TLC ran \(stale evidence\): rerun `fencecheck tlc --system NAME --mutants --write-evidence`/),
      });
      expect(readSystemEvidence('toy', 'P1', root).freshness.fresh).toBe(false);
      writeFileSync(join(root, systemEvidencePath('toy', 'base')), JSON.stringify({ ...ev, system: 'other' }));
      expect(() => readSystemEvidence('toy', 'base', root)).toThrow(TlcOutputError);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
