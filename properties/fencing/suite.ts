/**
 * The fencing property suite as one call: standalone runs (mode disabled throughout) and door runs
 * (the same generator plus the mode doors onto the cluster). Used by `fencecheck props`, the impl
 * mutant runner, the benchmark and the vitest test, so all of them run the same checks.
 */
import type { ImplPatch } from '../../src/systems/fencing/patch.js';
import { ValkeyUnavailableError } from '../../src/valkey/index.js';
import { DEFAULT_BOUNDS, type FencingBounds } from '../../src/systems/fencing/state.js';
import type { CheckSet } from './checks.js';
import { openPropsEnv, type PropsTopology } from './env.js';
import { coverageTracker, type ModelCoverage } from '../../src/systems/fencing/tour/coverage.js';
import { modelGraphYielding } from '../../src/seam/tour/model-graph.js';
import { fencingTourModel } from '../../src/systems/fencing/tour/system.js';
import { runFencingProps, type PropsResult } from './props.js';
import { asInfrastructureFault, type Fault } from '../../src/valkey/fault.js';
import { WHOLE, type Shard } from '../../src/seam/tour/shard.js';

export type SuiteTopology = PropsTopology | 'both';

export interface SuiteOptions {
  readonly topology: SuiteTopology;
  /** Runs on the standalone topology (and on the door topology when it is the only one). */
  readonly runs: number;
  /** Runs with the door when topology is `both`. */
  readonly doorRuns: number;
  readonly maxCommands: number;
  readonly seed?: number;
  /** Replays one counterexample: needs a single topology and its seed. */
  readonly path?: string;
  readonly patch?: ImplPatch;
  readonly checks?: CheckSet;
  readonly bounds?: FencingBounds;
  readonly traceLabel?: string;
  /** Part i/n of the runs (`props --shard i/n`): its share of each phase's runs, on a seed of its own; the n parts together run the whole count. */
  readonly shard?: Shard;
  /** Record every run's observed behaviour for trace validation, one file per topology (`props-standalone`, `props-door`) under `dir` (default: the observed-trace folder). */
  readonly record?: { readonly dir?: string };
  readonly log?: (line: string) => void;
  /** Progress lines (a phase starts, runs done so far). */
  readonly progress?: (line: string) => void;
  /** After every completed run of a phase (a progress meter's input). */
  readonly onRun?: (topology: PropsTopology, runs: number, total: number, commands: number) => void;
}

export interface SuitePhase {
  readonly topology: PropsTopology;
  readonly result: PropsResult;
}

export interface SuiteResult {
  readonly passed: boolean;
  readonly phases: readonly SuitePhase[];
  /** The failing phase, if any (its result carries seed, path and trace). Never set with notRun. */
  readonly failed?: SuitePhase;
  /**
   * An infrastructure fault stopped the suite (a lost connection, a server gone, a timeout, NOPERM):
   * could not run, exit 2 — never a counterexample. `passed` is false.
   */
  readonly notRun?: { readonly topology: PropsTopology; readonly fault: Fault };
}

/**
 * Sized by what the runs add beyond the exhaustive tour (which covers every state and transition by
 * injection): real TTL expiries, live reshards across the door, ASK redirects, long histories. The
 * runs print what they add every GAIN_EVERY runs (`gain after N runs: …`). Measured with `fencecheck
 * props --runs 100 --door-runs 40 --seed 7` (2026-12-02, 2 cores): 100 standalone runs take 3.4 s
 * and gave 34 leases lost to real expiry (3–9 per 10 runs: kept, they are cheap); a door run takes
 * ~1 s, and each 10 of them added 2–5 door crossings, 2–4 live reshards and 7–121 ASK redirects —
 * every kind present after the first 10. 20 door runs (5 crossings, 5 reshards, 68 ASK redirects
 * with seed 7) keep every kind several times and halve the stage (40 → 20 s); more are a
 * `--door-runs` away (docs/decisions.md, "A fast gate").
 */
export const DEFAULT_RUNS = 100;
export const DEFAULT_DOOR_RUNS = 20;
export const DEFAULT_MAX_COMMANDS = 60;

/** Part i/n of `runs`: the n parts add up to `runs`, the first ones one more when it does not divide. */
export function shardRuns(runs: number, shard: Shard): number {
  return Math.floor(runs / shard.count) + (shard.index - 1 < runs % shard.count ? 1 : 0);
}

/** Each part's seed: the given one moved by the part's index (the part's runs are not the first part's again). */
export function shardSeed(seed: number, shard: Shard): number {
  return (seed + 7919 * (shard.index - 1)) | 0;
}

export function randomSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

/**
 * Runs the phases in order and stops at the first failure or fault. ValkeyUnavailableError from
 * starting the topologies propagates (not run); a fault met later is returned as `notRun`.
 */
export async function runFencingSuite(opts: SuiteOptions): Promise<SuiteResult> {
  if (opts.path !== undefined && opts.topology === 'both') throw new RangeError('--path replays one run: give --topology standalone or door with it');
  if (opts.path !== undefined && opts.seed === undefined) throw new RangeError('--path needs the --seed it was printed with');
  const shard = opts.path === undefined ? (opts.shard ?? WHOLE) : WHOLE;
  const seed = shardSeed(opts.seed ?? randomSeed(), shard);
  const share = (runs: number) => shardRuns(runs, shard);
  const plan: { topology: PropsTopology; runs: number; seed: number }[] =
    opts.topology === 'both'
      ? [
          { topology: 'standalone', runs: share(opts.runs), seed },
          { topology: 'door', runs: share(opts.doorRuns), seed: (seed + 1) | 0 },
        ]
      : [{ topology: opts.topology, runs: share(opts.runs), seed }];
  const phases: SuitePhase[] = [];
  // The model's graph (the coverage figures' base, seconds of work, cached) before any server runs,
  // in slices a signal can come between (another system's servers may have installed the end handlers).
  if (plan.some((p) => p.runs > 0)) await modelGraphYielding(fencingTourModel(opts.bounds ?? DEFAULT_BOUNDS));
  for (const p of plan) {
    if (p.runs === 0) continue;
    let env: Awaited<ReturnType<typeof openPropsEnv>>;
    try {
      env = await openPropsEnv(p.topology, { ...(opts.patch ? { patch: opts.patch } : {}), bounds: opts.bounds ?? DEFAULT_BOUNDS });
    } catch (err) {
      const f = err instanceof ValkeyUnavailableError ? null : asInfrastructureFault(err, { during: `starting the ${p.topology} topology` });
      if (f) return { passed: false, phases, notRun: { topology: p.topology, fault: f.fault } };
      throw err;
    }
    let result: PropsResult;
    try {
      // Inside the try: nothing between opening the env and this try may throw past its close.
      opts.progress?.(`[${p.topology}] ${p.runs} runs (seed ${p.seed})…`);
      result = await runFencingProps(env.ctx, {
        runs: p.runs,
        maxCommands: opts.maxCommands,
        seed: p.seed,
        ...(opts.path !== undefined ? { path: opts.path } : {}),
        ...(opts.checks ? { checks: opts.checks } : {}),
        ...(opts.traceLabel ? { traceLabel: opts.traceLabel } : {}),
        ...(opts.record ? { record: { name: `props-${p.topology}`, ...(opts.record.dir !== undefined && { dir: opts.record.dir }) } } : {}),
        ...(opts.log ? { log: (l: string) => opts.log!(`[${p.topology}] ${l}`) } : {}),
        ...(opts.onRun ? { onRun: (runs: number, commands: number) => opts.onRun!(p.topology, runs, p.runs, commands) } : {}),
      });
    } catch (err) {
      await env.close().catch(() => {});
      const f = asInfrastructureFault(err);
      if (f) return { passed: false, phases, notRun: { topology: p.topology, fault: f.fault } };
      throw err;
    }
    const phase = { topology: p.topology, result };
    phases.push(phase);
    try {
      await env.close();
    } catch (err) {
      // A fault while closing: whatever the runs found just before it is not a verdict either.
      const f = asInfrastructureFault(err, { during: `closing the ${p.topology} topology` });
      if (!f) throw err;
      return { passed: false, phases, notRun: { topology: p.topology, fault: result.fault ?? f.fault } };
    }
    if (result.fault) return { passed: false, phases, notRun: { topology: p.topology, fault: result.fault } };
    if (!result.passed) return { passed: false, phases, failed: phase };
  }
  return { passed: true, phases };
}

/** Model coverage per topology and of the whole suite (visits of every phase merged). */
export function suiteCoverage(r: SuiteResult, bounds: FencingBounds = DEFAULT_BOUNDS): { readonly perTopology: Readonly<Record<string, ModelCoverage>>; readonly all: ModelCoverage } {
  const all = coverageTracker(bounds);
  const perTopology: Record<string, ModelCoverage> = {};
  for (const p of r.phases) {
    perTopology[p.topology] = p.result.coverage;
    all.merge(p.result.visited);
  }
  return { perTopology, all: all.result() };
}

export function suiteTotals(r: SuiteResult): { runs: number; commands: number; doorCrossings: number; reshards: number; askRedirects: number; durationMs: number } {
  const sum = (f: (x: PropsResult) => number) => r.phases.reduce((a, p) => a + f(p.result), 0);
  return {
    runs: sum((x) => x.runs),
    commands: sum((x) => x.commands),
    doorCrossings: sum((x) => x.doorCrossings),
    reshards: sum((x) => x.reshards),
    askRedirects: sum((x) => x.askRedirects),
    durationMs: sum((x) => x.durationMs),
  };
}
