/**
 * The reference server holds every property its drive checks read from outside, and each of the
 * twelve impl patches (mutants/init-limiter/impl/In.ts, the seed's bugs) breaks the checks that name
 * its mutation point. Real sockets, forced races (hold points, the manual clock), no mocks.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/systems/init-limiter/drive/checks.js';
import { loadInitLimiterPatch, PART_NAMES } from '../../src/systems/init-limiter/server/index.js';
import { projectRoot } from '../../src/core/project-root.js';
import { loadManifest } from '../../src/core/manifest.js';
import { checkOnReferenceServer } from '../../src/systems/init-limiter/drive/reference.js';

describe('the unpatched reference server', () => {
  it.each(CHECKS.map((c) => [c.id, c] as const))('holds %s', async (_id, check) => {
    const out = await checkOnReferenceServer(check);
    expect(out.status, out.observed).toBe('held');
  });
});

/** Each part's first guard mutant in the manifest (the one written for that mutation point). */
const GUARDS = loadManifest().mutants.filter((m) => m.system === 'init-limiter' && m.kind === 'guard');
const mutantOf = (part: string) => GUARDS.find((m) => m.target === part)!;

describe('each impl patch breaks what its mutation point guards', () => {
  it('every mutation point is guarded by at least one check, but one judged off the base config (its mutant tours that configuration)', () => {
    for (const part of PART_NAMES.filter((p) => mutantOf(p).constants === undefined))
      expect(
        CHECKS.filter((c) => c.catches.includes(part)).map((c) => c.id),
        part,
      ).not.toEqual([]);
  });

  const cases = PART_NAMES.flatMap((part) => CHECKS.filter((c) => c.catches.includes(part)).map((c) => [mutantOf(part).id, part, c.id, c] as const));
  it.each(cases)('%s (%s) breaks %s', async (id, _part, _check, check) => {
    const patch = await loadInitLimiterPatch(`mutants/init-limiter/impl/${id}.ts`, projectRoot);
    const out = await checkOnReferenceServer(check, patch);
    expect(out.status, out.observed).toBe('broken');
  });
});

/**
 * The checks no I1–I12 mutation point names, each against the small bug its doc writes next to it
 * (docs/init-limiter.md, "Small bugs tried"), kept as a patch (a manifest mutant, or a test's own):
 * together with the cases above, every drive check is shown red by a bug.
 */
const SMALL_BUGS: ReadonlyArray<readonly [check: string, patch: string, bug: string]> = [
  ['drip-bounded-by-cap', 'mutants/init-limiter/impl/I13.ts', 'the send cap counted per write'],
  ['disconnect-frees-slot', 'mutants/init-limiter/impl/I14.ts', 'a close mid-basis released as a cut'],
  ['herd-shares-one-budget', 'test/init-limiter/small-bugs/retry-after-zero.ts', "a shed reply's Retry-After of 0"],
  ['formats-serialize-apart', 'mutants/init-limiter/impl/I16.ts', 'the serialization key without the format'],
  ['limiter-off-feeds-complete', 'test/init-limiter/small-bugs/drop-first-delta.ts', 'the first live delta of a connection lost'],
];

describe('each check goes red on the small bug written next to it', () => {
  it('every check has a bug that turns it red', () => {
    const red = new Set([...CHECKS.filter((c) => c.catches.length > 0).map((c) => c.id), ...SMALL_BUGS.map(([id]) => id)]);
    expect(CHECKS.map((c) => c.id).filter((id) => !red.has(id))).toEqual([]);
  });

  it.each(SMALL_BUGS)('%s is broken by %s (%s)', async (id, file) => {
    const check = CHECKS.find((c) => c.id === id)!;
    const patch = await loadInitLimiterPatch(file, projectRoot);
    const out = await checkOnReferenceServer(check, patch);
    expect(out.status, out.observed).toBe('broken');
  });
});
