/**
 * A user's patch on a system without a tour: judged by everything its ordinary impl checks judge,
 * together (the limiter: its property runs against the reference model and its invariant tests),
 * first on the unpatched code, then on the patched — through the one verdict function
 * (src/seam/tour/patch-verdict.ts): killed by the first check that fails (named), survived when
 * every one holds. Nothing observed is digested, so such a patch is never called equivalent.
 */
import type { TracePatch } from '../core/trace-format.js';
import { patchVerdict, type JudgedRun, type PatchVerdict } from './tour/patch-verdict.js';

/** One run of the system's checks, as the verdict reads it. */
export interface ChecksRun extends JudgedRun {
  readonly checks: { readonly kind: 'checks' };
  readonly observed: null;
  /** A fault met (no server, a lost connection): not run, never a verdict. */
  readonly notRun: string | null;
  /** What ran, in a few words (`250 property cases, 9 invariant tests on standalone`). */
  readonly summary: string;
  /** The one command that reproduces the failure, when one failed. */
  readonly replay?: string;
}

/** The result of a system's checks as a ChecksRun (a failure: the first check that failed, by name). */
export function checksRun(o: { failure: { check: string; message: string } | null; notRun?: string | null; summary: string; replay?: string }): ChecksRun {
  return {
    failure: o.failure,
    equalToModel: o.failure === null && !o.notRun ? true : null,
    checks: { kind: 'checks' },
    observed: null,
    notRun: o.notRun ?? null,
    summary: o.summary,
    ...(o.replay !== undefined ? { replay: o.replay } : {}),
  };
}

/** What a system without a tour offers for `--patch FILE` (SystemEntry.patchChecks). */
export interface PatchChecks {
  /** What its patch files default-export, for messages. */
  readonly patchType: string;
  isPatch(x: unknown): boolean;
  /** Its checks on the unpatched code (no patch) or on the patched code. Throws only on a harness bug. */
  run(opts: PatchChecksOptions): Promise<ChecksRun>;
}

export interface PatchChecksOptions {
  readonly patch?: TracePatch;
  readonly seed?: number;
  readonly numRuns?: number;
  readonly log?: (line: string) => void;
}

export type ChecksJudgement =
  | { readonly kind: 'not-run'; readonly why: string; readonly base: ChecksRun; readonly patched?: ChecksRun }
  | { readonly kind: 'judged'; readonly verdict: PatchVerdict<ChecksRun>; readonly base: ChecksRun; readonly patched?: ChecksRun };

/** The unpatched checks, then (when they held) the patched ones, and the verdict. */
export async function judgePatchByChecks(run: (patch: TracePatch | undefined) => Promise<ChecksRun>, patch: TracePatch): Promise<ChecksJudgement> {
  const base = await run(undefined);
  if (base.notRun !== null) return { kind: 'not-run', why: base.notRun, base };
  if (base.failure !== null) return { kind: 'judged', verdict: patchVerdict({ base, patched: base }), base };
  const patched = await run(patch);
  if (patched.notRun !== null) return { kind: 'not-run', why: patched.notRun, base, patched };
  return { kind: 'judged', verdict: patchVerdict({ base, patched }), base, patched };
}
