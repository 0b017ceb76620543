import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/core/project-root.js';
import type { VerifyReport } from '../src/report/verify-doc.js';
import { formatCounts, formatDuration } from '../src/verify/progress.js';
import type { BenchSection } from './section.js';
import { ownedTempDir } from '../src/core/temp-dir.js';
import { processTreeCpu } from '../src/verify/watchdog.js';
import { cpus } from 'node:os';

/**
 * Wall time and CPU of a full `fencecheck verify` and of each stage (each stage's process wall time
 * and the CPU it and the children it waited for used — its servers, its workers — from the verify
 * document), beside the same run's raw ceilings: the cores' CPU seconds in the run's wall time, the
 * longest stage (the wall with unlimited slots) and the heavy stages' time over the --jobs slots.
 * Extra verify options come from FENCECHECK_BENCH_VERIFY_ARGS (e.g. "--runs 50" or "--skip
 * mutants:impl"). The verdict is printed, not asserted; other load on the machine moves every
 * figure, the ratios less.
 */
export const section: BenchSection = {
  name: 'verify',
  title: "verify: wall time and CPU of a full run and of each stage, beside the run's ceilings",
  async run(print) {
    const out = ownedTempDir('bench-verify');
    const extra = (process.env.FENCECHECK_BENCH_VERIFY_ARGS ?? '').split(/\s+/).filter(Boolean);
    const args = [join(projectRoot, 'bin/fencecheck.mjs'), 'verify', '--out', out, ...extra];
    print(`command: fencecheck verify --out ${out}${extra.length ? ` ${extra.join(' ')}` : ''}`);
    const t0 = performance.now();
    const cpu0 = processTreeCpu();
    const code = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, args, { cwd: projectRoot, maxBuffer: 64 * 1024 * 1024 }, (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0));
      child.stdout?.on('data', () => {});
    });
    const wall = performance.now() - t0;
    // The verify process and everything it waited for (stages, their servers and workers), reaped by now.
    const cpu1 = processTreeCpu();
    let doc: VerifyReport;
    try {
      doc = JSON.parse(readFileSync(join(out, 'verify.json'), 'utf8')) as VerifyReport;
    } catch (err) {
      throw new Error(`verify exited ${code} and wrote no verify.json: ${(err as Error).message}`);
    }
    const serial = doc.stages.reduce((t, s) => t + s.durationMs, 0);
    print(`full verify: ${formatDuration(wall)} wall (process), ${formatDuration(doc.durationMs)} in verify; verdict ${doc.verdict.status} (exit ${code})`);
    print(`sum of stage times ${formatDuration(serial)} → parallel speed-up ×${(serial / Math.max(1, doc.durationMs)).toFixed(2)} with --jobs ${doc.options.jobs} on ${doc.host.cpus} CPUs`);
    const cores = cpus().length;
    const cpuS = (c: { userMs: number; systemMs: number } | undefined | null) => (c ? (c.userMs + c.systemMs) / 1000 : null);
    const total = cpu0 && cpu1 ? { userMs: cpu1.userMs - cpu0.userMs, systemMs: cpu1.systemMs - cpu0.systemMs } : null;
    const served = doc.options.served ?? {};
    const longest = [...doc.stages].sort((a, b) => b.durationMs - a.durationMs)[0];
    print(
      `CPU: ${total ? `${(total.userMs / 1000).toFixed(1)} s user + ${(total.systemMs / 1000).toFixed(1)} s system = ${cpuS(total)!.toFixed(1)} s` : 'not measured here (no /proc)'}; ceiling ${cores} cores × ${formatDuration(wall)} = ${((cores * wall) / 1000).toFixed(1)} CPU s${total ? ` → ${((100 * cpuS(total)!) / ((cores * wall) / 1000)).toFixed(0)} % of it used` : ''}`,
    );
    if (longest)
      print(
        `wall ceilings: the longest stage ${longest.stage} ${formatDuration(longest.durationMs)} (the wall with unlimited slots); the stages' time over ${doc.options.jobs} slots ≈ ${formatDuration(serial / doc.options.jobs)}`,
      );
    const w = Math.max(...doc.stages.map((s) => s.stage.length));
    print(`  ${'stage'.padEnd(w)}  ${'wall'.padStart(8)}  ${'CPU s'.padStart(6)}  ${'CPU÷wall'.padStart(8)}  status    figures`);
    for (const s of [...doc.stages].sort((a, b) => b.durationMs - a.durationMs)) {
      // A stage without figures says why (e.g. TLC not run: no jar), so a failed verdict is explained.
      const counts = served[s.stage] ? `(run by ${served[s.stage]}: its unpatched tour) ${formatCounts(s.counts)}` : formatCounts(s.counts) || (s.reason ?? '');
      const c = cpuS(s.cpu);
      print(
        `  ${s.stage.padEnd(w)}  ${formatDuration(s.durationMs).padStart(8)}  ${(c === null ? '–' : c.toFixed(1)).padStart(6)}  ${(c === null ? '–' : (c / Math.max(0.001, s.durationMs / 1000)).toFixed(2)).padStart(8)}  ${s.status.padEnd(8)}  ${counts.length > 90 ? `${counts.slice(0, 90)}…` : counts}`,
      );
    }
  },
};
