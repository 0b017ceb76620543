/**
 * What every system's tour entry (SystemEntry.tour) does the same way: its bounds checked, a
 * mutant's patch loaded, the invariant to check alone named, the engine's options taken from the
 * entry's, the counterexample trace's file name, the typed run handed back untyped, a replayed
 * instance opened. A system's entry keeps only what is its own (its rig, its trace, its patch type).
 */
import type { MutantEntry } from '../../core/manifest.js';
import type { TracePatch } from '../../core/trace-format.js';
import { loadPatchModule } from '../patch-file.js';
import { EVERY_INVARIANT, everyInvariantModel, namedEveryFailure, TourSetupError, type SystemTourOptions, type SystemTourRun } from './entry.js';
import type { TourResult } from './result.js';
import type { TourModel, TourSystem } from './system.js';
import type { TourOptions } from './tour.js';

/** The bounds a tour was given (the model system's, after --const): a bound out of range is bad input. */
export function tourBounds<B>(given: unknown, base: B, parse: (b: unknown) => B): B {
  if (given === undefined) return base;
  try {
    return parse(given);
  } catch (err) {
    if (err instanceof RangeError) throw new TourSetupError(err.message);
    throw err;
  }
}

/** A manifest entry's impl patch, loaded; an entry without one, or one that cannot be loaded, is bad input. */
export async function mutantPatch<P>(m: MutantEntry | undefined, load: (file: string) => Promise<P>): Promise<P | undefined> {
  if (!m) return undefined;
  const file = m.layers.impl?.patch;
  if (!file) throw new TourSetupError(`${m.id} names no impl patch`);
  try {
    return await load(file);
  } catch (err) {
    throw new TourSetupError((err as Error).message);
  }
}

/** A user's patch file (`--patch FILE`, recorded), loaded as the system's patch type; one that cannot be loaded, or is none, is bad input. */
export async function userPatch<P>(rec: TracePatch | undefined, isPatch: (x: unknown) => x is P, patchType: string): Promise<P | undefined> {
  if (!rec) return undefined;
  try {
    return await loadPatchModule(rec.path, isPatch, patchType);
  } catch (err) {
    throw new TourSetupError((err as Error).message);
  }
}

/** The invariant checked alone (`--invariant`, else the mutant's expected one), known to the system before anything starts. */
export function invariantToCheck(system: string, names: readonly string[], opts: SystemTourOptions): string | undefined {
  const invariant = opts.invariant ?? opts.mutant?.expectedInvariant;
  if (invariant !== undefined && invariant !== EVERY_INVARIANT && !names.includes(invariant)) throw new TourSetupError(`${system} has no invariant ${invariant} (${names.join(', ')})`);
  return invariant;
}

/**
 * The system the engine tours for `invariant`: with EVERY_INVARIANT (a user's patch followed with
 * every invariant, `--safety-only`), its model with their conjunction as one more invariant.
 */
export function systemFor<S, A, D, I, O>(sys: TourSystem<S, A, D, I, O>, invariant: string | undefined): TourSystem<S, A, D, I, O> {
  return invariant === EVERY_INVARIANT ? { ...sys, model: everyInvariantModel(sys.model) } : sys;
}

/** A result whose EVERY_INVARIANT failure is named by the model's invariants the state breaks. */
export function namedResult<S, A, D>(model: TourModel<S, A, D>, r: TourResult<S, A, D>): TourResult<S, A, D> {
  return r.failure ? { ...r, failure: namedEveryFailure(model, r.failure) } : r;
}

/** The engine's options from the entry's: the check mode, the shard, the baseline, concurrency (or the system's default), progress. */
export function engineOptions(opts: Pick<SystemTourOptions, 'shard' | 'baseline' | 'concurrency' | 'onProgress'>, invariant: string | undefined, defaultConcurrency?: number): TourOptions {
  const concurrency = opts.concurrency ?? defaultConcurrency;
  return {
    checks: invariant ? { kind: 'invariant', invariant } : { kind: 'conformance' },
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.baseline ? { baseline: opts.baseline } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  };
}

/** A counterexample trace's file name: `<prefix>[shard<i>of<n>-]<check>.json` (the shard part only when sharded). */
export function traceFileName(prefix: string, result: TourResult<unknown, unknown, unknown>, check: string): string {
  const shard = result.shard.count > 1 ? `shard${result.shard.index}of${result.shard.count}-` : '';
  return `${prefix}${shard}${check}.json`;
}

/** A system's typed run as the registry's untyped SystemTourRun. */
export function asSystemTourRun<S, A, D>(model: TourModel<S, A, D>, run: { result: TourResult<S, A, D>; tracePath?: string; replay?: string }): SystemTourRun {
  return {
    result: run.result as unknown as TourResult<unknown, unknown, unknown>,
    model: model as unknown as SystemTourRun['model'],
    ...(run.tracePath !== undefined ? { tracePath: run.tracePath } : {}),
    ...(run.replay !== undefined ? { replay: run.replay } : {}),
  };
}

/** A replayed tour's fresh instance, opened; one that fails to open is closed before the error goes on. */
export async function openedInstance<I extends { open(): Promise<unknown>; close(): Promise<unknown> }>(i: I): Promise<I> {
  try {
    await i.open();
  } catch (err) {
    await i.close().catch(() => {});
    throw err;
  }
  return i;
}
