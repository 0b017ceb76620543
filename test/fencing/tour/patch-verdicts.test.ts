/**
 * Six small fencing bugs written as patch files (test/fixtures/patches/fencing/), each judged by
 * `conform --patch` and by `mutants --patch` (no --expect) through the real CLI on real Valkey, and
 * by the impl layer on the user's patch entry, at one pod and two generations (189 states, 2,818
 * attempts a tour): the three give the same verdict,
 * killed by the check each bug breaks — Conformance (a stale release freeing the lease; an acquire
 * that ignores the old lease, whose invariant only `--safety-only` reaches), TTL, ReadSide —,
 * equivalent for a reworded comment, survived for a read-side answer no rule judges (a digest of
 * the decisions alone calls it equivalent).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir } from '../../../src/core/temp-dir.js';
import { fencecheckCli } from '../../support/cli.js';
import { describePatchSet } from '../../support/patch-set.js';

const RUN_MS = 900_000;
const BOUNDS = ['--const', 'Pods=1', '--const', 'MaxGen=2'];
const FIXTURES = 'test/fixtures/patches/fencing';

describePatchSet({
  system: 'fencing',
  folder: FIXTURES,
  constants: { Pods: '1', MaxGen: '2' },
  bugs: {
    'release-any-generation': 'killed by Conformance',
    'renew-keeps-ttl': 'killed by TTL',
    'known-generation-behind': 'killed by ReadSide',
    'acquire-ignores-old-lease': 'killed by Conformance',
    'release-reworded': 'equivalent',
    'validate-reason-without-lease': 'survived',
  },
  timeoutMs: RUN_MS,
});

let traces = '';
beforeAll(() => {
  traces = ownedTempDir('patch-verdicts');
});
afterAll(() => rmSync(traces, { recursive: true, force: true }));
const cli = (args: readonly string[]) => fencecheckCli(args, { FENCECHECK_TRACE_DIR: join(traces, 't') }, { timeoutMs: RUN_MS });

describe('fencing: --safety-only on a user patch', () => {
  it(
    '--safety-only: a departure keeping every invariant departs (exit 4), one breaking an invariant is killed by it',
    async () => {
      const departs = await cli(['conform', '--patch', `${FIXTURES}/release-any-generation.ts`, '--safety-only', ...BOUNDS]);
      expect(departs.code, departs.err).toBe(4);
      expect(departs.out).toMatch(/^departs from the model at release\(p1@2\) after 9 steps; every invariant held/m);
      expect(departs.out).toMatch(/the model predicted refused → .*; the real system did transition ExpireNew/);
      const broken = await cli(['conform', '--patch', `${FIXTURES}/acquire-ignores-old-lease.ts`, '--safety-only', ...BOUNDS]);
      expect(broken.code, broken.err).toBe(1);
      expect(broken.out).toMatch(/^killed: Inv_SingleAuthority broken after 6 steps/m);
    },
    RUN_MS,
  );
});
