/**
 * The reference server holds every property its drive checks read from outside, and each of the
 * twelve impl patches (mutants/init-limiter/impl/In.ts, the seed's bugs) breaks the checks that name
 * its mutation point. Real sockets, forced races (hold points, the manual clock), no mocks.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/systems/init-limiter/drive/checks.js';
import { loadInitLimiterPatch, PART_NAMES } from '../../src/systems/init-limiter/server/index.js';
import { projectRoot } from '../../src/core/project-root.js';
import { checkOnReferenceServer } from '../../src/systems/init-limiter/drive/reference.js';

describe('the unpatched reference server', () => {
  it.each(CHECKS.map((c) => [c.id, c] as const))('holds %s', async (_id, check) => {
    const out = await checkOnReferenceServer(check);
    expect(out.status, out.observed).toBe('held');
  });
});

describe('each impl patch breaks what its mutation point guards', () => {
  it('every mutation point is guarded by at least one check', () => {
    for (const part of PART_NAMES)
      expect(
        CHECKS.filter((c) => c.catches.includes(part)).map((c) => c.id),
        part,
      ).not.toEqual([]);
  });

  const cases = PART_NAMES.flatMap((part, i) => CHECKS.filter((c) => c.catches.includes(part)).map((c) => [`I${i + 1}`, part, c.id, c] as const));
  it.each(cases)('%s (%s) breaks %s', async (id, _part, _check, check) => {
    const patch = await loadInitLimiterPatch(`mutants/init-limiter/impl/${id}.ts`, projectRoot);
    const out = await checkOnReferenceServer(check, patch);
    expect(out.status, out.observed).toBe('broken');
  });
});
