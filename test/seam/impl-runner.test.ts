/**
 * The impl layer's rules (src/seam/impl-runner.ts) on a runner whose runs are plain promises: the
 * unpatched run first, a kill only by the expected invariant, results in the entries' order even
 * when runs overlap (`parallel`), at most `parallel` under way, and after a fault the entries not
 * yet started are not run.
 */
import { describe, expect, it } from 'vitest';
import type { MutantEntry } from '../../src/core/manifest.js';
import { runImplEntries, type ImplOutcome, type ImplRunSpec } from '../../src/seam/impl-runner.js';

const entry = (id: string, expectedInvariant: string): MutantEntry => ({ id, system: 'x', expectedInvariant, description: id, layers: { impl: { patch: `${id}.ts` } } }) as unknown as MutantEntry;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A runner whose mutant `id` breaks `breaks[id]` after `ms[id]` ms (held when absent). */
function spec(o: { parallel?: number; breaks: Record<string, string>; ms: Record<string, number>; faultOn?: string; base?: ImplOutcome }) {
  let now = 0;
  let most = 0;
  const started: string[] = [];
  const s: ImplRunSpec<null, string> = {
    unit: 'runs',
    ...(o.parallel ? { parallel: o.parallel } : {}),
    open: async () => null,
    close: async () => {},
    base: async () => o.base ?? { kind: 'held', detail: 'base held' },
    loadPatch: async (m) => m.id,
    mutant: async (_r, m) => {
      started.push(m.id);
      now += 1;
      most = Math.max(most, now);
      await tick(o.ms[m.id] ?? 1);
      now -= 1;
      if (m.id === o.faultOn) throw new Error('the server went away');
      const b = o.breaks[m.id];
      return b ? { kind: 'violated', checks: [b], detail: `${b} broke` } : { kind: 'held', detail: 'held' };
    },
    fault: (err) => ((err as Error).message === 'the server went away' ? 'the server went away' : null),
  };
  return { s, most: () => most, started };
}

const entries = [entry('M1', 'A'), entry('M2', 'B'), entry('M3', 'C'), entry('M4', 'D'), entry('M5', 'E')];

describe('runImplEntries', () => {
  it('runs up to `parallel` mutants at once and gives the results in the entries order', async () => {
    const r = spec({ parallel: 3, breaks: { M1: 'A', M2: 'X', M4: 'D', M5: 'E' }, ms: { M1: 40, M2: 5, M3: 20, M4: 1, M5: 1 } });
    const out = await runImplEntries(entries, {}, r.s);
    expect(out.map((x) => `${x.id}:${x.verdict}`)).toEqual(['M1:killed', 'M2:wrong-invariant', 'M3:survived', 'M4:killed', 'M5:killed']);
    expect(r.most()).toBe(3);
  });

  it('runs one at a time by default', async () => {
    const r = spec({ breaks: { M1: 'A' }, ms: { M1: 10 } });
    await runImplEntries(entries, {}, r.s);
    expect(r.most()).toBe(1);
    expect(r.started).toEqual(['M1', 'M2', 'M3', 'M4', 'M5']);
  });

  it('after a fault the entries not yet started are not run, with its reason', async () => {
    const r = spec({ parallel: 2, breaks: {}, ms: { M1: 30, M2: 1 }, faultOn: 'M2' });
    const out = await runImplEntries(entries, {}, r.s);
    expect(out.map((x) => x.verdict)).toEqual(['survived', 'not-run', 'not-run', 'not-run', 'not-run']);
    expect(out[3]?.reason).toBe('after a fault: the server went away');
    expect(r.started).toEqual(['M1', 'M2']);
  });

  it('an unpatched run that breaks makes every entry invalid, and no mutant runs', async () => {
    const r = spec({ parallel: 3, breaks: {}, ms: {}, base: { kind: 'violated', checks: ['A'], detail: 'A broke' } });
    const out = await runImplEntries(entries, {}, r.s);
    expect(new Set(out.map((x) => x.verdict))).toEqual(new Set(['invalid']));
    expect(r.started).toEqual([]);
  });
});
