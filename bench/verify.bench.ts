import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/core/project-root.js';
import type { VerifyReport } from '../src/report/verify-doc.js';
import { formatCounts, formatDuration } from '../src/verify/progress.js';
import type { BenchSection } from './section.js';
import { ownedTempDir } from '../src/core/temp-dir.js';

/**
 * Wall time of a full `fencecheck verify` and of each stage (each stage's process wall time, from
 * the verify document). Extra verify options come from FENCECHECK_BENCH_VERIFY_ARGS
 * (e.g. "--runs 50" or "--skip mutants:impl"). The verdict is printed, not asserted.
 */
export const section: BenchSection = {
  name: 'verify',
  title: 'verify: wall time of a full run and of each stage',
  async run(print) {
    const out = ownedTempDir('bench-verify');
    const extra = (process.env.FENCECHECK_BENCH_VERIFY_ARGS ?? '').split(/\s+/).filter(Boolean);
    const args = [join(projectRoot, 'bin/fencecheck.mjs'), 'verify', '--out', out, ...extra];
    print(`command: fencecheck verify --out ${out}${extra.length ? ` ${extra.join(' ')}` : ''}`);
    const t0 = performance.now();
    const code = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, args, { cwd: projectRoot, maxBuffer: 64 * 1024 * 1024 }, (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0));
      child.stdout?.on('data', () => {});
    });
    const wall = performance.now() - t0;
    let doc: VerifyReport;
    try {
      doc = JSON.parse(readFileSync(join(out, 'verify.json'), 'utf8')) as VerifyReport;
    } catch (err) {
      throw new Error(`verify exited ${code} and wrote no verify.json: ${(err as Error).message}`);
    }
    const serial = doc.stages.reduce((t, s) => t + s.durationMs, 0);
    print(`full verify: ${formatDuration(wall)} wall (process), ${formatDuration(doc.durationMs)} in verify; verdict ${doc.verdict.status} (exit ${code})`);
    print(`sum of stage times ${formatDuration(serial)} → parallel speed-up ×${(serial / Math.max(1, doc.durationMs)).toFixed(2)} with --jobs ${doc.options.jobs} on ${doc.host.cpus} CPUs`);
    const w = Math.max(...doc.stages.map((s) => s.stage.length));
    for (const s of [...doc.stages].sort((a, b) => b.durationMs - a.durationMs)) {
      // A stage without figures says why (e.g. TLC not run: no jar), so a failed verdict is explained.
      const counts = formatCounts(s.counts) || (s.reason ?? '');
      print(`  ${s.stage.padEnd(w)}  ${formatDuration(s.durationMs).padStart(8)}  ${s.status.padEnd(8)}  ${counts.length > 90 ? `${counts.slice(0, 90)}…` : counts}`);
    }
  },
};
