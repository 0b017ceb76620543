import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/core/project-root.js';
import type { StageReport } from '../src/core/stage-report.js';
import { mergeTourReports } from '../src/seam/tour/merge.js';
import type { TourReportDetails } from '../src/seam/tour/stage.js';
import { formatDuration } from '../src/verify/progress.js';
import type { BenchSection } from './section.js';

/**
 * The tour at Pods=4 MaxGen=6 (20,032 model states, ~5× the base bounds) as a 4-job CI matrix runs
 * it: `fencecheck conform --const Pods=4 --const MaxGen=6 --shard i/4 --json`, each part a process
 * of its own with its own Valkey (here one after another: one machine), then the unsharded run;
 * prints each part's time, the slowest part (the matrix's wall, its start included) against the
 * unsharded run, and whether the merged digest is the unsharded run's. Named only (`npm run bench --
 * verify-shards`): minutes, never in `npm test`.
 */
const SHARDS = 4;
const BOUNDS = ['--const', 'Pods=4', '--const', 'MaxGen=6'];

function conform(extra: readonly string[]): Promise<{ report: StageReport; wallMs: number; code: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'conform', ...BOUNDS, ...extra, '--json'], { cwd: projectRoot, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      try {
        resolve({ report: JSON.parse(stdout) as StageReport, wallMs: performance.now() - t0, code });
      } catch {
        reject(new Error(`conform ${extra.join(' ')} exited ${code} without a report`));
      }
    });
  });
}

const digestOf = (r: StageReport) => (r.details as TourReportDetails | undefined)?.digest ?? null;

export const section: BenchSection = {
  name: 'verify-shards',
  title: `verify-shards: the tour at Pods=4 MaxGen=6 in ${SHARDS} shards (a ${SHARDS}-job CI matrix) beside the unsharded run`,
  async run(print) {
    const parts: { report: StageReport; wallMs: number }[] = [];
    for (let i = 1; i <= SHARDS; i++) {
      const p = await conform(['--shard', `${i}/${SHARDS}`]);
      const c = p.report.counts ?? {};
      print(
        `  shard ${i}/${SHARDS}: ${formatDuration(p.wallMs).padStart(7)} process (tour ${formatDuration(c.tourMs ?? 0)}), ${c.states ?? '?'} states, ${c.attempts ?? '?'} attempts, ${p.report.status}`,
      );
      parts.push(p);
    }
    const whole = await conform([]);
    const merged = mergeTourReports(parts.map((p) => p.report));
    const slowest = Math.max(...parts.map((p) => p.wallMs));
    const sum = parts.reduce((a, p) => a + p.wallMs, 0);
    print(
      `  unsharded: ${formatDuration(whole.wallMs)} process (tour ${formatDuration(whole.report.counts?.tourMs ?? 0)}), ${whole.report.counts?.states ?? '?'} states, ${whole.report.counts?.attempts ?? '?'} attempts, ${whole.report.status}`,
    );
    print(
      `  matrix wall (slowest shard) ${formatDuration(slowest)} vs unsharded ${formatDuration(whole.wallMs)}: ×${(whole.wallMs / slowest).toFixed(2)}; the shards' sum ${formatDuration(sum)} (each pays its own start and model graph)`,
    );
    const d = digestOf(merged);
    print(`  merged: ${merged.status}, counts ${JSON.stringify({ ...merged.counts, tourMs: undefined })}`);
    print(
      `  merged digest ${d === digestOf(whole.report) && d !== null ? "EQUAL to the unsharded run's" : `DIFFERENT from the unsharded run's (${String(d).slice(0, 12)}… vs ${String(digestOf(whole.report)).slice(0, 12)}…)`} (${String(d).slice(0, 16)}…)`,
    );
  },
};
