/**
 * The limiter property: fast-check generates cases (arbitraries.ts) and each runs against real
 * Valkey and the model (harness.ts). Failures carry fast-check's seed and path; passing the same
 * seed and path replays the counterexample.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { Limiter, limiterOptions, orderedLimiterScript, type LimiterPatch } from '../../src/systems/limiter/index.js';
import type { LuaScript } from '../../src/valkey/scripts/index.js';
import { closeClient, nodeClient, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { limiterCaseArb, type LimiterCase } from './arbitraries.js';
import { startReplyDropper, type ReplyDropper } from './reply-dropper.js';
import { addRowStats, emptyRowStats, LimiterViolation, runCase, type CheckName, type RowStats } from './harness.js';
import { asInfrastructureFault, FaultLatch, probeHealth, type Fault } from '../../src/valkey/fault.js';

export interface LimiterPropertyOptions {
  readonly topology: Topology;
  readonly numRuns: number;
  readonly seed?: number;
  readonly path?: string;
  /** Deploy this patch instead of the shipped limiter (mutant runs). */
  readonly patch?: LimiterPatch;
  /** Include lost-reply faults (default: whenever faultsUnavailable() says they can run). */
  readonly faults?: boolean;
  /** After every generated case (shrinking included): cases run so far (a progress meter's input). */
  readonly onCase?: (cases: number) => void;
}

export interface LimiterPropertyResult {
  readonly passed: boolean;
  readonly topology: string;
  readonly numRuns: number;
  readonly seed: number;
  /** fast-check path of the (shrunk) counterexample. */
  readonly path?: string;
  /** Which check failed; 'error' when the harness itself failed (not a verdict on the limiter). */
  readonly violated?: CheckName | 'error';
  readonly message?: string;
  readonly counterexample?: LimiterCase;
  readonly faults: boolean;
  /** Rows exercised by the passing (non-shrinking) runs. */
  readonly stats: RowStats;
  /**
   * An infrastructure fault (lost connection, server gone, timeout, NOPERM) stopped the run: not
   * run, never a counterexample — `passed` is false, and there is no path, violation or case.
   */
  readonly fault?: Fault;
}

/** Replay hint every failure prints. */
export function replayHint(r: Pick<LimiterPropertyResult, 'seed' | 'path'>): string {
  return `--seed=${r.seed}${r.path ? ` --path=${r.path}` : ''}`; // '=': a negative seed is not an option
}

/**
 * Why lost-reply faults cannot run on a topology, or null. They need nodes the harness owns (the
 * execution counts are server-wide) whose announced addresses are the ones it connects to (a
 * cluster in containers announces addresses the proxies cannot stand in for).
 */
export function faultsUnavailable(topology: Topology): string | null {
  if (!topology.owned) return `lost-reply faults: needs an owned topology (the harness did not start every node of this ${topology.provider} endpoint)`;
  if (topology.spec.kind === 'cluster' && topology.provider !== 'native') return 'lost-reply faults on a cluster need native nodes (announced addresses = proxied addresses)';
  return null;
}

export async function runLimiterProperty(opts: LimiterPropertyOptions): Promise<LimiterPropertyResult> {
  const { topology } = opts;
  const why = faultsUnavailable(topology);
  const faults = opts.faults ?? why === null;
  if (faults && why !== null) throw new Error(`lost-reply faults: ${why}`);
  const admin: ValkeyClient = topology.client();
  let dropper: ReplyDropper | undefined;
  let subject: ValkeyClient | undefined;
  const stats = emptyRowStats();
  const notRun = (fault: Fault): LimiterPropertyResult => ({ passed: false, topology: topology.spec.kind, numRuns: 0, seed: opts.seed ?? 0, faults, stats, fault });
  try {
    const options = limiterOptions(opts.patch);
    try {
      if (faults) dropper = await startReplyDropper(topology);
      else subject = topology.client();
      // A lost reply must be the script's own: with the script not yet cached, the first drop-call
      // would lose a NOSCRIPT reply instead (nothing executed) while its replay, on a server that has
      // the script by then, loses the real one. Deploying the script first makes both runs alike.
      if (faults) await deployScript(topology, options.script ?? orderedLimiterScript());
    } catch (err) {
      const f = asInfrastructureFault(err, { during: 'setting up the limiter property' });
      if (f) return notRun(f.fault);
      throw err;
    }
    const limiter = new Limiter(dropper?.client ?? subject!, options);
    const ctx = { admin, limiter, ...(dropper ? { dropper } : {}) };
    const run = randomBytes(3).toString('hex');
    let n = 0;
    let failing = false;
    // Faults are not verdicts: the first is remembered, every later call (shrinking included) fails
    // at once with it, and the result is not-run whatever fast-check reports.
    const latch = new FaultLatch();
    const property = fc.asyncProperty(limiterCaseArb(faults), async (c) => {
      latch.throwIfFaulted();
      const tag = `lim:{${run}.${n++}}`;
      const caseStats = emptyRowStats();
      try {
        await runCase(ctx, c, [`${tag}:a`, `${tag}:b`], caseStats);
      } catch (err) {
        failing = true;
        const f = asInfrastructureFault(err);
        if (f) throw latch.record(f);
        // A check failed: a verdict only if the system is healthy now.
        const sick = await probeHealth([{ ping: () => admin.ping() }, ...(dropper ? [{ ping: () => dropper!.executions() }] : [])]);
        if (sick) throw latch.record(sick);
        throw latch.capture(err);
      }
      if (!failing) addRowStats(stats, caseStats);
      opts.onCase?.(n);
    });
    const details = await fc.check(property, {
      numRuns: opts.numRuns,
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.path !== undefined ? { path: opts.path } : {}),
    });
    const base = { topology: topology.spec.kind, numRuns: details.numRuns, seed: details.seed, faults, stats };
    if (latch.fault) return { passed: false, ...base, fault: latch.fault.fault };
    if (!details.failed) return { passed: true, ...base };
    const err = details.errorInstance;
    return {
      passed: false,
      ...base,
      ...(details.counterexamplePath !== null ? { path: details.counterexamplePath } : {}),
      violated: err instanceof LimiterViolation ? err.check : 'error',
      message: err instanceof Error ? err.message : String(err),
      ...(details.counterexample ? { counterexample: details.counterexample[0] } : {}),
    };
  } finally {
    if (subject) await closeClient(subject);
    await closeClient(admin);
    await dropper?.stop();
  }
}

/** SCRIPT LOAD on every primary (what a deployment does before traffic). */
async function deployScript(topology: Topology, script: LuaScript): Promise<void> {
  for (const node of topology.nodes.filter((n) => n.role === 'primary')) {
    const c = nodeClient(node);
    try {
      const sha = String(await c.script('LOAD', script.source));
      if (sha !== script.sha1) throw new Error(`SCRIPT LOAD on ${node.host}:${node.port} returned ${sha}, expected ${script.sha1}`);
    } finally {
      await closeClient(c);
    }
  }
}
