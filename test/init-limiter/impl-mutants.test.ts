/**
 * The init-limiter's impl layer (I1–I24; here I1 and I11, verify runs all), through the package's impl runner: the unpatched reference
 * server passes every drive check first, then each patch (mutants/init-limiter/impl/In.ts) meets
 * every check — the runner never picks checks by the mutant — and must be killed by its manifest
 * entry's expected invariant. The runner's own rules: a base that breaks makes every entry invalid;
 * a server that cannot start is not-run; a patch that cannot be loaded is invalid; a broken check
 * that reads no spec invariant reports itself as check:<id>.
 */
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { CHECKS, type Check } from '../../src/systems/init-limiter/drive/checks.js';
import { initLimiterImplRunner, outcomeOf, reportedNames, runInitLimiterEntries } from '../../src/systems/init-limiter/impl-layer.js';
import { initLimiterSystem } from '../../src/systems/init-limiter/system.js';

const entries = (): MutantEntry[] => mutantsFor(loadManifest(), 'impl', 'init-limiter');
const check = (id: string): Check => CHECKS.find((c) => c.id === id)!;

describe('init-limiter mutants at the impl layer (the reference server over real HTTP)', () => {
  it("the manifest names an impl patch for I1–I24, each expecting one of the spec's invariants", () => {
    const list = entries();
    expect(list.map((e) => e.id)).toEqual(Array.from({ length: 24 }, (_, i) => `I${i + 1}`));
    const names = Object.keys(initLimiterSystem().invariants);
    for (const e of list) {
      expect(e.layers.impl?.patch).toBe(`mutants/init-limiter/impl/${e.id}.ts`);
      expect(names).toContain(e.expectedInvariant);
    }
  });

  // Two of the twelve (a slot one and an up-to-date one, the quickest to die): verify's mutants:impl
  // stage runs all twelve (docs/testing.md, "What npm test runs and what verify runs").
  it('the unpatched server passes every check, then I1 and I11 are each killed by the expected invariant', async () => {
    const lines: string[] = [];
    const results = await initLimiterImplRunner.run(entries(), { log: (l) => lines.push(l), only: ['I1', 'I11'] });
    expect(results.map((r) => r.id)).toEqual(['I1', 'I11']);
    expect(
      lines.some((l) => new RegExp(`unpatched: ${CHECKS.length} checks held over real HTTP`).test(l)),
      lines.join('\n'),
    ).toBe(true);
    for (const r of results) {
      const e = entries().find((x) => x.id === r.id)!;
      expect({ id: r.id, verdict: r.verdict, violated: r.violated }, r.reason).toEqual({ id: e.id, verdict: 'killed', violated: e.expectedInvariant });
      expect(r.reason).toMatch(/replay: npx tsx src\/systems\/init-limiter\/drive\/main\.ts --patch mutants\/init-limiter\/impl\/I\d+\.ts --check [a-z-]+/);
    }
  }, 900_000);

  it('a base that breaks a check makes every entry invalid (the baseline-first rule)', async () => {
    // A check the unpatched server cannot pass: it assumes a slot the server it starts does not have.
    const impossible: Check = { ...check('shed-stream-closed'), id: 'impossible', run: async () => ({ status: 'broken', observed: 'always' }) };
    const results = await runInitLimiterEntries(entries().slice(0, 2), {}, { checks: [impossible] });
    expect(results.map((r) => r.verdict)).toEqual(['invalid', 'invalid']);
    expect(results[0]!.reason).toMatch(/the unpatched code breaks Inv_ShedClosed: impossible: always/);
  });

  it('a server that cannot start makes the entries not-run, never a verdict', async () => {
    const unstartable: Check = { ...check('shed-stream-closed'), server: { ...check('shed-stream-closed').server, host: '10.0.0.1' as '127.0.0.1' } };
    const results = await runInitLimiterEntries(entries().slice(0, 1), {}, { checks: [unstartable] });
    expect(results[0]).toMatchObject({ verdict: 'not-run' });
    expect(results[0]!.reason).toMatch(/could not start: host must be a loopback address/);
  });

  it('a patch that cannot be loaded is invalid', async () => {
    const bad = { ...entries()[9]!, layers: { impl: { patch: 'mutants/init-limiter/impl/nope.ts' } } };
    const results = await runInitLimiterEntries([bad], {}, { checks: [check('shed-stream-closed')] });
    expect(results[0]).toMatchObject({ verdict: 'invalid' });
    expect(results[0]!.reason).toMatch(/^patch: /);
  });

  it('a check that reads no spec invariant reports itself by its id; a check not run is said, never passed', () => {
    expect(reportedNames(check('peek-single-flight-per-basis'))).toEqual(['check:peek-single-flight-per-basis']);
    expect(reportedNames(check('serialize-per-version'))).toEqual(['Inv_SerializeOwnVersion']);
    const base = { ms: 1, observed: 'x' };
    const out = outcomeOf(
      [
        { ...base, id: 'peek-single-flight-per-basis', names: ['check:peek-single-flight-per-basis'], status: 'broken' },
        { ...base, id: 'b', names: ['Inv_X'], status: 'not-run' },
      ],
      'mutants/init-limiter/impl/I4.ts',
    );
    expect(out).toMatchObject({ kind: 'violated', checks: ['check:peek-single-flight-per-basis'] });
    expect(out.detail).toMatch(/not run: b \(x\)/);
    expect(outcomeOf([{ ...base, id: 'b', names: ['Inv_X'], status: 'not-run' }]).kind).toBe('invalid');
  });
});
