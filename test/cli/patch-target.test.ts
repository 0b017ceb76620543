/**
 * Which system a user's patch file is of, found by the one loader (src/seam/patch-file.ts) and each
 * tour's `isPatch`: fencing's ImplPatch, pause's PausePatch and the init limiter's InitLimiterPatch
 * each go to their own tour (no server runs); a limiter patch (a system without a tour) is none.
 */
import { describe, expect, it } from 'vitest';
import { patchTarget, PatchTargetError } from '../../src/cli/commands/patch-target.js';

describe('a patch file finds its system with a tour', () => {
  it('fencing, pause and the init limiter each take their own patch type', async () => {
    const found = await Promise.all(['mutants/fencing/impl/M1.ts', 'mutants/pause/impl/P1.ts', 'mutants/init-limiter/impl/I1.ts'].map(async (f) => (await patchTarget(f, undefined, true)).system));
    expect(found).toEqual(['fencing', 'pause', 'init-limiter']);
  });

  it('a patch of a system without a tour is none of theirs, naming what each takes', async () => {
    const err = await patchTarget('mutants/limiter/impl/L1.ts', undefined, true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatchTargetError);
    expect((err as Error).message).toMatch(/no patch of a system with a tour \(fencing: a fencing ImplPatch .*; pause: a PausePatch .*; init-limiter: an InitLimiterPatch/);
  });
});
