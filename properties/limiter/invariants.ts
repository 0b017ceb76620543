/**
 * The seed's required invariant tests (000, "Required invariant tests"), each a named check against
 * a real topology. Run by `fencecheck limiter` on standalone and cluster and by test/limiter/.
 * A check that cannot apply to a topology reports not-run with the reason, never passed.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TOKEN } from '../../models/limiter/index.js';
import { evalScript, type LuaScript } from '../../src/valkey/scripts/index.js';
import {
  bucketSpec,
  Limiter,
  LimiterError,
  limiterOptions,
  orderedLimiterScript,
  pairSlots,
  type BucketSpecInput,
  type LimiterPatch,
  type LimiterResult,
  type Request,
  type ScriptCall,
} from '../../src/systems/limiter/index.js';
import { closeClient, createClient, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import type { InitialState, LimiterCase } from './arbitraries.js';
import { startReplyDropper } from './reply-dropper.js';
import { faultsUnavailable } from './property.js';
import { emptyRowStats, runCase, type RowKey } from './harness.js';
import { setHostClockOffset } from './host-clock.js';
import { evalCalls, serverTimeMs, totalScriptExecutions } from './observe.js';
import { asInfrastructureFault, describeFault, probeHealth, type Fault, type InfrastructureFault } from '../../src/valkey/fault.js';

export interface InvariantContext {
  readonly topology: Topology;
  /** Direct client for setup and observation. */
  readonly admin: ValkeyClient;
  /** The limiter under test, on its own connection. */
  readonly limiter: Limiter;
  /** The limiter under test (shipped or patched) on another connection. */
  limiterOn(client: ValkeyClient): Limiter;
  /** The script under test and how the client runs it (a patch may change both). */
  readonly script: LuaScript;
  readonly call: ScriptCall;
  /** A client per primary node (node-local commands: INFO, SCRIPT FLUSH). */
  readonly primaries: readonly ValkeyClient[];
  /** Two keys sharing a hash tag unique to this check. */
  pair(name: string): readonly [string, string];
}

export interface LimiterInvariant {
  readonly name: string;
  readonly title: string;
  /** Null when the check applies to this topology, else why it cannot run there. */
  notApplicable(t: Topology): string | null;
  /** Throws (an AssertionError) on failure; returns one line of evidence. */
  run(ctx: InvariantContext): Promise<string>;
}

export interface InvariantOutcome {
  readonly name: string;
  readonly title: string;
  readonly status: 'passed' | 'failed' | 'not-run';
  readonly detail: string;
  /** Set when an infrastructure fault made it not-run (then the topology's run is not-run too). */
  readonly fault?: Fault;
}

const ANY = () => null;
/** Checks that read server-wide counters (INFO commandstats) or flush scripts need a topology of their own. */
const OWNED = (t: Topology) =>
  t.owned ? null : `needs an owned topology: reads server-wide script counters / flushes scripts, and the harness did not start every node of this ${t.provider} endpoint`;
/** A bucket of `capacity` tokens that refills 1 token per 1,000 s: no refill worth a token during a check. */
const slowSpec = (capacity: number) => bucketSpec({ capacity, refillPerSecond: 0.001, idleTtlMs: 60_000 });
const SLOW = slowSpec(3);

/** Runs a fixed case through the property harness (model comparison included) and returns its row counts. */
async function scenario(ctx: InvariantContext, name: string, c: LimiterCase): Promise<Record<RowKey, number>> {
  const stats = emptyRowStats();
  await runCase({ admin: ctx.admin, limiter: ctx.limiter }, c, ctx.pair(name), stats);
  return stats.calls;
}

const bucket = (tokens: number, ageMs = 0): InitialState => ({ kind: 'bucket', tokens, ageMs });
const ABSENT_INIT: InitialState = { kind: 'absent' };

function executions(ctx: InvariantContext): Promise<number> {
  return totalScriptExecutions(ctx.primaries);
}

async function dump(c: ValkeyClient, key: string): Promise<string> {
  const [d, exp] = await Promise.all([c.dumpBuffer(key), c.call('PEXPIRETIME', key)]);
  return `${d === null ? 'nil' : d.toString('hex')}@${String(exp)}`;
}

async function tokensOf(c: ValkeyClient, key: string): Promise<number> {
  return Number(await c.hget(key, 'tokens'));
}

/** The slow test buckets refill 1 µtok/ms: allow 20 s of refill above the whole-token count. */
async function assertTokens(ctx: InvariantContext, key: string, whole: number): Promise<void> {
  const left = await tokensOf(ctx.admin, key);
  assert.ok(left >= whole * TOKEN && left < whole * TOKEN + 20_000, `${key} holds ${left} µtok, want ${whole} token(s) (+ refill under 20 s)`);
}

function decided(r: LimiterResult): number {
  assert.equal(r.kind, 'decided', `expected a decision, got ${JSON.stringify(r)}`);
  return (r as Extract<LimiterResult, { kind: 'decided' }>).decision;
}

/** Polls until `f()` returns `want` (≤ 2 s), then returns its value after a further settle. */
async function settle(f: () => Promise<number>, want: number): Promise<number> {
  for (let i = 0; i < 40 && (await f()) !== want; i++) await sleep(50);
  await sleep(150);
  return f();
}

export const LIMITER_INVARIANTS: readonly LimiterInvariant[] = [
  {
    name: 'bucket_states',
    title: 'fresh, partially full, empty and just-refilled buckets',
    notApplicable: ANY,
    async run(ctx) {
      // 1 token per 5 s, ages on the 5 s grid: no decision here depends on real elapsed time < 3 s.
      const spec: BucketSpecInput = { capacity: 3, refillPerSecond: 0.2, idleTtlMs: 60_000 };
      const cases: [string, InitialState, RowKey][] = [
        ['fresh', ABSENT_INIT, 'single-allow'],
        ['partial', bucket(1.5 * TOKEN), 'single-allow'],
        ['empty', bucket(0), 'single-deny'],
        ['refilled', bucket(0, 5000), 'single-allow'], // exactly one token's worth of elapsed time
      ];
      for (const [name, init, row] of cases) {
        const rows = await scenario(ctx, `states.${name}`, { specs: [spec, spec], initial: [init, ABSENT_INIT], commands: [{ op: 'call', order: 'A' }] });
        assert.equal(rows[row], 1, `${name}: expected row ${row}, got ${JSON.stringify(rows)}`);
      }
      const both = await scenario(ctx, 'states.fresh2', { specs: [spec, spec], initial: [ABSENT_INIT, ABSENT_INIT], commands: [{ op: 'call', order: 'AB' }] });
      assert.equal(both['allow-both'], 1);
      return 'fresh → allow, partial 1.5 → allow, empty → deny, refilled → allow; every hash equals the model';
    },
  },
  {
    name: 'first_denial_second_untouched',
    title: 'a first-bucket denial leaves the second hash byte-for-byte unchanged (DUMP)',
    notApplicable: ANY,
    async run(ctx) {
      const [k1, k2] = ctx.pair('firstdeny');
      const s = SLOW;
      await ctx.admin.hset(k1, { tokens: '0', ts: String(await serverTimeMs(ctx.admin)) });
      await ctx.admin.hset(k2, { tokens: String(2 * TOKEN), ts: '1000' });
      await ctx.admin.pexpire(k2, 50_000);
      const before = await dump(ctx.admin, k2);
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })), 1);
      assert.equal(await dump(ctx.admin, k2), before, 'the second bucket changed on a first denial');
      const [k3, k4] = ctx.pair('firstdeny.absent');
      await ctx.admin.hset(k3, { tokens: '0', ts: String(await serverTimeMs(ctx.admin)) });
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k3, spec: s }, { key: k4, spec: s })), 1);
      assert.equal(await ctx.admin.exists(k4), 0, 'a missing second bucket was created on a first denial');
      return `DUMP+PEXPIRETIME of the second key identical (${before.length} chars); a missing second stays missing`;
    },
  },
  {
    name: 'second_denial_consumes_first',
    title: 'a second-bucket denial consumes the first token',
    notApplicable: ANY,
    async run(ctx) {
      const [k1, k2] = ctx.pair('seconddeny');
      const s = SLOW;
      const now = await serverTimeMs(ctx.admin);
      await ctx.admin.hset(k1, { tokens: String(2 * TOKEN), ts: String(now) });
      await ctx.admin.hset(k2, { tokens: '0', ts: String(now) });
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })), 2);
      await assertTokens(ctx, k1, 1);
      return 'first bucket 2 → 1 token after the second denied';
    },
  },
  {
    name: 'concurrent_exact',
    title: 'N concurrent callers get exactly the permitted number of successes',
    notApplicable: ANY,
    async run(ctx) {
      const clients = Array.from({ length: 4 }, () => ctx.topology.client());
      try {
        const limiters = clients.map((c) => ctx.limiterOn(c));
        const first = slowSpec(8);
        const second = slowSpec(5);
        const [k1, k2] = ctx.pair('concurrent');
        const N = 40;
        const results = await Promise.all(Array.from({ length: N }, (_, i) => limiters[i % limiters.length]!.allowOrdered({ key: k1, spec: first }, { key: k2, spec: second })));
        const count = [0, 0, 0];
        for (const r of results) count[decided(r)]!++;
        assert.deepEqual(count, [5, 32, 3], `allowed/first-denied/second-denied = ${count.join('/')}, want 5/32/3`);
        const [k3] = ctx.pair('concurrent.single');
        const single = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % limiters.length]!.allowOrdered({ key: k3!, spec: slowSpec(7) })));
        const allowed = single.filter((r) => decided(r) === 0).length;
        assert.equal(allowed, 7, `single bucket of 7: ${allowed} allowed`);
        return `${N} callers on 4 connections, pair 8/5: 5 allowed, 32 first-denied, 3 second-denied; 30 on a bucket of 7: 7 allowed`;
      } finally {
        await Promise.all(clients.map(closeClient));
      }
    },
  },
  {
    name: 'host_clock_jumps',
    title: 'backward/forward application-host clock changes have no effect',
    notApplicable: ANY,
    async run(ctx) {
      const s = bucketSpec({ capacity: 2, refillPerSecond: 0.5, idleTtlMs: 60_000 });
      const runs: string[] = [];
      for (const offset of [0, 86_400_000, -86_400_000, 3_600_000, -3_600_000]) {
        const [k1, k2] = ctx.pair(`clock.${offset}`);
        setHostClockOffset(offset);
        const decisions: number[] = [];
        try {
          for (let i = 0; i < 4; i++) decisions.push(decided(await ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })));
        } finally {
          setHostClockOffset(0);
        }
        const server = await serverTimeMs(ctx.admin);
        const ts = Number(await ctx.admin.hget(k1, 'ts'));
        assert.ok(Math.abs(server - ts) < 10_000, `host offset ${offset}: stored ts ${ts} is not server time ${server}`);
        runs.push(decisions.join(''));
      }
      assert.ok(
        runs.every((r) => r === runs[0]),
        `decisions differ with the host clock: ${runs.join(' vs ')}`,
      );
      return `decisions ${runs[0]} identical with host clock offsets 0, ±1 h, ±1 day; stored ts is server time`;
    },
  },
  {
    name: 'wrong_type_no_mutation',
    title: 'a wrong-type (or corrupt) second key fails the call and mutates nothing',
    notApplicable: ANY,
    async run(ctx) {
      const s = SLOW;
      const [k1, k2] = ctx.pair('wrongtype');
      await ctx.admin.hset(k1, { tokens: String(2 * TOKEN), ts: '1000' });
      await ctx.admin.pexpire(k1, 50_000);
      await ctx.admin.set(k2, 'not-a-bucket');
      const before = [await dump(ctx.admin, k1), await dump(ctx.admin, k2)];
      await assert.rejects(ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s }), (e: unknown) => e instanceof LimiterError && e.code === 'WRONGTYPE');
      assert.deepEqual([await dump(ctx.admin, k1), await dump(ctx.admin, k2)], before, 'a failed call changed a key');
      const [k3, k4] = ctx.pair('wrongtype.absent');
      await ctx.admin.hset(k4, { tokens: 'many', ts: 'yesterday' });
      await assert.rejects(ctx.limiter.allowOrdered({ key: k3, spec: s }, { key: k4, spec: s }), (e: unknown) => e instanceof LimiterError && e.code === 'CORRUPT');
      assert.equal(await ctx.admin.exists(k3), 0, 'a missing first bucket was created by a failed call');
      return 'WRONGTYPE: both keys DUMP-identical; CORRUPT second: missing first stays missing';
    },
  },
  {
    name: 'script_flush_fallback',
    title: 'SCRIPT FLUSH exercises the EVALSHA → EVAL fallback',
    notApplicable: OWNED,
    async run(ctx) {
      const s = slowSpec(5);
      const [k1] = ctx.pair('flush');
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k1!, spec: s })), 0);
      for (const p of ctx.primaries) await p.call('SCRIPT', 'FLUSH');
      const evalsBefore = await evalCalls(ctx.primaries);
      const execsBefore = await executions(ctx);
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k1!, spec: s })), 0);
      const evals = (await evalCalls(ctx.primaries)) - evalsBefore;
      const execs = (await executions(ctx)) - execsBefore;
      assert.equal(evals, 1, `EVAL ran ${evals} times after SCRIPT FLUSH, want 1`);
      assert.equal(execs, 1, `the script executed ${execs} times, want 1`);
      await assertTokens(ctx, k1!, 3);
      return 'after SCRIPT FLUSH: EVALSHA → NOSCRIPT → one EVAL, one execution, one token';
    },
  },
  {
    name: 'cancellation_no_resend',
    title: 'cancellation does not trigger a re-send',
    notApplicable: OWNED,
    async run(ctx) {
      const s = slowSpec(5);
      const [k1, k2] = ctx.pair('cancel');
      await ctx.call(ctx.admin, ctx.script, [k1], s.args); // loaded on that node; 4 tokens left
      const ac = new AbortController();
      ac.abort();
      const e0 = await executions(ctx);
      assert.deepEqual(await ctx.limiter.allowOrdered({ key: k1, spec: s }, undefined, { signal: ac.signal }), { kind: 'not-sent', reason: 'cancelled' });
      assert.equal((await executions(ctx)) - e0, 0, 'a call cancelled before sending executed');
      // Hold the node busy with a script on the same slot and queue the call behind it on the SAME
      // connection (so the server runs them in that order, however loaded the machine), then cancel
      // while the call waits for its reply.
      const shared = ctx.topology.client();
      try {
        await shared.exists(k2); // that node's connection is up: the next commands are written at once
        const e1 = await executions(ctx);
        let busyDone = false;
        const busy = shared.eval('local i = 0 while i < 40000000 do i = i + 1 end return i', 1, k2).then(() => (busyDone = true));
        const cancel = new AbortController();
        const call = ctx.limiterOn(shared).allowOrdered({ key: k1, spec: s }, undefined, { signal: cancel.signal });
        await sleep(20);
        cancel.abort();
        const r = await call;
        assert.equal(r.kind, 'unknown', `cancelled after send: ${JSON.stringify(r)}`);
        assert.equal(busyDone, false, 'the node was not busy when the call was cancelled (test setup)');
        await busy;
        // The blocker's EVAL is one execution; the cancelled call must be exactly one more.
        const ran = (await settle(() => executions(ctx), e1 + 2)) - e1 - 1;
        assert.equal(ran, 1, `a call cancelled after sending executed ${ran} times, want exactly 1`);
        await assertTokens(ctx, k1, 3);
      } finally {
        await closeClient(shared);
      }
      return 'cancelled before send: 0 executions; cancelled in flight: reported unknown, executed exactly once (INFO commandstats)';
    },
  },
  {
    name: 'connection_failure_no_resend',
    title: 'a connection failure after send does not trigger a re-send',
    notApplicable: faultsUnavailable,
    async run(ctx) {
      const dropper = await startReplyDropper(ctx.topology);
      try {
        const limiter = ctx.limiterOn(dropper.client);
        const s = slowSpec(5);
        const [k1, k2] = ctx.pair('drop');
        assert.equal(decided(await limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })), 0);
        const e0 = await dropper.executions();
        await dropper.armDrop(k1);
        const r = await limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s });
        assert.equal(r.kind, 'unknown', `lost reply: ${JSON.stringify(r)}`);
        const ran = (await settle(() => dropper.executions(), e0 + 1)) - e0;
        assert.equal(ran, 1, `the call whose reply was lost executed ${ran} times, want exactly 1`);
        await assertTokens(ctx, k1, 3);
        await assertTokens(ctx, k2, 3);
        assert.equal(decided(await limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })), 0, 'the client did not recover after reconnecting');
        return 'lost reply: reported unknown, executed exactly once (INFO commandstats), one token per bucket; next call fine';
      } finally {
        await dropper.stop();
      }
    },
  },
  {
    name: 'idle_expiry',
    title: 'idle buckets expire (PEXPIREAT now + idle TTL)',
    notApplicable: ANY,
    async run(ctx) {
      const s = bucketSpec({ capacity: 2, refillPerSecond: 1, idleTtlMs: 300 });
      const [k1, k2] = ctx.pair('expiry');
      const r = await ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s });
      const now = (r as Extract<LimiterResult, { kind: 'decided' }>).serverNowMs;
      assert.equal(Number(await ctx.admin.call('PEXPIRETIME', k1)), now + 300);
      await sleep(450);
      assert.equal(await ctx.admin.exists(k1, k2), 0, 'idle buckets did not expire');
      return 'PEXPIRETIME = script now + TTL; both buckets gone after the TTL';
    },
  },
  {
    name: 'duplicate_key_refused',
    title: 'one key as both buckets is refused (client and script)',
    notApplicable: OWNED,
    async run(ctx) {
      const s = SLOW;
      const [k1] = ctx.pair('dup');
      const e0 = await executions(ctx);
      await assert.rejects(ctx.limiter.allowOrdered({ key: k1!, spec: s }, { key: k1!, spec: s }), (e: unknown) => e instanceof LimiterError && e.code === 'DUPLICATE_KEY');
      assert.equal((await executions(ctx)) - e0, 0, 'the client sent a duplicate-key call');
      await assert.rejects(ctx.call(ctx.admin, ctx.script, [k1!, k1!], [...s.args, ...s.args]), /duplicate key/);
      assert.equal(await ctx.admin.exists(k1!), 0);
      return 'client refuses before sending; the script refuses too; nothing written';
    },
  },
  {
    name: 'cluster_slots',
    title: 'slot check: tagged pairs run on the cluster, untagged pairs get CROSSSLOT',
    notApplicable: (t) => (t.spec.kind === 'cluster' ? null : 'CROSSSLOT exists only on a cluster'),
    async run(ctx) {
      const s = SLOW;
      const [k1, k2] = ctx.pair('slots');
      const tagged = pairSlots(k1, k2, ctx.topology.keyPrefix);
      assert.equal(tagged.sameSlot, true);
      assert.equal(decided(await ctx.limiter.allowOrdered({ key: k1, spec: s }, { key: k2, spec: s })), 0);
      const tag = randomBytes(4).toString('hex');
      const a = `lim:untagged:${tag}:a`;
      let b = `lim:untagged:${tag}:b`;
      for (let i = 0; pairSlots(a, b, ctx.topology.keyPrefix).sameSlot; i++) b = `lim:untagged:${tag}:b${i}`;
      const untagged = pairSlots(a, b, ctx.topology.keyPrefix);
      const reqs: [Request, Request] = [
        { key: a, spec: s },
        { key: b, spec: s },
      ];
      await assert.rejects(ctx.limiter.allowOrdered(...reqs), (e: unknown) => e instanceof LimiterError && e.code === 'CROSSSLOT');
      assert.equal((await ctx.admin.exists(a)) + (await ctx.admin.exists(b)), 0, 'a CROSSSLOT call wrote something');
      return `tagged pair: slot ${tagged.first}=${tagged.second}, ran; untagged pair: slots ${untagged.first}≠${untagged.second}, CROSSSLOT, nothing written`;
    },
  },
];

/** Runs the invariant checks (all, or `only`) against one topology, on the shipped limiter or a patch of it. */
export async function runInvariants(topology: Topology, only?: readonly string[], patch?: LimiterPatch): Promise<InvariantOutcome[]> {
  const options = limiterOptions(patch);
  const admin = topology.client();
  const subject = topology.client();
  // On an endpoint the harness does not own these raw node connections refuse SCRIPT FLUSH & co. too
  // (the OWNED gate keeps such checks from running; this is the second lock).
  const guard = topology.owned ? {} : { destructive: topology.destructiveAllowed ? ('announce' as const) : ('refuse' as const) };
  const primaries = topology.nodes.filter((n) => n.role === 'primary').map((n) => createClient({ kind: 'standalone', host: n.host, port: n.port }, guard));
  const run = randomBytes(3).toString('hex');
  const ctx: InvariantContext = {
    topology,
    admin,
    limiter: new Limiter(subject, options),
    limiterOn: (client) => new Limiter(client, options),
    script: options.script ?? orderedLimiterScript(),
    call: options.call ?? evalScript,
    primaries,
    pair: (name) => [`lim:{inv.${run}.${name}}:first`, `lim:{inv.${run}.${name}}:second`],
  };
  const out: InvariantOutcome[] = [];
  // Faults are not verdicts: after the first, every later check is not-run with it at once.
  let fault: InfrastructureFault | null = null;
  const faulted = (inv: LimiterInvariant, f: InfrastructureFault): InvariantOutcome => ({
    name: inv.name,
    title: inv.title,
    status: 'not-run',
    detail: `could not run: ${describeFault(f.fault)}`,
    fault: f.fault,
  });
  try {
    for (const inv of LIMITER_INVARIANTS) {
      if (only && !only.includes(inv.name)) continue;
      if (fault) {
        out.push(faulted(inv, fault));
        continue;
      }
      const why = inv.notApplicable(topology);
      if (why !== null) {
        out.push({ name: inv.name, title: inv.title, status: 'not-run', detail: why });
        continue;
      }
      try {
        out.push({ name: inv.name, title: inv.title, status: 'passed', detail: await inv.run(ctx) });
      } catch (err) {
        // A failure counts only on a healthy system: a fault, or a node that does not answer now, is not-run.
        fault = asInfrastructureFault(err, { during: inv.name }) ?? (await probeHealth([admin, ...(topology.owned ? primaries : [])].map((c) => ({ ping: () => c.ping() }))));
        out.push(fault ? faulted(inv, fault) : { name: inv.name, title: inv.title, status: 'failed', detail: err instanceof Error ? err.message : String(err) });
      }
    }
  } finally {
    await Promise.all([admin, subject, ...primaries].map(closeClient));
  }
  return out;
}
