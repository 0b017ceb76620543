import { median } from '../../src/core/stats.js';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { podsOf, DEFAULT_BOUNDS, type FencingBounds } from '../../src/systems/fencing/state.js';
import { boundsLabel } from '../../src/systems/fencing/model/bounds.js';
import { exploreSystem, SystemExplorationLimitError as ExplorationLimitError } from '../../src/seam/explore.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { projectRoot } from '../../src/core/project-root.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from '../../src/systems/fencing/tlc/config.js';
import { configWithConstants } from '../../src/seam/tlc/growth.js';
import { locateTlc, type TlcTools } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import type { BenchSection } from '../section.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

/**
 * The exhaustive exploration of the XState twin and TLC (one worker, no dump) on the same bounds in
 * the same run — the base config, Pods=4/MaxGen=6 and Pods=6/MaxGen=6 — their runs interleaved so a
 * change of load hits both; the ratio exploration/TLC is printed for TLC's whole-process wall time
 * (JVM start included), for TLC's own reported time and for CPU time (on a shared machine the one
 * least moved by other jobs; the JVM's is every thread's, JIT and GC included). No jar, no ratio:
 * TLC's committed evidence was timed on another day under another load, so it is never set beside a
 * live figure. Then the exploration alone on Pods 2..4 × MaxGen 3..6. Everything within FENCECHECK_BENCH_MODEL_BUDGET_MS.
 */
const RUNS = 3;
const BUDGET_MS = Number(process.env.FENCECHECK_BENCH_MODEL_BUDGET_MS ?? 120_000);
const TLC_TIMEOUT_MS = 300_000;
const LIMIT = 5_000_000;
const COMPARED: readonly FencingBounds[] = [DEFAULT_BOUNDS, { pods: podsOf(4), maxGen: 6 }, { pods: podsOf(6), maxGen: 6 }];

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const isBase = (b: FencingBounds) => b.pods.length === DEFAULT_BOUNDS.pods.length && b.maxGen === DEFAULT_BOUNDS.maxGen;

/**
 * CPU time (user + system, ms) of this process's reaped children — TLC's JVM with all its threads —
 * from /proc/self/stat (Linux; undefined elsewhere). Clock ticks are 100 Hz on Linux.
 */
function childrenCpuMs(): number | undefined {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return undefined;
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
}

interface TlcTiming {
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly ownMs?: number;
  readonly distinct?: number;
  readonly generated?: number;
}

interface ProcessTiming {
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly distinct?: number;
  readonly generated?: number;
}

/**
 * `fencecheck explore` on these bounds as its own process, as TLC is one: node's start, the CLI's
 * load (the build, when fresh), the exploration and its report; wall and CPU (reaped child), and
 * the counts of its report.
 */
async function exploreProcessOnce(bounds: FencingBounds): Promise<ProcessTiming | string> {
  const argv = [
    join(projectRoot, 'bin/fencecheck.mjs'),
    'explore',
    '--system',
    'fencing',
    '--const',
    `Pods=${bounds.pods.length}`,
    '--const',
    `MaxGen=${bounds.maxGen}`,
    '--limit',
    String(LIMIT),
    '--json',
  ];
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
    // In this process's group: Ctrl-C stops it with the bench.
    const child = spawn(process.execPath, argv, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
  const wallMs = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  if (r.code !== 0) return `fencecheck explore exited ${r.code}`;
  const counts = (JSON.parse(r.out) as { counts?: { distinct?: number; generated?: number } }).counts ?? {};
  return {
    wallMs,
    ...(cpu0 !== undefined && cpu1 !== undefined && { cpuMs: cpu1 - cpu0 }),
    ...(counts.distinct !== undefined && { distinct: counts.distinct }),
    ...(counts.generated !== undefined && { generated: counts.generated }),
  };
}

/** One TLC run on these bounds: the base config itself, or it with Pods and MaxGen replaced. */
async function tlcOnce(tools: TlcTools, bounds: FencingBounds, dir: string): Promise<TlcTiming | string> {
  let config = join(projectRoot, BASE_CONFIG_PATH);
  if (!isBase(bounds)) {
    config = join(dir, `Bench_${bounds.pods.length}_${bounds.maxGen}.cfg`);
    writeFileSync(config, configWithConstants(readFileSync(join(projectRoot, BASE_CONFIG_PATH), 'utf8'), { Pods: `{${bounds.pods.join(', ')}}`, MaxGen: String(bounds.maxGen) }, BASE_CONFIG_PATH));
  }
  const cpu0 = childrenCpuMs();
  const run = await runTlc({ spec: join(projectRoot, SPEC_PATH), config, tools, workers: 1, timeoutMs: TLC_TIMEOUT_MS });
  const cpu1 = childrenCpuMs();
  if (run.kind === 'timeout') return `TLC did not finish in ${ms(run.timeoutMs)}`;
  const r = run.result;
  if (r.outcome !== 'ok') return `TLC ended with ${r.outcome}${r.errors[0] ? `: ${r.errors[0].split('\n')[0]}` : ''}`;
  return {
    wallMs: run.wallMs,
    ...(cpu0 !== undefined && cpu1 !== undefined && { cpuMs: cpu1 - cpu0 }),
    ...(r.durationMs !== undefined && { ownMs: r.durationMs }),
    ...(r.distinct !== undefined && { distinct: r.distinct }),
    ...(r.generated !== undefined && { generated: r.generated }),
  };
}

/** The exploration and (with tools) TLC on one config, RUNS times each, alternating; then the lines to print. */
async function compare(bounds: FencingBounds, tools: TlcTools | undefined, dir: string, print: (l: string) => void): Promise<void> {
  const ours: number[] = [];
  const oursCpu: number[] = [];
  const theirs: TlcTiming[] = [];
  const processes: ProcessTiming[] = [];
  let processFailure: string | undefined;
  // Only the figures of the last run are kept: a whole Exploration alive during the next run would
  // grow the heap the next run's garbage collection walks.
  let last: { distinct: number; generated: number; broken: string[] } = { distinct: 0, generated: 0, broken: [] };
  let tlcFailure: string | undefined;
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const r = exploreSystem(fencingSystem(bounds), { limit: LIMIT });
    ours.push(r.durationMs);
    oursCpu.push(cpuMs(c0));
    last = { distinct: r.distinct, generated: r.generated, broken: r.verdicts.filter((v) => !v.holds).map((v) => v.name) };
    if (tools && processFailure === undefined) {
      const p = await exploreProcessOnce(bounds);
      if (typeof p === 'string') processFailure = p;
      else processes.push(p);
    }
    if (tools && tlcFailure === undefined) {
      const t = await tlcOnce(tools, bounds, dir);
      if (typeof t === 'string') tlcFailure = t;
      else theirs.push(t);
    }
  }
  const x = median(ours);
  const broken = last.broken;
  print(`${boundsLabel(bounds)}:`);
  const xc = median(oursCpu);
  print(`  exploration  ${ms(x).padStart(10)}  median of ${RUNS} (CPU ${ms(xc)}), ${last.distinct} distinct / ${last.generated} generated${broken.length ? `  BROKEN: ${broken.join(',')}` : ''}`);
  if (!tools) return;
  if (tlcFailure !== undefined) {
    print(`  TLC (live)   not run to the end: ${tlcFailure}; no ratio`);
    return;
  }
  const wall = median(theirs.map((t) => t.wallMs));
  const owns = theirs.flatMap((t) => (t.ownMs === undefined ? [] : [t.ownMs]));
  const own = owns.length === theirs.length ? median(owns) : undefined;
  const cpus = theirs.flatMap((t) => (t.cpuMs === undefined ? [] : [t.cpuMs]));
  const cpu = cpus.length === theirs.length ? median(cpus) : undefined;
  const t = theirs[0]!;
  print(
    `  TLC (live)   ${ms(wall).padStart(10)}  median of ${RUNS}, whole process (JVM start included${cpu === undefined ? '' : `; CPU ${ms(cpu)}, every JVM thread`}); TLC's own time ${own === undefined ? 'not reported' : ms(own)}; ${t.distinct ?? '?'} distinct / ${t.generated ?? '?'} generated, 1 worker`,
  );
  const same = theirs.every((r) => r.distinct === last.distinct && r.generated === last.generated);
  if (!same) {
    print(
      `  !!! MISMATCH: the exploration has ${last.distinct} distinct / ${last.generated} generated, TLC ${theirs.map((r) => `${r.distinct ?? '?'} / ${r.generated ?? '?'}`).join(', ')} — the ratio compares different state spaces`,
    );
  }
  const parts = [
    `${(x / wall).toFixed(2)}× (wall, whole process)`,
    ...(own === undefined ? [] : [`${(x / own).toFixed(2)}× (TLC's own time)`]),
    ...(cpu === undefined ? [] : [`${(xc / cpu).toFixed(2)}× (CPU)`]),
  ];
  print(`  ratio        exploration/TLC ${parts.join(', ')}${same ? '; same distinct and generated' : ''}`);
  // Whole process against whole process: the CLI's start and load beside the JVM's.
  if (processFailure !== undefined) {
    print(`  explore (process) not run to the end: ${processFailure}; no whole-process ratio`);
    return;
  }
  const pWall = median(processes.map((p) => p.wallMs));
  const pCpus = processes.flatMap((p) => (p.cpuMs === undefined ? [] : [p.cpuMs]));
  const pCpu = pCpus.length === processes.length ? median(pCpus) : undefined;
  const pSame = processes.every((p) => p.distinct === last.distinct && p.generated === last.generated);
  print(
    `  explore (process) ${ms(pWall).padStart(10)}  median of ${RUNS}, \`fencecheck explore\` whole process${pCpu === undefined ? '' : ` (CPU ${ms(pCpu)})`}${pSame ? '' : '  !!! its counts differ from the in-process exploration'}`,
  );
  const target = 0.5;
  const wallRatio = pWall / wall;
  print(
    `  ratio (process) explore/TLC ${wallRatio.toFixed(2)}× (wall)${pCpu === undefined || cpu === undefined ? '' : `, ${(pCpu / cpu).toFixed(2)}× (CPU)`} · ${wallRatio <= target ? 'within' : 'OVER'} the ${target}× target (wall)`,
  );
}

export const section: BenchSection = {
  name: 'model',
  title: 'model: exhaustive exploration of the XState twin beside TLC, live in the same run',
  async run(print) {
    const started = performance.now();
    const spent = () => performance.now() - started > BUDGET_MS;
    const located = locateTlc();
    if (!located.ok) print(`TLC (live): not run: ${located.reason}. Exploration times only, no ratio (the committed evidence's time is another run's, not a comparison).`);
    else print(`TLC (live): ${located.tools.jar}, -workers 1, no state dump; exploration and TLC runs alternate.`);
    const tools = located.ok ? located.tools : undefined;
    const dir = ownedTempDir('bench-model');
    try {
      exploreSystem(fencingSystem(DEFAULT_BOUNDS)); // JIT warm-up, not timed
      for (const bounds of COMPARED) {
        // The base config always runs; the larger ones only within the budget.
        if (bounds !== DEFAULT_BOUNDS && spent()) print(`${boundsLabel(bounds)}: skipped (budget ${ms(BUDGET_MS)} spent)`);
        else await compare(bounds, tools, dir, print);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    print(`exploration alone, larger bounds (a config is skipped once the budget is spent):`);
    print(`  ${'bounds'.padEnd(18)} ${'distinct'.padStart(9)} ${'generated'.padStart(10)} ${'time'.padStart(10)} ${'states/s'.padStart(9)}`);
    for (let pods = 2; pods <= 4; pods++) {
      for (let maxGen = 3; maxGen <= 6; maxGen++) {
        const bounds: FencingBounds = { pods: podsOf(pods), maxGen };
        if (spent()) {
          print(`  ${boundsLabel(bounds).padEnd(18)} skipped (budget spent)`);
          continue;
        }
        try {
          const r = exploreSystem(fencingSystem(bounds), { limit: LIMIT });
          const broken = r.verdicts.filter((v) => !v.holds).map((v) => v.name);
          print(
            `  ${boundsLabel(bounds).padEnd(18)} ${String(r.distinct).padStart(9)} ${String(r.generated).padStart(10)} ${ms(r.durationMs).padStart(10)} ${String(Math.round(r.distinct / (r.durationMs / 1000))).padStart(9)}${broken.length ? `  BROKEN: ${broken.join(',')}` : ''}`,
          );
        } catch (err) {
          if (!(err instanceof ExplorationLimitError)) throw err;
          print(`  ${boundsLabel(bounds).padEnd(18)} not run: ${err.message}`);
        }
      }
    }
  },
};
