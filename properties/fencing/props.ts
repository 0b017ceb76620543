/**
 * The fencing property suite: fast-check generates intent sequences, each run executes on real
 * Valkey (run.ts). Every failure carries its seed and path; passing them back replays the same run.
 * A failing run is saved as the fencing system's trace (fencecheck.trace/2, source 'props').
 * Faults are not verdicts (src/valkey/fault.ts): the first infrastructure fault is latched, every
 * later property call fails at once with it, and the result is `fault` (not run) — never a
 * counterexample. A failed check is a verdict only if a health probe right after it answers.
 */
import fc from 'fast-check';
import { eventParams } from '../../models/fencing/index.js';
import { DEFAULT_BOUNDS, initialState, type FencingBounds, type FencingState } from '../../src/systems/fencing/state.js';
import type { Trace } from '../../src/core/trace-format.js';
import { saveTrace as saveSeamTrace, traceOfStates, type StateStep } from '../../src/seam/trace.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { canonicalKey } from '../../src/systems/fencing/state.js';
import type { ExpiryMode } from '../../src/systems/fencing/driver.js';
import { ALL_CHECKS, type CheckSet } from './checks.js';
import { intentLabel, runArbitrary, type Intent } from './intents.js';
import { executeRun, type RunContext, type RunFailure, type StepRecord } from './run.js';
import { FaultLatch, probeHealth, type Fault } from '../../src/valkey/fault.js';
import { closeClient } from '../../src/valkey/index.js';
import { coverageTracker, type CoverageTracker, type ModelCoverage } from '../../src/systems/fencing/tour/coverage.js';
import type { ObservedTrace } from '../../src/seam/tracecheck/format.js';
import { writeObserved } from '../../src/seam/tracecheck/store.js';
import { propsObservedTrace } from './observed.js';

export interface PropsOptions {
  readonly runs: number;
  readonly maxCommands: number;
  readonly seed?: number;
  readonly path?: string;
  readonly checks?: CheckSet;
  /** Mutant id, recorded in the saved trace only (the run itself does not know it). */
  readonly traceLabel?: string;
  readonly traceDir?: string;
  readonly log?: (line: string) => void;
  /** After every completed run: runs and commands so far (a progress meter's input). */
  readonly onRun?: (runs: number, commands: number) => void;
  /**
   * Record every run's observed behaviour for trace validation (`fencecheck tracecheck`), written
   * as one file under `dir` (default: the observed-trace folder, src/seam/tracecheck/store.ts);
   * `name` names the file and the traces (`props-standalone`).
   */
  readonly record?: { readonly name: string; readonly dir?: string };
}

export interface PropsFailure extends RunFailure {
  readonly seed: number;
  readonly path: string;
  readonly intents: readonly string[];
  readonly expiry: ExpiryMode;
  readonly tracePath?: string;
  readonly traceLength: number;
}

export interface PropsResult {
  readonly passed: boolean;
  readonly seed: number;
  readonly runs: number;
  readonly commands: number;
  readonly doorCrossings: number;
  readonly reshards: number;
  /** ASK redirects met by the runs' clients during live reshards. */
  readonly askRedirects: number;
  /** Commands after the door (on the cluster) and their time, checks included (for the benchmark). */
  readonly clusterCommands: number;
  readonly clusterMs: number;
  readonly followedGateSteps: number;
  readonly durationMs: number;
  /** The share of the model's states and labelled transitions these runs visited (on the real keyspace). */
  readonly coverage: ModelCoverage;
  readonly visited: CoverageTracker;
  /**
   * What the runs added as they went, every GAIN_EVERY runs and after the last: the model's states and
   * transitions reached through real histories, and what only real runs exercise (leases lost by real
   * TTL expiry, door crossings, live reshards, ASK redirects). The tour covers every state and
   * transition by injection; this says what more runs still add, so the default run count is chosen
   * by measurement (docs/decisions.md).
   */
  readonly gain: readonly GainPoint[];
  readonly failure: PropsFailure | null;
  /** The observed traces' file (with `record`), relative to the project root. */
  readonly observedPath?: string;
  /** A run threw (not a check failure, not a fault): the error, with seed and path. */
  readonly error?: string;
  /**
   * An infrastructure fault (lost connection, server gone, timeout, NOPERM, …) stopped the runs:
   * not run, never a counterexample. `passed` is false, `failure` null, and no seed/path is a replay.
   */
  readonly fault?: Fault;
}

export interface GainPoint {
  readonly runs: number;
  readonly states: number;
  readonly transitions: number;
  readonly ttlExpiries: number;
  readonly doorCrossings: number;
  readonly reshards: number;
  readonly askRedirects: number;
}

export const GAIN_EVERY = 10;

/**
 * A failing run as the fencing system's trace (source `props`): each state is the real keyspace the
 * run observed after the step (not the model's prediction: that is `observed.predicted`).
 */
function toTrace(records: readonly StepRecord[], bounds: FencingBounds, f: { failure: RunFailure; seed: number; path: string; label?: string }): Trace {
  const steps: StateStep<FencingState>[] = [{ action: 'Init', params: {}, state: initialState(bounds) }];
  for (const r of records) {
    if (!r.event) continue;
    steps.push({
      action: r.event.type,
      params: eventParams(r.event),
      state: r.observed,
      observed: { intent: r.intent, status: r.status, note: r.note, predicted: canonicalKey(r.predicted), ...(r.followed ? { followedForbiddenStep: true } : {}) },
      ...(r.status === 'refused' && r.note ? { note: r.note } : {}),
    });
  }
  return traceOfStates(fencingSystem(bounds), steps, { source: 'props', ...(f.label ? { mutant: f.label } : {}), violated: f.failure.check, seed: f.seed, path: f.path });
}

function saveTrace(trace: Trace, dir: string | undefined): string {
  return saveSeamTrace(trace, `props-${trace.mutant ?? 'base'}-${trace.seed}-${Date.now()}.json`, dir);
}

export async function runFencingProps(ctx: Omit<RunContext, 'checks'>, opts: PropsOptions): Promise<PropsResult> {
  const started = Date.now();
  const bounds = ctx.bounds ?? DEFAULT_BOUNDS;
  const runCtx: RunContext = { ...ctx, bounds, checks: opts.checks ?? ALL_CHECKS };
  const seed = opts.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  let commands = 0;
  let runs = 0;
  let doorCrossings = 0;
  let reshards = 0;
  let askRedirects = 0;
  let clusterCommands = 0;
  let clusterMs = 0;
  let followed = 0;
  let ttlExpiries = 0;
  const gain: GainPoint[] = [];
  const point = (): GainPoint => {
    const c = visited.result();
    return { runs, states: c.states, transitions: c.transitions, ttlExpiries, doorCrossings, reshards, askRedirects };
  };
  // The last failing run is the shrunk counterexample (fast-check shrinks only through failures).
  const box: { last: { failure: RunFailure; records: readonly StepRecord[]; intents: readonly Intent[]; expiry: ExpiryMode; run: Awaited<ReturnType<typeof executeRun>> } | null } = { last: null };
  const arb = fc.tuple(
    runArbitrary(bounds.pods, ctx.door !== undefined, opts.maxCommands),
    // Most runs lose leases by release; some by real TTL expiry.
    fc.constantFrom<ExpiryMode>('release', 'release', 'release', 'ttl'),
  );
  // Faults are not verdicts: the first one is remembered, every later call (shrinking included)
  // fails at once with it, and the result is not-run whatever fast-check reports.
  const latch = new FaultLatch();
  // Without the door every connection of a run goes to the standalone node: name it in a fault.
  const only = ctx.door ? undefined : ctx.topology.nodes[0];
  const where = only ? { endpoint: `${only.host}:${only.port}` } : {};
  const visited = coverageTracker(bounds);
  const visit = (records: readonly StepRecord[]) => {
    let prev = initialState(bounds);
    visited.state(prev);
    for (const rec of records) {
      if (rec.event && rec.status === 'applied') visited.transition(prev, rec.event);
      visited.state(rec.observed);
      prev = rec.observed;
    }
  };
  // Every run until the first failure (fast-check's shrinking reruns failures: only the last, shrunk one is kept).
  const observed: ObservedTrace[] = [];
  const record = (r: Awaited<ReturnType<typeof executeRun>>, label: string) => {
    if (opts.record) observed.push(propsObservedTrace(r, { id: `${opts.record.name} seed ${seed} ${label}`, bounds, ...(opts.traceLabel ? { mutant: opts.traceLabel } : {}) }));
  };
  const property = fc.asyncProperty(arb, async ([intents, expiry]) => {
    latch.throwIfFaulted();
    let r: Awaited<ReturnType<typeof executeRun>>;
    try {
      r = await executeRun(runCtx, intents, expiry);
    } catch (err) {
      throw latch.capture(err, where);
    }
    runs += 1;
    commands += r.commands;
    if (r.crossedDoor) doorCrossings += 1;
    if (r.enabled) reshards += 1;
    askRedirects += r.askRedirects;
    clusterCommands += r.clusterCommands;
    clusterMs += r.clusterMs;
    followed += r.records.filter((x) => x.followed).length;
    if (expiry === 'ttl') ttlExpiries += r.records.filter((x) => x.status === 'applied' && (x.event?.type === 'ExpireOld' || x.event?.type === 'ExpireNew')).length;
    visit(r.records);
    if (runs % GAIN_EVERY === 0) {
      // What these runs added (the default run counts are chosen from these lines: docs/decisions.md).
      const g = point();
      const was = gain.at(-1);
      gain.push(g);
      opts.log?.(
        `gain after ${g.runs} runs: +${g.states - (was?.states ?? 0)} model states (${g.states}), +${g.transitions - (was?.transitions ?? 0)} transitions (${g.transitions}), +${g.ttlExpiries - (was?.ttlExpiries ?? 0)} real TTL expiries, +${g.doorCrossings - (was?.doorCrossings ?? 0)} door crossings, +${g.reshards - (was?.reshards ?? 0)} live reshards, +${g.askRedirects - (was?.askRedirects ?? 0)} ASK redirects (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    if (!r.failure && !box.last) record(r, `run ${runs}`);
    if (r.failure) {
      // A check failed: a verdict only on a healthy system (every node answers now).
      const sick = await healthFault(runCtx);
      if (sick) throw latch.capture(sick);
      box.last = { failure: r.failure, records: r.records, intents, expiry, run: r };
      return false;
    }
    opts.onRun?.(runs, commands);
    return true;
  });
  const details = await fc.check(property, {
    numRuns: opts.runs,
    seed,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
  });
  if (gain.at(-1)?.runs !== runs) gain.push(point());
  const path = details.counterexamplePath ?? '';
  if (box.last) record(box.last.run, `counterexample path ${path}`);
  const observedPath = opts.record ? writeObserved(opts.record.name, observed, opts.record.dir) : null;
  const base = {
    seed,
    runs,
    commands,
    doorCrossings,
    reshards,
    askRedirects,
    clusterCommands,
    clusterMs,
    followedGateSteps: followed,
    durationMs: Date.now() - started,
    coverage: visited.result(),
    visited,
    gain,
    ...(observedPath !== null && { observedPath }),
  };
  if (latch.fault) {
    opts.log?.(`props: could not run: ${latch.fault.message}`);
    return { ...base, passed: false, failure: null, fault: latch.fault.fault };
  }
  if (!details.failed) return { ...base, passed: true, failure: null };
  const found = box.last;
  if (!found) {
    const error = details.errorInstance instanceof Error ? (details.errorInstance.stack ?? details.errorInstance.message) : String(details.errorInstance);
    opts.log?.(`props: a run threw — seed=${seed} path=${path}\n${error}`);
    return { ...base, passed: false, failure: null, error: `seed=${seed} path=${path}: ${error}` };
  }
  const trace = toTrace(found.records, bounds, { failure: found.failure, seed, path, ...(opts.traceLabel ? { label: opts.traceLabel } : {}) });
  const tracePath = saveTrace(trace, opts.traceDir);
  const failure: PropsFailure = {
    ...found.failure,
    seed,
    path,
    intents: found.intents.slice(0, found.failure.step + 1).map(intentLabel),
    expiry: found.expiry,
    tracePath,
    traceLength: trace.steps.length,
  };
  opts.log?.(formatFailure(failure));
  return { ...base, passed: false, failure };
}

/**
 * A fault when the run's topology (through a client like the run's own: same credentials and key
 * prefix) or the door's primaries do not answer now.
 */
async function healthFault(ctx: RunContext) {
  const client = ctx.topology.client();
  const only = ctx.topology.nodes.length === 1 ? ctx.topology.nodes[0] : undefined;
  try {
    return await probeHealth([{ ...(only ? { endpoint: `${only.host}:${only.port}` } : {}), ping: () => client.ping() }, ...(ctx.door ? [{ ping: () => ctx.door!.askRedirects() }] : [])]);
  } finally {
    await closeClient(client);
  }
}

export function formatFailure(f: PropsFailure): string {
  return [
    `props: ${f.check} at step ${f.step + 1}: ${f.message}`,
    `  broken at the end: ${f.brokenAtEnd.join(', ') || '-'}`,
    `  shrunk commands (${f.intents.length}, expiry by ${f.expiry}): ${f.intents.join(' · ')}`,
    `  replay: --seed ${f.seed} --path ${f.path}`,
    ...(f.tracePath ? [`  trace: ${f.tracePath}`] : []),
  ].join('\n');
}
