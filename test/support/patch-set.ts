/**
 * A set of small bugs written as patch files, each judged on its system's tour by the three paths a
 * user's patch takes — `conform --patch` and `mutants --patch` (no --expect) through the real CLI,
 * and the impl layer in process on the user's patch entry (any invariant) — which must agree: killed
 * by the check each bug breaks, equivalent for a rewording, survived for a change only the observed
 * digest shows (a verdict from the decision digest alone calls it equivalent). Then `--safety-only`
 * on the departure (departs, exit 4) and on the invariant bug (killed by its invariant, exit 1).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { implLayerRunner } from '../../src/mutants/layers/impl.js';
import { patchFileRecord, userPatchEntry } from '../../src/seam/patch-file.js';
import { EVERY_INVARIANT } from '../../src/seam/tour/entry.js';
import { fencecheckCli } from './cli.js';

export interface PatchSet {
  readonly system: string;
  /** The fixtures' folder (repository-relative): `<bug>.ts` each. */
  readonly folder: string;
  /** The tour's constants for every run. */
  readonly constants: Readonly<Record<string, string>>;
  /** Bug → its verdict: `killed by CHECK`, `equivalent` or `survived`. */
  readonly bugs: Readonly<Record<string, string>>;
  /** `--safety-only`: the departure's bug and the first line it prints; the invariant bug and its invariant (absent: the caller tests it). */
  readonly safety?: { readonly departs: readonly [string, RegExp]; readonly invariant: readonly [string, string] };
  /** Per test (three paths, two tours each). */
  readonly timeoutMs: number;
}

type Judged = { verdict: string; violated?: string };
const named = (v: Judged) => (v.verdict === 'killed' ? `killed by ${v.violated}` : v.verdict);

export function describePatchSet(set: PatchSet): void {
  const consts = Object.entries(set.constants).flatMap(([k, v]) => ['--const', `${k}=${v}`]);
  let traces = '';
  beforeAll(() => {
    traces = ownedTempDir(`patch-set-${set.system}`);
  });
  afterAll(() => rmSync(traces, { recursive: true, force: true }));
  const cli = (args: readonly string[]) => fencecheckCli(args, { FENCECHECK_TRACE_DIR: join(traces, 't') }, { timeoutMs: set.timeoutMs });

  describe.sequential(`${set.system}: a user patch gets one verdict from conform --patch, mutants --patch and the impl layer`, () => {
    for (const [bug, want] of Object.entries(set.bugs)) {
      it(
        `${bug}: ${want}`,
        async () => {
          const file = `${set.folder}/${bug}.ts`;
          const c = await cli(['conform', '--system', set.system, '--patch', file, ...consts, '--json']);
          const cp = (JSON.parse(c.out) as { details: { patch: Judged } }).details.patch;
          const m = await cli(['mutants', '--system', set.system, '--patch', file, ...consts, '--json']);
          const mr = (JSON.parse(m.out) as { mutants: Judged[] }).mutants[0]!;
          const prev = process.env.FENCECHECK_TRACE_DIR;
          process.env.FENCECHECK_TRACE_DIR = join(traces, 'impl');
          let layer;
          try {
            [layer] = await implLayerRunner().run([userPatchEntry(patchFileRecord(file), set.system, EVERY_INVARIANT)], { constants: set.constants });
          } finally {
            if (prev === undefined) delete process.env.FENCECHECK_TRACE_DIR;
            else process.env.FENCECHECK_TRACE_DIR = prev;
          }
          expect({ conform: named(cp), mutants: named(mr), impl: named(layer!) }, `${c.err}\n${m.err}\n${layer!.reason ?? ''}`).toEqual({ conform: want, mutants: want, impl: want });
          expect({ conform: c.code, mutants: m.code }).toEqual(want.startsWith('killed') ? { conform: 1, mutants: 0 } : { conform: 0, mutants: 1 });
        },
        set.timeoutMs,
      );
    }

    const safety = set.safety;
    if (safety)
      it(
        '--safety-only: the departure keeping every invariant departs (exit 4), the invariant bug is killed by its invariant (exit 1)',
        async () => {
          const [bug, line] = safety.departs;
          const departs = await cli(['conform', '--system', set.system, '--patch', `${set.folder}/${bug}.ts`, '--safety-only', ...consts]);
          expect(departs.code, departs.out + departs.err).toBe(4);
          expect(departs.out).toMatch(line);
          const [ibug, invariant] = safety.invariant;
          const broken = await cli(['conform', '--system', set.system, '--patch', `${set.folder}/${ibug}.ts`, '--safety-only', ...consts]);
          expect(broken.code, broken.out + broken.err).toBe(1);
          expect(broken.out).toMatch(new RegExp(`^killed: ${invariant} broken after \\d+ steps`, 'm'));
        },
        set.timeoutMs,
      );
  });
}
