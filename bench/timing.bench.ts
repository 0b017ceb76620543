import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../src/core/project-root.js';
import { percentile } from '../src/core/stats.js';
import { renderTable } from '../src/core/table.js';
import { ownedTempDir, removeTempDir } from '../src/core/temp-dir.js';
import { startBurners } from './burners.js';
import { envList, type BenchSection } from './section.js';

/**
 * `npm run bench -- timing [--runs N]`: the tests' timed bounds measured as the table in
 * test/support/bounds.ts requires. Every test file that uses the table runs N times (default 5)
 * under two CPU burners with FENCECHECK_TIMING_LOG set; per bound, the samples' p50, p99 and
 * largest value beside the bound, and the bound's multiple of the p99 (it must be ≥ 5). Fewer than
 * 100 samples: the largest stands for the p99. The runs use FENCECHECK_BOUNDS_SCALE=10, so that no
 * sample is cut short at its bound. FENCECHECK_BENCH_TIMING_FILES=a,b limits the files;
 * FENCECHECK_BENCH_TIMING_LOG=FILE keeps the samples there (appended), to add up several sittings.
 */
interface Sample {
  readonly bound: string;
  readonly ms: number;
  readonly boundMs: number;
}

/** The test files that import the bounds table. */
function timedTestFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.test\.ts$/.test(e.name) && /support\/bounds\.js'/.test(readFileSync(p, 'utf8'))) out.push(relative(projectRoot, p));
    }
  };
  walk(join(projectRoot, 'test'));
  return out.sort();
}

function vitestRun(files: readonly string[], log: string): Promise<{ code: number | null; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(projectRoot, 'node_modules/vitest/vitest.mjs'), 'run', ...files], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Bounds ×10 while measuring: no wait is cut short at its bound, every sample is the real value.
      env: { ...process.env, FENCECHECK_TIMING_LOG: log, FENCECHECK_BOUNDS_SCALE: '10', NO_COLOR: '1' },
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const failed = [...out.matchAll(/^\s*(?:FAIL|×)\s+(.+)$/gm)].map((m) => m[1]!.trim()).slice(0, 8);
      const closing = /^tests: .+$/m.exec(out)?.[0] ?? `vitest exited ${code}`;
      resolve({ code, summary: `${closing}${failed.length ? `; red: ${failed.join(' | ')}` : ''}` });
    });
  });
}

export const section: BenchSection = {
  name: 'timing',
  title: 'timed bounds of the tests under two CPU burners: each bound beside the p99 it must be ≥ 5× of',
  async run(print, options) {
    const runs = options.runs ?? 5;
    const only = envList('FENCECHECK_BENCH_TIMING_FILES');
    const files = timedTestFiles().filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
    const dir = ownedTempDir('bench-timing');
    // FENCECHECK_BENCH_TIMING_LOG keeps the samples (appended): runs of several sittings add up.
    const log = process.env.FENCECHECK_BENCH_TIMING_LOG ?? join(dir, 'timing.jsonl');
    const burners = startBurners(2);
    print(`${files.length} test files × ${runs} runs; CPU burners pids ${burners.pids.join(', ')}`);
    try {
      for (let i = 1; i <= runs; i++) {
        const t0 = performance.now();
        const r = await vitestRun(files, log);
        print(`[${i}/${runs}] ${r.summary} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
    } finally {
      await burners.stop();
    }
    try {
      const samples: Sample[] = existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Sample)
        : [];
      const names = [...new Set(samples.map((s) => s.bound))].sort();
      const rows = names.map((n) => {
        const mine = samples.filter((s) => s.bound === n);
        const ms = mine.map((s) => s.ms);
        const p99 = mine.length >= 100 ? percentile(ms, 99) : Math.max(...ms);
        const bound = mine[mine.length - 1]!.boundMs;
        return [
          n,
          String(mine.length),
          String(Math.round(percentile(ms, 50))),
          String(Math.round(p99)),
          String(Math.max(...ms)),
          String(bound),
          (bound / Math.max(1, p99)).toFixed(1),
          bound >= 5 * p99 ? '' : `raise to ≥ ${5 * p99}`,
        ];
      });
      print(renderTable(['bound', 'n', 'p50 ms', 'p99 ms', 'max ms', 'bound ms', '× p99', ''], rows, { alignRight: [1, 2, 3, 4, 5, 6] }));
    } finally {
      removeTempDir(dir);
    }
  },
};
