import { availableParallelism } from 'node:os';
import type { BenchSection } from '../section.js';
import { valkeyBenchmark } from '../valkey-benchmark.js';
import { closeClient, nodeClient, ValkeyUnavailableError, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { DEFAULT_BOUNDS } from '../../src/systems/fencing/state.js';
import { boundsLabel } from '../../src/systems/fencing/model/bounds.js';
import { runConform, type FencingTourResult } from '../../src/systems/fencing/tour/run.js';
import { headline } from '../../src/seam/tour/report.js';
import { DEFAULT_CONCURRENCY } from '../../src/seam/tour/tour.js';
import { openTourRig, type TourRig } from '../../src/systems/fencing/tour/rig.js';
import { mergeTourReports } from '../../src/seam/tour/merge.js';
import { shardLabel } from '../../src/seam/tour/shard.js';
import { tourStageReport, type TourReportDetails } from '../../src/seam/tour/stage.js';

/**
 * The whole conformance tour at the base bounds (at most 60 s on a 2-core machine), on
 * one set of topologies: wall time, attempts/s, states/s, the commands the tour sent on its three
 * connections and the calls Valkey executed (INFO commandstats deltas over the five nodes, scripts'
 * own calls included), the CPU time of this process and of the servers — beside the raw script-call
 * ceiling measured in the same run: a trivial EVALSHA through the same evalScript, one connection,
 * as many calls in flight as the tour has attempts, on the tour's standalone node. Then a sweep of
 * `concurrency` (attempts in flight) within a time budget (FENCECHECK_BENCH_CONFORM_BUDGET_MS).
 * The target line is printed, not asserted: the figures depend on the machine's load, the ratio to
 * the ceiling less so. Then the tour in four shards (time per shard, the merged digest beside the
 * unsharded one). The foundation section has valkey-benchmark's EVALSHA ceiling.
 */
const SWEEP = [16, 64, 128, 256] as const;
const SHARDS = 4;
const TARGET_S = 60;
const WINDOW_MS = 2000;
const BUDGET_MS = Number(process.env.FENCECHECK_BENCH_CONFORM_BUDGET_MS ?? 90_000);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Server-side figures summed over every node: calls per command (lower case; INFO's own left out), CPU seconds. */
async function serverTotals(topologies: readonly Topology[]): Promise<{ calls: Map<string, number>; cpuS: number }> {
  const calls = new Map<string, number>();
  let cpuS = 0;
  for (const node of topologies.flatMap((t) => t.nodes)) {
    const c = nodeClient(node);
    try {
      const info = String(await c.call('INFO', 'commandstats', 'cpu'));
      for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (m[1] !== 'info') calls.set(m[1]!, (calls.get(m[1]!) ?? 0) + Number(m[2]));
      for (const m of info.matchAll(/^used_cpu_(?:user|sys):([\d.]+)/gm)) cpuS += Number(m[1]);
    } finally {
      await closeClient(c);
    }
  }
  return { calls, cpuS };
}

/**
 * Counts the commands the tour sends on the rig.s connections (what goes over the wire; INFO
 * commandstats also counts the calls scripts make inside Valkey). Returns the stop function.
 */
function countSent(conns: readonly ValkeyClient[], sent: Map<string, number>): () => void {
  const undo = conns.map((conn) => {
    const target = conn as unknown as { sendCommand(cmd: { name: string }, ...rest: unknown[]): unknown };
    const own = Object.hasOwn(target, 'sendCommand');
    const original = target.sendCommand;
    target.sendCommand = function (this: unknown, cmd, ...rest) {
      sent.set(cmd.name, (sent.get(cmd.name) ?? 0) + 1);
      return original.call(this, cmd, ...rest);
    };
    return () => {
      if (own) target.sendCommand = original;
      else delete (target as Partial<typeof target>).sendCommand;
    };
  });
  return () => undo.forEach((u) => u());
}

const sum = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const delta = (after: ReadonlyMap<string, number>, before: ReadonlyMap<string, number>) => new Map([...after].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as const).filter(([, n]) => n > 0));

interface Tour {
  readonly result: FencingTourResult;
  /** Commands the tour sent, by command; and the calls Valkey executed (scripts' own calls included). */
  readonly sent: ReadonlyMap<string, number>;
  readonly executed: ReadonlyMap<string, number>;
  /** CPU seconds of this process and of the five valkey-servers during the tour. */
  readonly harnessCpuS: number;
  readonly valkeyCpuS: number;
}

/** One full tour on an emptied rig (every topology flushed first), its commands counted. */
async function tour(rig: TourRig, concurrency: number): Promise<Tour> {
  const topologies = Object.values(rig.topologies);
  await Promise.all(topologies.map((t) => t.flush()));
  const before = await serverTotals(topologies);
  const sent = new Map<string, number>();
  const stop = countSent(Object.values(rig.conns), sent);
  const cpu0 = process.cpuUsage();
  let result: FencingTourResult;
  try {
    result = (await runConform({ bounds: DEFAULT_BOUNDS, concurrency, rig, saveTrace: false })).result;
  } finally {
    stop();
  }
  const cpu = process.cpuUsage(cpu0);
  const after = await serverTotals(topologies);
  return { result, sent, executed: delta(after.calls, before.calls), harnessCpuS: (cpu.user + cpu.system) / 1e6, valkeyCpuS: after.cpuS - before.cpuS };
}

const TRIVIAL = luaScript('bench-conform-trivial', 'return 1');

/** Trivial-script calls per second for WINDOW_MS with `inFlight` callers on one connection. */
async function ceiling(topology: Topology, inFlight: number): Promise<number> {
  const conn = topology.client();
  const trivial = TRIVIAL;
  try {
    await evalScript(conn, trivial, [], []); // loads it (NOSCRIPT → EVAL) outside the window
    let done = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() - t0 < WINDOW_MS) {
          await evalScript(conn, trivial, [], []);
          done++;
        }
      }),
    );
    return done / ((performance.now() - t0) / 1000);
  } finally {
    await closeClient(conn);
  }
}

const perSecond = (n: number, ms: number) => n / (ms / 1000);
const byCount = (m: ReadonlyMap<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([cmd, k]) => `${cmd} ${fmt(k)}`)
    .join(', ');

export const section: BenchSection = {
  name: 'conform',
  title: `conform: the whole conformance tour at the base bounds (${boundsLabel(DEFAULT_BOUNDS)}) beside the raw script-call ceiling`,
  async run(print) {
    const t0 = performance.now();
    let rig: TourRig;
    try {
      rig = await openTourRig({ provider: 'native' });
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) return print(`  not run: ${err.message}`);
      throw err;
    }
    try {
      const startMs = performance.now() - t0;
      const main = await tour(rig, DEFAULT_CONCURRENCY);
      const r = main.result;
      const raw = await ceiling(rig.topologies.disabled, DEFAULT_CONCURRENCY);
      const sent = sum(main.sent);
      const sentRate = perSecond(sent, r.durationMs);
      const executed = sum(main.executed);
      print(`  ${headline(r)}`);
      print(`  start the three topologies  ${secs(startMs).padStart(9)}   (standalone, 1-shard and 3-shard cluster, in parallel)`);
      print(`  tour wall time              ${secs(r.durationMs).padStart(9)}   concurrency ${DEFAULT_CONCURRENCY} (the default), depth ${r.depth}`);
      print(`  states                      ${fmt(r.states).padStart(9)}   ${fmt(perSecond(r.states, r.durationMs)).padStart(9)} states/s`);
      print(`  attempts                    ${fmt(r.attempts).padStart(9)}   ${fmt(perSecond(r.attempts, r.durationMs)).padStart(9)} attempts/s   (+ ${fmt(r.stateChecks)} read-side checks)`);
      print(`  commands sent               ${fmt(sent).padStart(9)}   ${fmt(sentRate).padStart(9)} commands/s   (${(sent / r.attempts).toFixed(1)} an attempt, on the tour's 3 connections)`);
      print(`    ${byCount(main.sent, 8)}`);
      print(
        `  calls Valkey executed       ${fmt(executed).padStart(9)}   ${fmt(perSecond(executed, r.durationMs)).padStart(9)} calls/s      (INFO commandstats on all 5 nodes, scripts' own calls included)`,
      );
      print(`    ${byCount(main.executed, 8)}`);
      print(`  CPU during the tour         harness ${main.harnessCpuS.toFixed(1)} s, valkey-servers ${main.valkeyCpuS.toFixed(1)} s, in ${secs(r.durationMs)} on ${availableParallelism()} cores`);
      print(
        `  raw ceiling                             ${fmt(raw).padStart(9)} calls/s      (trivial EVALSHA via evalScript, 1 connection, ${DEFAULT_CONCURRENCY} in flight, the tour's standalone node)`,
      );
      print(`  ratio commands sent/s ÷ ceiling         ${(sentRate / raw).toFixed(2).padStart(9)}`);
      // The server-side anchor of the same run: valkey-benchmark sending the same trivial EVALSHA.
      const node = rig.topologies.disabled.nodes[0]!;
      const bench = await valkeyBenchmark(node, DEFAULT_CONCURRENCY, Math.max(50_000, Math.round(raw * 3)), ['EVALSHA', TRIVIAL.sha1, '0']).catch((e: Error) => e);
      print(
        bench instanceof Error
          ? `  valkey-benchmark                        not run: ${bench.message}`
          : `  valkey-benchmark -P ${DEFAULT_CONCURRENCY}                ${fmt(bench).padStart(9)} calls/s      (the same trivial EVALSHA, no client work; ratio commands sent/s ÷ it ${(sentRate / bench).toFixed(2)})`,
      );
      const endToEnd = startMs + r.durationMs;
      print(
        `  target: ≤ ${TARGET_S} s → ${endToEnd <= TARGET_S * 1000 ? 'PASS' : 'FAIL'}   (${secs(endToEnd)} with the topologies' start, ${secs(r.durationMs)} the tour alone; information, not an assertion)`,
      );

      // The default's neighbours first, so that a tight budget still shows them.
      const rows = new Map<number, Tour | null>([[DEFAULT_CONCURRENCY, main]]);
      for (const width of [...SWEEP].filter((w) => w !== DEFAULT_CONCURRENCY).sort((a, b) => Math.abs(Math.log(a / DEFAULT_CONCURRENCY)) - Math.abs(Math.log(b / DEFAULT_CONCURRENCY)))) {
        rows.set(width, performance.now() - t0 + r.durationMs > BUDGET_MS ? null : await tour(rig, width));
      }
      print(`concurrency sweep (attempts in flight; one full tour each, within ${secs(BUDGET_MS)} from the section's start):`);
      print(`  ${'concurrency'.padStart(11)} ${'wall'.padStart(8)} ${'attempts/s'.padStart(11)} ${'commands/s'.padStart(11)} ${'states/s'.padStart(9)}`);
      for (const width of [...rows.keys()].sort((a, b) => a - b)) {
        const t = rows.get(width);
        if (!t) {
          print(`  ${String(width).padStart(11)} skipped (budget spent)`);
          continue;
        }
        const ms = t.result.durationMs;
        const broken = t.result.failure ? `  FAILED ${t.result.failure.check}` : '';
        print(
          `  ${String(width).padStart(11)} ${secs(ms).padStart(8)} ${fmt(perSecond(t.result.attempts, ms)).padStart(11)} ${fmt(perSecond(sum(t.sent), ms)).padStart(11)} ${fmt(perSecond(t.result.states, ms)).padStart(9)}${width === DEFAULT_CONCURRENCY ? '  (default, above)' : ''}${broken}`,
        );
      }

      // The tour cut into shards, as a CI matrix runs it: each shard's time, and the merged digest.
      if (performance.now() - t0 + r.durationMs > BUDGET_MS) print(`shards (--shard i/${SHARDS}): skipped (budget spent)`);
      else {
        const parts: FencingTourResult[] = [];
        for (let i = 1; i <= SHARDS; i++) parts.push((await runConform({ bounds: DEFAULT_BOUNDS, rig, shard: { index: i, count: SHARDS }, saveTrace: false })).result);
        const startedAt = new Date();
        const merged = mergeTourReports(parts.map((p) => tourStageReport(p, { stage: 'conform', startedAt })));
        const digest = (merged.details as TourReportDetails).digest;
        print(`shards (--shard i/${SHARDS}, one after another on one rig; a ${SHARDS}-job CI matrix takes the slowest one plus its start):`);
        for (const p of parts) print(`  ${shardLabel(p.shard).padStart(11)} ${secs(p.durationMs).padStart(8)} ${fmt(p.states).padStart(7)} states ${fmt(p.attempts).padStart(8)} attempts`);
        print(
          `  merged: ${merged.status}, digest ${digest === r.digest ? "equal to the unsharded run's" : `DIFFERENT from the unsharded run's (${String(digest).slice(0, 12)}… vs ${String(r.digest).slice(0, 12)}…)`}`,
        );
      }
    } finally {
      await rig.close();
    }
  },
};
