import { loadavg } from 'node:os';
import { mulberry32 } from '../src/core/random.js';
import { percentile } from '../src/core/stats.js';
import { renderTable } from '../src/core/table.js';
import { startBurners } from './burners.js';
import { envList, type BenchSection } from './section.js';
import { censusCommands, CENSUS_SIGNALS, censusRun, describeMoment, drawMoment, MAX_EVENT, problems, type CensusRun } from './signals/census.js';

/**
 * `npm run bench -- signals [--runs N]`: the signal census. Every long command is started N times
 * (default 6) under two CPU burners and sent SIGINT, SIGTERM or SIGKILL (in turn) to its PID alone
 * at a seeded moment where the races are: its start-up, or just after one of its first record
 * changes (a server, Prometheus or pod starting or stopping; bench/signals/census.ts). A SIGKILL is
 * followed by the next command's reap. Prints per command: exits as documented, stop times
 * (signal → exit) p50 / p99 and how many within 2 s, and what was left: processes, folders, records
 * naming a dead process; and the load average, which is what the figures were taken under.
 * Figures, not asserts; every bad draw is printed with its moment.
 *
 * FENCECHECK_BENCH_SEED replays the plan; FENCECHECK_BENCH_SIGNALS_ONLY=NAME[,NAME…] runs the
 * commands whose names start so; FENCECHECK_BENCH_BURNERS=N starts N burners instead of two (0 on
 * a machine that others load already: the load average printed says how loaded it was).
 */
const TIGHT_STOP_MS = 2_000;

export const section: BenchSection = {
  name: 'signals',
  title: 'signal census under two CPU burners: SIGINT, SIGTERM and SIGKILL-then-reap at seeded moments of every long command; exits, stop times, what is left',
  async run(print, options) {
    const runs = options.runs ?? 6;
    const only = envList('FENCECHECK_BENCH_SIGNALS_ONLY');
    const commands = (await censusCommands()).filter((c) => only.length === 0 || only.some((o) => c.name.startsWith(o)));
    const seed = process.env.FENCECHECK_BENCH_SEED !== undefined ? Number(process.env.FENCECHECK_BENCH_SEED) : Date.now() % 2 ** 31;
    const burnerCount = Number(process.env.FENCECHECK_BENCH_BURNERS ?? 2); // checked at start-up (src/core/env.ts)
    const rng = mulberry32(seed);
    const burners = startBurners(burnerCount);
    const loads: number[] = [];
    const load = () => {
      const l = loadavg()[0]!;
      loads.push(l);
      return l.toFixed(1);
    };
    print(
      `${commands.length} commands × ${runs} signals, interleaved, each at the start-up or just after one of the first ${MAX_EVENT} record changes; seed ${seed} (FENCECHECK_BENCH_SEED=${seed} replays it); ${burnerCount} CPU burner(s)${burnerCount ? ` pids ${burners.pids.join(', ')}` : ''}; load average ${load()}`,
    );
    const all: CensusRun[] = [];
    const t0 = performance.now();
    try {
      for (let i = 0; i < runs; i++) {
        for (const cmd of commands) {
          const signal = CENSUS_SIGNALS[i % CENSUS_SIGNALS.length]!;
          const moment = drawMoment(rng);
          const r = await censusRun(cmd, signal, moment);
          all.push(r);
          const bad = problems(r);
          const stop = r.stopMs !== null ? `, stopped in ${Math.round(r.stopMs)} ms` : '';
          const reap = r.reap ? `, reap killed ${r.reap.killed} in ${Math.round(r.reap.ms)} ms` : '';
          const at = `${describeMoment(moment)}${r.event < moment.event ? ` (took change ${r.event})` : ''}, ${Math.round(r.atMs)} ms in`;
          print(`[${i + 1}/${runs}] ${cmd.name}: ${signal} at ${at}: ${r.endedFirst ? 'ended first' : `exit ${r.status}`}${stop}${reap}${bad.length ? ` — ${bad.join('; ')}` : ''}`);
          if (bad.length && r.stderrTail) print(`      ${r.stderrTail.replace(/\n/g, '\n      ')}`);
        }
        print(`  load average ${load()}`);
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
    print(
      `\n${bad.length} bad draw(s) of ${all.length}, in ${((performance.now() - t0) / 1000).toFixed(0)} s (seed ${seed}); ${burnerCount} burner(s); 1-minute load average p50 ${percentile(loads, 50).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`,
    );
  },
};
