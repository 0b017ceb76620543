import { mulberry32 } from '../src/core/random.js';
import { percentile } from '../src/core/stats.js';
import { renderTable } from '../src/core/table.js';
import { startBurners } from './burners.js';
import { envList, type BenchSection } from './section.js';
import { censusCommands, CENSUS_SIGNALS, censusRun, problems, type CensusRun } from './signals/census.js';

/**
 * `npm run bench -- signals [--runs N]`: the signal census. Every long command is started N times
 * (default 6) under two CPU burners and sent SIGINT, SIGTERM or SIGKILL (in turn) to its PID alone
 * at a seeded moment of its first FENCECHECK_BENCH_SIGNAL_WINDOW_MS (default 15000) ms; a SIGKILL is
 * followed by the next command's reap. Prints per command: exits as documented, stop times
 * (signal → exit) p50 / p99 and how many within 2 s, and what was left: processes, folders, records
 * naming a dead process. Figures, not asserts; every bad draw is printed with its seed's moment.
 *
 * FENCECHECK_BENCH_SEED replays the plan; FENCECHECK_BENCH_SIGNALS_ONLY=NAME[,NAME…] runs the
 * commands whose names start so.
 */
const TIGHT_STOP_MS = 2_000;

export const section: BenchSection = {
  name: 'signals',
  title: 'signal census under two CPU burners: SIGINT, SIGTERM and SIGKILL-then-reap at seeded moments of every long command; exits, stop times, what is left',
  async run(print, options) {
    const runs = options.runs ?? 6;
    const only = envList('FENCECHECK_BENCH_SIGNALS_ONLY');
    const commands = (await censusCommands()).filter((c) => only.length === 0 || only.some((o) => c.name.startsWith(o)));
    const windowMs = Number(process.env.FENCECHECK_BENCH_SIGNAL_WINDOW_MS ?? 15000);
    const seed = process.env.FENCECHECK_BENCH_SEED !== undefined ? Number(process.env.FENCECHECK_BENCH_SEED) : Date.now() % 2 ** 31;
    const rng = mulberry32(seed);
    const burners = startBurners(2);
    print(
      `${commands.length} commands × ${runs} signals, interleaved, each in the first ${windowMs} ms; seed ${seed} (FENCECHECK_BENCH_SEED=${seed} replays it); CPU burners pids ${burners.pids.join(', ')}`,
    );
    const all: CensusRun[] = [];
    const t0 = performance.now();
    try {
      for (let i = 0; i < runs; i++) {
        for (const cmd of commands) {
          const signal = CENSUS_SIGNALS[i % CENSUS_SIGNALS.length]!;
          const atMs = Math.floor(rng() * windowMs);
          const r = await censusRun(cmd, signal, atMs);
          all.push(r);
          const bad = problems(r);
          const stop = r.stopMs !== null ? `, stopped in ${Math.round(r.stopMs)} ms` : '';
          const reap = r.reap ? `, reap killed ${r.reap.killed} in ${Math.round(r.reap.ms)} ms` : '';
          print(`[${i + 1}/${runs}] ${cmd.name}: ${signal} at ${atMs} ms: ${r.endedFirst ? 'ended first' : `exit ${r.status}`}${stop}${reap}${bad.length ? ` — ${bad.join('; ')}` : ''}`);
          if (bad.length && r.stderrTail) print(`      ${r.stderrTail.replace(/\n/g, '\n      ')}`);
        }
      }
    } finally {
      await burners.stop();
    }
    print('');
    const rows = commands.map((cmd) => {
      const mine = all.filter((r) => r.command === cmd.name);
      const signalled = mine.filter((r) => !r.endedFirst);
      const stops = signalled.filter((r) => r.signal !== 'SIGKILL').map((r) => r.stopMs!);
      const reaps = signalled.flatMap((r) => (r.reap ? [r.reap.ms] : []));
      const documented = mine.filter((r) => !problems(r).some((p) => p.startsWith('exit'))).length;
      const sum = (f: (r: CensusRun) => number) => mine.reduce((n, r) => n + f(r), 0);
      return [
        cmd.name,
        `${signalled.length}${mine.length > signalled.length ? ` (+${mine.length - signalled.length} ended first)` : ''}`,
        `${documented}/${mine.length}`,
        stops.length ? `${Math.round(percentile(stops, 50))}` : '',
        stops.length ? `${Math.round(percentile(stops, 99))}` : '',
        stops.length ? `${stops.filter((s) => s <= TIGHT_STOP_MS).length}/${stops.length}` : '',
        reaps.length ? `${Math.round(percentile(reaps, 50))}` : '',
        `${sum((r) => r.left.processes.length)}`,
        `${sum((r) => r.left.folders.length)}`,
        `${sum((r) => r.left.staleRecords.length)}`,
      ];
    });
    print(
      renderTable(['command', 'signals', 'exit as documented', 'stop p50 ms', 'stop p99 ms', 'stopped ≤ 2 s', 'reap p50 ms', 'processes left', 'folders left', 'stale records'], rows, {
        alignRight: [2, 3, 4, 5, 6, 7, 8, 9],
      }),
    );
    const bad = all.filter((r) => problems(r).length > 0);
    print(`\n${bad.length} bad draw(s) of ${all.length}, in ${((performance.now() - t0) / 1000).toFixed(0)} s (seed ${seed})`);
  },
};
