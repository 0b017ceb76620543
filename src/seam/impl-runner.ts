/**
 * The implementation layer of one system package: its real code (on real Valkey, or a real server
 * over real sockets), each mutant applied through the impl patch its manifest entry names
 * (mutants/<package>/impl/<id>.ts). The impl layer (src/mutants/layers/impl.ts) hands each package its
 * entries.
 *
 * The rules every runner keeps are written once, here (`runImplEntries`): the unpatched code passes
 * the same run first (or every result is `invalid`, said why); a mutant is `killed` only when the
 * run's ordinary checkers — which read the real system and never which mutant is active — report the
 * entry's `expectedInvariant`; a fault (the system could not be run) is `not-run`, never a verdict; a
 * patch that cannot be loaded is `invalid`. A runner supplies how to open its rig, run the base, load
 * a patch and run a mutant.
 */
import type { LayerRunOptions } from './layer-runner.js';
import type { MutantEntry } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import { atMost } from '../core/at-most.js';

export interface SystemImplRunner {
  /** The package whose entries this runner takes (the entries' systems are the package's). */
  readonly system: string;
  /** Null when the layer can run here; otherwise why every result is not-run (e.g. no valkey-server). */
  unavailable(): Promise<string | null>;
  /** Results with layer 'impl', one per entry, in the entries' order. */
  run(mutants: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]>;
}

/** What one run of the real code found, as the run's own checkers report it. */
export type ImplOutcome =
  /** The checkers reported these checks broken, the first one first. */
  | { readonly kind: 'violated'; readonly checks: readonly string[]; readonly detail: string; readonly extra?: ImplExtra }
  /** Nothing broke, and the run equals the unpatched one (an equivalent mutant). */
  | { readonly kind: 'equivalent'; readonly detail: string; readonly extra?: ImplExtra }
  /** Nothing broke. */
  | { readonly kind: 'held'; readonly detail: string; readonly extra?: ImplExtra }
  /** The run cannot be judged: it could not run (a fault), or ran as no run should (invalid). */
  | { readonly kind: 'not-run' | 'invalid'; readonly detail: string; readonly extra?: ImplExtra };

/** What a result may carry besides the verdict: where to look and how to reproduce it. */
export type ImplExtra = Pick<MutantResult, 'traceLength' | 'tracePath' | 'seed' | 'path' | 'replay'>;

export interface ImplRunSpec<Rig, Patch> {
  /** Starts what the runs need (topologies, a server); a fault here makes every entry not-run. */
  open(): Promise<Rig>;
  close(rig: Rig): Promise<void>;
  /** The unpatched code's run; anything but `held` makes every entry invalid. */
  base(rig: Rig): Promise<ImplOutcome>;
  /** The entry's patch; a throw makes the entry invalid (the message says why). */
  loadPatch(entry: MutantEntry): Promise<Patch>;
  mutant(rig: Rig, entry: MutantEntry, patch: Patch): Promise<ImplOutcome>;
  /** Why an error is a fault (the system could not be run), or null when it is not one. */
  fault(err: unknown): string | null;
  /** Units for the progress meter (`tours`, `runs`, `drills`). */
  readonly unit: string;
  /**
   * How many mutant runs may be under way at once (default 1). More than one only where each run
   * has its own real system (a fresh server per check) and spends its time waiting on it, not where
   * runs share one rig.
   */
  readonly parallel?: number;
}

/** The impl layer's rules over one runner's entries (see the module comment). */
export async function runImplEntries<Rig, Patch>(entries: readonly MutantEntry[], options: LayerRunOptions, spec: ImplRunSpec<Rig, Patch>): Promise<MutantResult[]> {
  if (entries.length === 0) return [];
  const log = options.log ?? (() => {});
  const every = (verdict: 'not-run' | 'invalid', reason: string): MutantResult[] => entries.map((m) => ({ id: m.id, layer: 'impl', verdict, expectedInvariant: m.expectedInvariant, reason }));
  const total = entries.length + 1;
  let rig: Rig;
  try {
    rig = await spec.open();
  } catch (err) {
    const why = spec.fault(err);
    if (why !== null) return every('not-run', why);
    throw err;
  }
  try {
    options.onProgress?.(0, total, spec.unit, 'unpatched');
    let base: ImplOutcome;
    try {
      base = await spec.base(rig);
    } catch (err) {
      const why = spec.fault(err);
      if (why !== null) return every('not-run', why);
      return every('invalid', `the unpatched run crashed: ${(err as Error).stack ?? String(err)}`).map((r) => ({ ...r, invalidBy: 'unpatched' as const }));
    }
    // A kill means something only when the unpatched code passes the very same run.
    if (base.kind === 'not-run') return every('not-run', `the unpatched run: ${base.detail}`);
    if (base.kind !== 'held') {
      const reason = `the unpatched code ${base.kind === 'violated' ? `breaks ${base.checks.join(', ')}` : 'run is not a passing run'}: ${base.detail}`;
      log(`[impl] ${reason}`);
      return every('invalid', reason).map((r) => ({ ...r, invalidBy: 'unpatched' as const }));
    }
    log(`[impl] unpatched: ${base.detail}`);
    const results: MutantResult[] = new Array(entries.length);
    let started = 0;
    let fault: string | null = null;
    // After a fault the rig is not to be trusted: the entries not yet started are not run, with its reason.
    await atMost(entries, spec.parallel ?? 1, async (m, i) => {
      if (fault !== null) {
        results[i] = { id: m.id, layer: 'impl', verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason: `after a fault: ${fault}` };
        return;
      }
      options.onProgress?.(++started, total, spec.unit, m.id);
      const r = await runOne(rig, m, spec);
      log(`[impl ${m.id}] ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}${r.reason ? `: ${r.reason}` : ''}`);
      results[i] = r;
      if (r.verdict === 'not-run' && fault === null) fault = r.reason ?? '';
    });
    options.onProgress?.(total, total, spec.unit);
    return results;
  } finally {
    await spec.close(rig);
  }
}

async function runOne<Rig, Patch>(rig: Rig, m: MutantEntry, spec: ImplRunSpec<Rig, Patch>): Promise<MutantResult> {
  const t0 = performance.now();
  const head = { id: m.id, layer: 'impl' as const, expectedInvariant: m.expectedInvariant };
  const took = () => ({ durationMs: Math.round(performance.now() - t0) });
  let patch: Patch;
  try {
    patch = await spec.loadPatch(m);
  } catch (err) {
    return { ...head, verdict: 'invalid', invalidBy: 'patch', reason: `patch: ${(err as Error).message}`, ...took() };
  }
  let out: ImplOutcome;
  try {
    out = await spec.mutant(rig, m, patch);
  } catch (err) {
    const why = spec.fault(err);
    if (why !== null) return { ...head, verdict: 'not-run', reason: why, ...took() };
    return { ...head, verdict: 'invalid', invalidBy: 'run', reason: (err as Error).stack ?? String(err), ...took() };
  }
  const extra = out.extra ?? {};
  if (out.kind === 'equivalent') return { ...head, verdict: 'equivalent', reason: out.detail, ...extra, ...took() };
  if (out.kind === 'held') return { ...head, verdict: 'survived', reason: out.detail, ...extra, ...took() };
  if (out.kind !== 'violated') return { ...head, verdict: out.kind, reason: out.detail, ...extra, ...took() };
  const killed = out.checks.includes(m.expectedInvariant);
  const violated = killed ? m.expectedInvariant : out.checks[0]!;
  return {
    ...head,
    verdict: killed ? 'killed' : 'wrong-invariant',
    violated,
    alsoBroken: out.checks.filter((c) => c !== violated),
    reason: out.detail,
    ...extra,
    ...took(),
  };
}
