import { loadavg } from 'node:os';
import { mulberry32 } from '../src/core/random.js';
import { percentile } from '../src/core/stats.js';
import { renderTable } from '../src/core/table.js';
import { ownedTempDir, removeTempDir } from '../src/core/temp-dir.js';
import { startBurners } from './burners.js';
import { envList, type BenchSection } from './section.js';
import { stabilityItems, testFile, type StabilityItem } from './stability/items.js';
import { CRASH_LINE, runCommand, shellStatus, STACK_LINE, type CommandRun, type Interrupt } from './stability/run.js';
import { runVitest } from './vitest-run.js';

/**
 * `npm run bench -- stability [--runs N]`: every cluster-matrix row, the pause walks,
 * the failover drill, and every long command stopped by a signal, each run N times (default 10)
 * with two CPU burners this section starts and stops by PID. Prints the pass rate per item and, for
 * the interruptions, the stop times (signal → exit) p50 / p99 and how many ended within 2 s — the
 * figures the tests no longer assert. A run passes when it ends as it should (exit 0; stopped: by
 * the signal, 130 / 143 in a shell) with no "crashed" line or stack, no valkey-server left in its
 * registry root and no `fencecheck-*` entry left in its temporary directory. Every failure is printed
 * with its command, exit, stop time and the tail of its output.
 *
 * FENCECHECK_BENCH_SEED replays the signal plan (which signal, how long after the first server);
 * FENCECHECK_BENCH_STABILITY_ONLY=NAME[,NAME…] runs the items whose names start so.
 * FENCECHECK_BENCH_STABILITY_FILES=FILE[,FILE…] runs those test files instead, each alone as
 * `vitest run FILE` (deep-tier files included), N times: the census of chosen files (the real-time
 * ones, the ones that failed under load) when the whole quick tier N times cannot be afforded; a
 * failed run names its failed tests. FENCECHECK_BENCH_BURNERS=N starts N burners instead of two.
 */
const TIGHT_STOP_MS = 2_000;

interface Outcome {
  readonly item: StabilityItem;
  readonly run: number;
  readonly r: CommandRun;
  readonly interrupt?: Interrupt;
  /** 'pass', 'fail', or 'ended first' (the command finished before its signal was due). */
  readonly verdict: 'pass' | 'fail' | 'ended first';
  readonly problems: readonly string[];
}

const SIGNO = { SIGINT: 2, SIGTERM: 15 } as const;

function judge(item: StabilityItem, r: CommandRun, interrupt?: Interrupt): Pick<Outcome, 'verdict' | 'problems'> {
  const problems: string[] = [];
  const status = shellStatus(r);
  if (item.kind === 'tests') {
    // vitest's globalSetup already fails a run that leaves a server or a temporary folder.
    if (r.code !== 0) problems.push(`exit ${r.code}${failedTests(r.stdout)}`);
    return { verdict: problems.length > 0 ? 'fail' : 'pass', problems };
  }
  if (r.timedOut) problems.push(`still running after ${Math.round(item.hardLimitMs / 1000)} s: killed`);
  if (CRASH_LINE.test(r.stderr)) problems.push('a "crashed" line');
  if (STACK_LINE.test(r.stderr)) problems.push('a stack trace');
  if (r.survivors.length > 0) problems.push(`valkey-server left running: ${r.survivors.join(', ')}`);
  if (r.leftovers.length > 0) problems.push(`temporary entries left: ${r.leftovers.join(', ')}`);
  if (interrupt && r.stopMs === null) {
    // Finished before the signal was due: no interruption to judge (its own exit still counts).
    if (status !== 0) problems.push(`exit ${status} before any signal`);
    return { verdict: problems.length > 0 ? 'fail' : 'ended first', problems };
  }
  const want = interrupt ? 128 + SIGNO[interrupt.signal] : 0;
  if (status !== want) problems.push(`exit ${status ?? `${r.signal}`}, not ${want}`);
  return { verdict: problems.length > 0 ? 'fail' : 'pass', problems };
}

/** The tests vitest marked failed in its output (`×` lines), for a failed run's line. */
function failedTests(out: string): string {
  const names = [...out.matchAll(/^\s*[×✗]\s+(.+?)(?:\s+\d+ms)?$/gm)].map((m) => m[1]!.trim());
  return names.length > 0 ? `: ${[...new Set(names)].join('; ')}` : '';
}

/** The assertion lines of vitest's output, with the line after each (the expected / received values). */
function assertionLines(out: string): string[] {
  const lines = out.split('\n');
  return lines
    .flatMap((l, i) => (/Error:|TimeoutError|Timed out/.test(l) ? [l, lines[i + 1] ?? ''] : []))
    .slice(0, 12)
    .map((l) => `      ${l.trim().slice(0, 300)}`);
}

/** One run of a test file, as the other items' runs are recorded. */
async function runTests(file: string): Promise<CommandRun> {
  const r = await runVitest(['run', file], { FENCECHECK_TESTS: 'all' });
  return { argv: ['vitest', 'run', file], code: r.code, signal: null, ms: r.ms, stdout: r.out, stderr: '', stopMs: null, survivors: [], leftovers: [], timedOut: false };
}

const tail = (text: string, n: number) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .map((l) => `      ${l.length > 240 ? `${l.slice(0, 240)}…` : l}`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const section: BenchSection = {
  name: 'stability',
  title: 'stability under two CPU burners: pass rate of every real-time row and drill, and of every long command stopped by a signal (stop times)',
  async run(print, options) {
    const runs = options.runs ?? 10;
    const only = envList('FENCECHECK_BENCH_STABILITY_ONLY');
    const files = envList('FENCECHECK_BENCH_STABILITY_FILES');
    const items = (files.length > 0 ? files.map(testFile) : await stabilityItems()).filter((i) => only.length === 0 || only.some((o) => i.name.startsWith(o)));
    const seed = process.env.FENCECHECK_BENCH_SEED !== undefined ? Number(process.env.FENCECHECK_BENCH_SEED) : Date.now() % 2 ** 31;
    const rng = mulberry32(seed);
    const burnerCount = Number(process.env.FENCECHECK_BENCH_BURNERS ?? 2); // checked at start-up (src/core/env.ts)
    const burners = startBurners(burnerCount);
    const loads: number[] = [loadavg()[0]!];
    print(
      `${items.length} items × ${runs} runs, interleaved; seed ${seed} (FENCECHECK_BENCH_SEED=${seed} replays the signal plan); ${burnerCount} CPU burner(s)${burnerCount ? ` pids ${burners.pids.join(', ')}` : ''}; load average ${loads[0]!.toFixed(1)}`,
    );
    const outcomes: Outcome[] = [];
    const t0 = performance.now();
    try {
      for (let run = 1; run <= runs; run++) {
        for (const item of items) {
          // Alternate the user's two ways: SIGTERM to the process, Ctrl-C (SIGINT) to its group.
          const interrupt: Interrupt | undefined =
            item.kind === 'interrupt'
              ? run % 2 === 1
                ? { signal: 'SIGTERM', toGroup: false, afterServersMs: Math.floor(rng() * item.maxDelayMs) }
                : { signal: 'SIGINT', toGroup: true, afterServersMs: Math.floor(rng() * item.maxDelayMs) }
              : undefined;
          let r: CommandRun;
          if (item.kind === 'tests') r = await runTests(item.file);
          else {
            const dir = ownedTempDir('stability-out');
            try {
              r = await runCommand(item.argv({ dir }), { hardLimitMs: item.hardLimitMs, ...(interrupt ? { interrupt } : {}) });
            } finally {
              removeTempDir(dir);
            }
          }
          loads.push(loadavg()[0]!);
          const o: Outcome = { item, run, r, ...(interrupt ? { interrupt } : {}), ...judge(item, r, interrupt) };
          outcomes.push(o);
          const how = interrupt ? ` ${interrupt.signal}${interrupt.toGroup ? ' to the group' : ''} ${interrupt.afterServersMs} ms after the first server` : '';
          const stop = r.stopMs !== null ? `, stopped in ${Math.round(r.stopMs)} ms` : '';
          print(`[${run}/${runs}] ${item.name}${how ? `:${how}` : ''}: ${o.verdict}${o.problems.length ? ` (${o.problems.join('; ')})` : ''} — ${seconds(r.ms)}${stop}`);
          // A failed test file's assertions at once: a long census may be stopped before its summary.
          if (item.kind === 'tests' && o.verdict === 'fail') for (const l of assertionLines(r.stdout)) print(l);
        }
      }
    } finally {
      await burners.stop();
    }
    print('');
    const rows = items.map((item) => {
      const mine = outcomes.filter((o) => o.item === item);
      const judged = mine.filter((o) => o.verdict !== 'ended first');
      const passed = judged.filter((o) => o.verdict === 'pass').length;
      const stops = mine.flatMap((o) => (o.r.stopMs !== null ? [o.r.stopMs] : []));
      const walls = mine.map((o) => o.r.ms);
      return [
        item.name,
        `${passed}/${judged.length}${judged.length < mine.length ? ` (+${mine.length - judged.length} ended first)` : ''}`,
        item.kind === 'interrupt' && stops.length > 0 ? `${Math.round(percentile(stops, 50))}` : '',
        item.kind === 'interrupt' && stops.length > 0 ? `${Math.round(percentile(stops, 99))}` : '',
        item.kind === 'interrupt' && stops.length > 0 ? `${stops.filter((s) => s <= TIGHT_STOP_MS).length}/${stops.length}` : '',
        `${seconds(percentile(walls, 50))}`,
      ];
    });
    print(renderTable(['item', 'passed', 'stop p50 ms', 'stop p99 ms', 'stopped ≤ 2 s', 'wall p50'], rows, { alignRight: [2, 3, 4, 5] }));
    const failures = outcomes.filter((o) => o.verdict === 'fail');
    print(
      `\n${failures.length} failed run(s) of ${outcomes.length}, in ${seconds(performance.now() - t0)}; ${burnerCount} burner(s); 1-minute load average p50 ${percentile(loads, 50).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}${failures.length ? ':' : ''}`,
    );
    for (const f of failures) {
      print(
        `  ${f.item.name} run ${f.run}: fencecheck ${f.r.argv.join(' ')}${f.interrupt ? ` + ${f.interrupt.signal}${f.interrupt.toGroup ? ' to the group' : ''} ${f.interrupt.afterServersMs} ms after the first server` : ''}`,
      );
      print(`    ${f.problems.join('; ')}; exit ${shellStatus(f.r)}, ${seconds(f.r.ms)}${f.r.stopMs !== null ? `, stop ${Math.round(f.r.stopMs)} ms` : ''}`);
      const seeds = [...new Set([...`${f.r.stdout}\n${f.r.stderr}`.matchAll(/\b(seed[ =:]+-?\d+|replay: .+)/gi)].map((m) => m[1]!))].slice(0, 3);
      if (seeds.length > 0) print(`    ${seeds.join(' · ')}`);
      print('    stderr:');
      for (const l of tail(f.r.stderr, 8)) print(l);
      print('    stdout:');
      for (const l of tail(f.r.stdout, 8)) print(l);
    }
  },
};
