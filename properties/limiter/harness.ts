/**
 * Runs one generated limiter case against real Valkey and the reference model, call by call.
 * After every call it checks, in this order (the first that fails names the violation):
 *   limiter.server_time         the decision time the script used is Valkey TIME (bracketed by two
 *                               TIME reads around the call), not the application host's clock;
 *   limiter.at_most_once        a call whose reply was lost executed at most once and was not re-sent;
 *   limiter.no_partial_mutation a call that failed (wrong-type / corrupt key) changed nothing;
 *   limiter.transition_table    decision, delay and EVERY bucket hash (fields and expiry) equal the
 *                               model's, for both keys, participants or not.
 * Time control: the script reads TIME itself; the model is fed the `now` the script reports (checked
 * against the bracket). Time advances age the stored buckets instead (ts and expiry move back by
 * the advance), which is what elapsed time means to the script. Real time still passes (ε); the
 * generated grid (arbitraries.ts) keeps every decision independent of ε within CASE_TIME_BOUND_MS,
 * and every call waits until server time has moved past the last write (ε ≥ 1 ms), so a change a
 * call makes (a touched second bucket, a refill past capacity) never hides in an unchanged ms.
 */
import { ABSENT, advance, expireIfIdle, step, type Row, type Stored } from '../../models/limiter/index.js';
import { bucketSpec, LimiterError, type BucketSpec, type Limiter, type LimiterResult, type Request } from '../../src/systems/limiter/index.js';
import type { ValkeyClient } from '../../src/valkey/index.js';
import { asInfrastructureFault, InfrastructureFault, oneLine } from '../../src/valkey/fault.js';
import { CASE_TIME_BOUND_MS, HORIZON_MARGIN_MS, type InitialState, type LimiterCase, type LimiterCommand, type Order } from './arbitraries.js';
import type { ReplyDropper } from './reply-dropper.js';
import { hostClockOffset, setHostClockOffset } from './host-clock.js';
import { ageOnServer, expected, observe, sameObservation, serverTimeMs, writeStored } from './observe.js';

export const CHECKS = ['limiter.server_time', 'limiter.at_most_once', 'limiter.no_partial_mutation', 'limiter.transition_table'] as const;
export type CheckName = (typeof CHECKS)[number];

export class LimiterViolation extends Error {
  override readonly name = 'LimiterViolation';
  constructor(
    readonly check: CheckName,
    message: string,
  ) {
    super(`${check}: ${message}`);
  }
}

/** Rows of the transition table plus calls whose outcome was unknown (reply lost). */
export type RowKey = Row | 'unknown';
export interface RowStats {
  cases: number;
  readonly calls: Record<RowKey, number>;
  /** Cases in which at least one call exercised the row. */
  readonly casesPerRow: Record<RowKey, number>;
  /** Cases that took CASE_TIME_BOUND_MS of real time or longer (their replay may decide differently). */
  slowCases: number;
  /** Longest real time one case took (server TIME, setup to last call). */
  maxCaseMs: number;
}

export function emptyRowStats(): RowStats {
  const zero = (): Record<RowKey, number> => ({ 'deny-first': 0, 'deny-second': 0, 'allow-both': 0, 'single-allow': 0, 'single-deny': 0, error: 0, unknown: 0 });
  return { cases: 0, calls: zero(), casesPerRow: zero(), slowCases: 0, maxCaseMs: 0 };
}

export function addRowStats(into: RowStats, from: RowStats): void {
  into.cases += from.cases;
  into.slowCases += from.slowCases;
  into.maxCaseMs = Math.max(into.maxCaseMs, from.maxCaseMs);
  for (const k of Object.keys(into.calls) as RowKey[]) {
    into.calls[k] += from.calls[k];
    into.casesPerRow[k] += from.casesPerRow[k];
  }
}

export interface CaseContext {
  /** Direct connection for setup and observation (never through the proxy). */
  readonly admin: ValkeyClient;
  /** The client under test (through the dropper's proxies when `dropper` is set). */
  readonly limiter: Limiter;
  /** Present when the case may contain drop-call commands. */
  readonly dropper?: Pick<ReplyDropper, 'armDrop' | 'disarm' | 'executions'>;
}

// Buckets expiring within HORIZON_MARGIN_MS of server time are deleted on both sides, at every
// advance and again right before every call, so Valkey's own expiry never races a check: only a
// stall of that length inside ONE call (its TIME bracket and observation) could reach an expiry.

/** Ages both keys by `deltaMs` (0: none) on the server and in the model; drops buckets expiring by `horizon`. */
async function ageBoth(ctx: CaseContext, keys: readonly [string, string], model: Stored[], deltaMs: number, horizon: number): Promise<void> {
  for (const k of [0, 1]) {
    const m = model[k]!;
    // Nothing to do for a bucket the model keeps unchanged (saves the writes of a 0 ms age).
    if (deltaMs === 0 && !(m.kind === 'bucket' && m.expireAt <= horizon)) continue;
    await ageOnServer(ctx.admin, keys[k]!, deltaMs, horizon);
    model[k] = advance(m, deltaMs, horizon);
  }
}

export const ORDER: Record<Order, readonly number[]> = { A: [0], B: [1], AB: [0, 1], BA: [1, 0] };

/** The model state a generated initial state stands for, written at server time t0. */
export function initialStored(init: InitialState, t0: number, spec: BucketSpec): Stored {
  if (init.kind !== 'bucket') return init.kind === 'absent' ? ABSENT : { kind: init.kind };
  return { kind: 'bucket', tokens: init.tokens, ts: t0 - init.ageMs, expireAt: t0 + spec.idleTtlMs };
}

/** Runs a case on keys [A, B] (same hash tag); throws LimiterViolation on the first broken check. */
export async function runCase(ctx: CaseContext, c: LimiterCase, keys: readonly [string, string], stats: RowStats): Promise<void> {
  const specs = [bucketSpec(c.specs[0]), bucketSpec(c.specs[1])] as const;
  const t0 = await serverTimeMs(ctx.admin);
  const model: Stored[] = [initialStored(c.initial[0], t0, specs[0]), initialStored(c.initial[1], t0, specs[1])];
  await writeStored(ctx.admin, keys[0], model[0]!);
  await writeStored(ctx.admin, keys[1], model[1]!);
  const hit = new Set<RowKey>();
  // Server time of the last write that set a ts (t0, then each executed call's `now`).
  const clock = { lastWrite: t0, last: t0 };
  try {
    for (const [i, cmd] of c.commands.entries()) {
      const where = `command #${i} ${JSON.stringify(cmd)}`;
      if (cmd.op === 'advance') {
        clock.last = await serverTimeMs(ctx.admin);
        await ageBoth(ctx, keys, model, cmd.ms, clock.last + HORIZON_MARGIN_MS);
      } else if (cmd.op === 'clock-jump') {
        setHostClockOffset(hostClockOffset() + cmd.ms);
      } else {
        const row = await runCall(ctx, cmd, specs, keys, model, where, clock);
        stats.calls[row]++;
        hit.add(row);
      }
    }
  } catch (err) {
    const took = clock.last - t0;
    if (err instanceof LimiterViolation && took >= CASE_TIME_BOUND_MS) {
      throw new LimiterViolation(
        err.check,
        `${err.message.slice(err.check.length + 2)} [this case took ${took} ms of real time, above the ${CASE_TIME_BOUND_MS} ms bound: a replay may decide differently]`,
      );
    }
    throw err;
  } finally {
    setHostClockOffset(0);
    await ctx.admin.del(keys[0], keys[1]);
  }
  const took = clock.last - t0;
  stats.cases++;
  stats.maxCaseMs = Math.max(stats.maxCaseMs, took);
  if (took >= CASE_TIME_BOUND_MS) stats.slowCases++;
  for (const r of hit) stats.casesPerRow[r]++;
}

/** Server time after `ms` (polled): a call then sees at least 1 ms elapse since the last write. */
async function serverTimeAfter(client: ValkeyClient, ms: number): Promise<number> {
  for (;;) {
    const now = await serverTimeMs(client);
    if (now > ms) return now;
    // Only a stepped-back server clock puts the last write more than a ms ahead; never spin on it.
    if (ms - now > 1000) throw new Error(`server TIME ${now} is ${ms - now} ms behind the last write ${ms}`);
  }
}

type Outcome = { readonly ok: LimiterResult } | { readonly err: unknown };

async function runCall(
  ctx: CaseContext,
  cmd: Extract<LimiterCommand, { op: 'call' | 'drop-call' }>,
  specs: readonly [BucketSpec, BucketSpec],
  keys: readonly [string, string],
  model: Stored[],
  where: string,
  clock: { lastWrite: number; last: number },
): Promise<RowKey> {
  const idx = ORDER[cmd.order];
  const reqs: Request[] = idx.map((k) => ({ key: keys[k]!, spec: specs[k]! }));
  const drop = cmd.op === 'drop-call';
  const dropper = ctx.dropper;
  if (drop && !dropper) throw new Error('drop-call generated without a reply dropper');
  const before = await serverTimeAfter(ctx.admin, clock.lastWrite);
  await ageBoth(ctx, keys, model, 0, before + HORIZON_MARGIN_MS);
  const execsBefore = drop ? await dropper!.executions() : 0;
  if (drop) await dropper!.armDrop(reqs[0]!.key);
  let outcome: Outcome;
  try {
    outcome = { ok: await ctx.limiter.allowOrdered(reqs[0]!, reqs[1]) };
  } catch (err) {
    outcome = { err };
  }
  if (drop) dropper!.disarm();
  // Faults are not verdicts: a call that failed for the infrastructure's reasons (NOPERM, a lost
  // connection, a timeout) says nothing about the limiter; nor does a lost reply nobody injected.
  if ('err' in outcome) {
    const fault = asInfrastructureFault(outcome.err, { during: `${where}: the limiter call` });
    if (fault) throw fault;
  } else if (!drop && outcome.ok.kind === 'unknown' && outcome.ok.reason === 'connection-lost') {
    throw (
      asInfrastructureFault(new Error(outcome.ok.message), { during: `${where}: a reply was lost with no fault injected` }) ??
      new InfrastructureFault({ kind: 'connection-lost', reason: oneLine(`${where}: a reply was lost with no fault injected: ${outcome.ok.message}`) })
    );
  }
  const after = await serverTimeMs(ctx.admin);
  clock.last = after;

  // The model's step at server time `now`, applied to `model` (idle expiry first).
  const modelStep = (now: number) => {
    for (const k of [0, 1]) model[k] = expireIfIdle(model[k]!, now);
    const parts = idx.map((k) => ({ spec: specs[k]!, stored: model[k]! }));
    const s = step(now, parts[0]!, parts[1]);
    return { s, commit: () => idx.forEach((k, j) => (model[k] = s.after[j]!)) };
  };
  const compareState = async (check: CheckName, context: string) => {
    for (const k of [0, 1]) {
      const real = await observe(ctx.admin, keys[k]!);
      const want = expected(model[k]!);
      if (!sameObservation(real, want)) {
        throw new LimiterViolation(check, `${where}: ${context}: key ${'AB'[k]} holds ${JSON.stringify(real)}, model says ${JSON.stringify(want)}`);
      }
    }
  };
  const inBracket = (now: number, what: string) => {
    if (now < before || now > after) {
      throw new LimiterViolation('limiter.server_time', `${where}: ${what} ${now} is outside Valkey TIME [${before}, ${after}] around the call (host clock offset ${hostClockOffset()} ms)`);
    }
  };

  // A drop-call: the proxy loses the next reply from the first key's node while the call is in
  // flight — normally the script's own reply; on a cluster sometimes a reconnect's ready check,
  // and then the call itself may complete normally. Either way the server counts executions.
  const executions = drop ? (await dropper!.executions()) - execsBefore : 1;
  if (executions > 1) throw new LimiterViolation('limiter.at_most_once', `${where}: a reply was lost and the script executed ${executions} times (${describe(outcome)})`);
  if (drop && 'ok' in outcome && outcome.ok.kind === 'unknown') {
    if (executions === 1) {
      // Executed once: its `now` is recoverable from the first bucket's new expiry.
      const first = await observe(ctx.admin, reqs[0]!.key);
      if (first.type === 'none') {
        // Every execution writes the first bucket with expiry now + TTL; gone already means that
        // expiry passed, so the script's now was at most (server time − TTL) — before the bracket
        // whenever TTL is longer than the bracket (a script on a clock set back, e.g. the host's).
        const latest = (await serverTimeMs(ctx.admin)) - reqs[0]!.spec.idleTtlMs;
        if (latest < before) inBracket(latest, 'the latest time consistent with the first bucket already having expired');
      }
      if (first.type !== 'hash') throw new LimiterViolation('limiter.transition_table', `${where}: executed, but the first bucket is ${JSON.stringify(first)}`);
      const now = first.expireAt - reqs[0]!.spec.idleTtlMs;
      inBracket(now, 'the time implied by the new expiry');
      const { s, commit } = modelStep(now);
      if (s.outcome.kind === 'error') throw new LimiterViolation('limiter.transition_table', `${where}: model says ${s.outcome.code}, yet the script executed`);
      commit();
      clock.lastWrite = now;
    }
    // Not executed (or executed and failed): nothing may have changed.
    await compareState(executions === 0 ? 'limiter.no_partial_mutation' : 'limiter.transition_table', `after a lost reply (${executions} successful execution(s))`);
    return 'unknown';
  }

  if ('err' in outcome) {
    const err = outcome.err;
    const code = err instanceof LimiterError ? err.code : null;
    const { s } = modelStep(before);
    if (s.outcome.kind !== 'error' || s.outcome.code !== code) {
      throw new LimiterViolation('limiter.transition_table', `${where}: the call failed (${describe(outcome)}), model says ${JSON.stringify(s.outcome)}`);
    }
    await compareState('limiter.no_partial_mutation', `the call failed with ${code}`);
    return 'error';
  }
  const res = outcome.ok;
  if (res.kind !== 'decided') throw new LimiterViolation('limiter.transition_table', `${where}: no fault injected, yet the client reported ${describe(outcome)}`);
  inBracket(res.serverNowMs, 'the script time');
  const { s, commit } = modelStep(res.serverNowMs);
  const want = s.outcome.kind === 'decision' ? { decision: s.outcome.decision, delayMs: s.outcome.delayMs } : s.outcome;
  if (s.outcome.kind !== 'decision' || s.outcome.decision !== res.decision || s.outcome.delayMs !== res.delayMs) {
    throw new LimiterViolation(
      'limiter.transition_table',
      `${where} at now=${res.serverNowMs}: real ${JSON.stringify({ decision: res.decision, delayMs: res.delayMs })}, model ${JSON.stringify(want)}`,
    );
  }
  commit();
  clock.lastWrite = res.serverNowMs;
  await compareState('limiter.transition_table', `row ${s.row} at now=${res.serverNowMs}`);
  return s.row;
}

function describe(o: Outcome): string {
  if ('ok' in o) return JSON.stringify(o.ok);
  return o.err instanceof Error ? `${o.err.name}: ${o.err.message}` : String(o.err);
}
