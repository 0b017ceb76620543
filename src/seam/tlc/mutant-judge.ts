/**
 * What every TLC mutant check shares, whatever the spec (fencing's check.ts, the seam systems'
 * system-check.ts): running one config of a spec, the verdict from TLC's outcome (killed only by the
 * expected invariant), the `equivalent` test of a survivor against the base's reachable states, and
 * the MutantResult a layer reports.
 */
import { join } from 'node:path';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult, Verdict } from '../../core/verdict.js';
import type { TlcTools } from '../../tlc/locate.js';
import { runTlc, type TlcRun } from '../../tlc/run.js';

export interface CheckOptions {
  readonly tools: TlcTools;
  readonly timeoutMs?: number;
  readonly workers?: number;
  readonly root?: string;
}

/** How a run dumps: nothing, the plain state list, or the labelled state graph. */
export type DumpKind = 'none' | 'states' | 'graph';

/** One spec with one of its configs (paths from the root). -deadlock, as every project config says. */
export function runConfig(spec: string, config: string, opts: CheckOptions, root: string, dump: DumpKind): Promise<TlcRun> {
  return runTlc({
    spec: join(root, spec),
    config: join(root, config),
    dump: dump !== 'none',
    graph: dump === 'graph',
    tools: opts.tools,
    ...(opts.timeoutMs !== undefined && { timeoutMs: opts.timeoutMs }),
    ...(opts.workers !== undefined && { workers: opts.workers }),
  });
}

/**
 * The verdict of one mutant run: killed only when TLC reports the expected invariant; another
 * invariant is wrong-invariant; parse errors, crashes and failed assumptions are invalid.
 */
export function verdictOf(run: TlcRun, expected: string): { verdict: Verdict; reason?: string } {
  if (run.kind === 'timeout') return { verdict: 'timeout', reason: `TLC did not finish in ${Math.round(run.timeoutMs / 1000)} s` };
  const r = run.result;
  switch (r.outcome) {
    case 'invariant-violation':
      return r.violated === expected ? { verdict: 'killed' } : { verdict: 'wrong-invariant', reason: `TLC reported ${r.violated}, expected ${expected}` };
    case 'ok':
      return { verdict: 'survived', reason: `no invariant violated (${r.distinct ?? '?'} distinct states)` };
    case 'parse-error': {
      const d = r.sany[0];
      return { verdict: 'invalid', reason: d ? `SANY: ${d.file}:${d.line}:${d.column}: ${d.message}` : 'SANY could not parse the spec' };
    }
    case 'assumption-false':
      return { verdict: 'invalid', reason: `an ASSUME failed (a config naming a guard the spec does not have?): ${r.errors[0] ?? ''}`.trim() };
    default:
      return { verdict: 'invalid', reason: `TLC ${r.outcome}: ${r.errors[0]?.split('\n').slice(0, 3).join(' ') ?? 'no message'}` };
  }
}

/**
 * verdictOf, and a survivor whose reachable states (sorted canonical keys, from `states()`) are
 * exactly the base's is `equivalent`: its target is redundant given the other guards.
 */
export async function judgeMutant(
  run: TlcRun,
  m: Pick<MutantEntry, 'target' | 'expectedInvariant'>,
  equivalence?: { readonly base: readonly string[]; readonly states: () => Promise<readonly string[] | undefined> },
): Promise<{ verdict: Verdict; reason?: string }> {
  const judged = verdictOf(run, m.expectedInvariant);
  if (judged.verdict !== 'survived' || !equivalence) return judged;
  const mine = await equivalence.states();
  if (!mine || mine.length !== equivalence.base.length || !mine.every((s, i) => s === equivalence.base[i])) return judged;
  return { verdict: 'equivalent', reason: `same ${mine.length} reachable states as the base: ${m.target} is redundant given the other guards` };
}

/** The layer's result of one mutant run (TLC's own time when it finished, else the wall time). */
export function mutantResult(
  m: Pick<MutantEntry, 'id' | 'expectedInvariant'>,
  run: TlcRun,
  verdict: Verdict,
  extra: { violated?: string; alsoBroken?: readonly string[]; traceLength?: number; reason?: string },
): MutantResult {
  return {
    id: m.id,
    layer: 'tla',
    verdict,
    expectedInvariant: m.expectedInvariant,
    ...(extra.violated !== undefined && { violated: extra.violated }),
    ...(extra.alsoBroken && { alsoBroken: extra.alsoBroken }),
    ...(extra.traceLength !== undefined && { traceLength: extra.traceLength }),
    durationMs: run.kind === 'completed' ? (run.result.durationMs ?? run.wallMs) : run.wallMs,
    ...(extra.reason !== undefined && extra.reason !== '' && { reason: extra.reason }),
  };
}
